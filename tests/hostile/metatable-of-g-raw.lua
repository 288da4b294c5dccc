-- attack: replace the globals' metatable outright
-- expect: runtime
-- message: protected metatable
setmetatable(_G, { __index = function() return "pwned" end })
