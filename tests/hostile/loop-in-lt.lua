-- attack: an endless loop in __lt
-- expect: budget
-- message: 
local mt = { __lt = function() while true do end end }
local a, b = setmetatable({}, mt), setmetatable({}, mt)
return a < b
