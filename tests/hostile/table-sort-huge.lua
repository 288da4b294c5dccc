-- attack: sort millions of elements again and again
-- expect: budget
-- message: instruction budget exhausted
local t = {}
for i = 1, 300000 do t[i] = (i * 7919) % 300000 end
for i = 1, 1000 do table.sort(t) end
