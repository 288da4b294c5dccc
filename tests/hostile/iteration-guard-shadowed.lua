-- attack: shadow the sandbox's iteration guard with a local that lets tables through
-- expect: compile
-- message: reserves
local __arena_iter = function(...) return ... end
local t = { [{}] = 1 }
for k in t do return k end
