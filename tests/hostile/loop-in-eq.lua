-- attack: an endless loop in __eq
-- expect: budget
-- message: 
local mt = { __eq = function() while true do end end }
local a, b = setmetatable({}, mt), setmetatable({}, mt)
return a == b
