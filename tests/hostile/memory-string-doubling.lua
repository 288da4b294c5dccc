-- attack: a string that doubles until it fails
-- expect: memory
-- message: 
local s = "x"
for i = 1, 40 do s = s .. s end
return #s
