-- attack: replace ctx's __index through its metatable, to change what the next card reads
-- expect: runtime
-- message: 
local game, ctx = ...
local mt = getmetatable(ctx)
mt.__index = function() return "pwned" end
