-- attack: catch the budget error with pcall and return normally
-- expect: budget
-- message: 
pcall(function() while true do end end)
return "survived"
