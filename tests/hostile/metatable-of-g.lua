-- attack: set __index on the globals' metatable, so every missing global of every pack answers
-- expect: runtime
-- message: attempt to index boolean
local mt = getmetatable(_G)
mt.__index = function() return "pwned" end
