-- attack: table.foreach over table keys, whose order follows memory addresses
-- expect: runtime
-- message: cannot be iterated
local t = {}
for i = 1, 10 do t[{}] = i end
local first
table.foreach(t, function(k, v) first = first or v end)
return first
