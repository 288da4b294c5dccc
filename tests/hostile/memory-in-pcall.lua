-- attack: catch the memory error and allocate again
-- expect: memory
-- message: 
local t = {}
for i = 1, 1e9 do pcall(function() t[#t + 1] = string.rep("z", 1000000) .. i end) end
