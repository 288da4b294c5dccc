-- attack: remove from the front of a 2M-element array, moving it all each time
-- expect: budget
-- message: instruction budget exhausted
local t = table.create(2000000, 1)
for i = 1, 10000 do table.remove(t, 1) end
