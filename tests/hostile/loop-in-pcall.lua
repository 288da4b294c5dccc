-- attack: an endless loop inside pcall, retried forever
-- expect: budget
-- message: 
while true do pcall(function() while true do end end) end
