-- attack: concatenate a 16 MB string again and again (each `..` copies it, with no call to count)
-- expect: budget
-- message: 
local s = string.rep("x", 2^24)
for i = 1, 1e9 do local t = s .. i end
