-- attack: a table of large strings growing without end
-- expect: memory
-- message: 
local t = {}
for i = 1, 1e9 do t[i] = string.rep("x", 100000) .. i end
