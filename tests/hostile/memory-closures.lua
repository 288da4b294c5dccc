-- attack: closures holding large upvalues
-- expect: memory
-- message: 
local fs = {}
for i = 1, 1e9 do local big = string.rep("y", 50000) .. i; fs[i] = function() return big end end
