-- attack: iterate a table keyed by tables directly, with extra loop values so the expression is a list
-- expect: runtime
-- message: table expected, got nil
local t = {}
for i = 1, 10 do t[{}] = i end
local order = {}
for _, v in t, nil, nil do order[#order + 1] = v end
return table.concat(order, ",")
