-- attack: calling the API without self
-- expect: runtime
-- message: with a colon
local game = ...
game.inflict_damage("valkyrie", 1)
