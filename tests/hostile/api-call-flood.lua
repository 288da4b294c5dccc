-- attack: millions of game: calls, each recorded by the host
-- expect: budget
-- message: instruction budget exhausted
local game, ctx = ...
for i = 1, 1e9 do game:active_character() end
