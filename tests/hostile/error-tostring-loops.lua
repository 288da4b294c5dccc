-- attack: an error object whose __tostring loops
-- expect: budget
-- message: 
error(setmetatable({}, { __tostring = function() while true do end end }))
