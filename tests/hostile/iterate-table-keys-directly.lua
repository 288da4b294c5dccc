-- attack: iterate a table keyed by tables directly (generalized iteration), whose order follows memory addresses
-- expect: runtime
-- message: cannot be iterated
local t = {}
for i = 1, 10 do t[{}] = i end
local order = {}
for _, v in t do order[#order + 1] = v end
return table.concat(order, ",")
