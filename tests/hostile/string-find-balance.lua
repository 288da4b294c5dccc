-- attack: a %b pattern that rescans a 1 MB subject from every position
-- expect: budget
-- message: 
local s = string.rep("(", 1000000)
return s:find("%b()")
