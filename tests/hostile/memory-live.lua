-- attack: keep more than the memory limit live, collecting is no help
-- expect: memory
-- message: 
local keep = {}
for i = 1, 1e9 do keep[i] = string.rep("k", 1000000) .. i end
