-- attack: an endless loop in __index
-- expect: budget
-- message: 
local t = setmetatable({}, { __index = function() while true do end end })
return t.x
