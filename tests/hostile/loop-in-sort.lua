-- attack: an endless loop in a table.sort comparator
-- expect: budget
-- message: 
local t = {3, 1, 2}
table.sort(t, function(a, b) while true do end end)
