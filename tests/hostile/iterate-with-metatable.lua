-- attack: iterate a table keyed by functions directly, after giving it a metatable without __iter
-- expect: runtime
-- message: cannot be iterated
local t = setmetatable({ [print] = 1, [error] = 2, [type] = 3 }, {})
for k in t do return k == print end
