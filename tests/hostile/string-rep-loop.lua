-- attack: many large string.rep results, each made inside one C call
-- expect: budget
-- message: instruction budget exhausted
local n = 0
for i = 1, 1e9 do n = n + #string.rep("x", 8000000) end
return n
