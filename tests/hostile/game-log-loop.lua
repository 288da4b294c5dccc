-- attack: game:log in a loop
-- expect: runtime
-- message: log limit reached
local game = ...
for i = 1, 1e6 do game:log("spam") end
