-- attack: print with thousands of long arguments
-- expect: runtime
-- message: log limit reached
local t = table.create(7000, string.rep("x", 1000))
print(unpack(t))
