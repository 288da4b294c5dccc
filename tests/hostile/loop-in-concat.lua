-- attack: an endless loop in __concat
-- expect: budget
-- message: 
local t = setmetatable({}, { __concat = function() while true do end end })
return t .. "x"
