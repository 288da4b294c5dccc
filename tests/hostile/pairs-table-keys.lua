-- attack: pairs over table keys, whose order follows memory addresses
-- expect: runtime
-- message: cannot be iterated
local t = {}
for i = 1, 10 do t[{}] = i end
local order = {}
for _, v in pairs(t) do order[#order + 1] = v end
return table.concat(order, ",")
