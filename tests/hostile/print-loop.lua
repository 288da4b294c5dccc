-- attack: print a large string many times
-- expect: runtime
-- message: log limit reached
local s = string.rep("y", 4000)
for i = 1, 1e6 do print(s) end
