-- attack: an error object whose __tostring errors
-- expect: runtime
-- message: 
error(setmetatable({}, { __tostring = function() error("again") end }))
