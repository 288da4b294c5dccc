-- attack: give a library a metatable, so its missing functions answer for every pack
-- expect: runtime
-- message: readonly
setmetatable(string, { __index = function() return function() return "pwned" end end })
