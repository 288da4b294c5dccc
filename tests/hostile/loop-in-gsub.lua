-- attack: an endless loop in a string.gsub callback
-- expect: budget
-- message: 
return string.gsub("aaaa", "a", function() while true do end end)
