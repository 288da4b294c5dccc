-- attack: next over function keys, whose order follows memory addresses
-- expect: runtime
-- message: cannot be iterated
local t = { [print] = 1, [error] = 2, [type] = 3 }
local k = next(t)
return k == print
