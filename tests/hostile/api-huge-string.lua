-- attack: a huge string through the API
-- expect: runtime
-- message: string of at most
local game = ...
game:inflict_damage(string.rep("v", 1000000), 1)
