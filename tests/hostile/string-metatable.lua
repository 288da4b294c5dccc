-- attack: change the shared string metatable
-- expect: runtime
-- message: readonly
getmetatable("").__index = { upper = function() return "pwned" end }
return ("x"):upper()
