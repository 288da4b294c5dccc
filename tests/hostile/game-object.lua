-- attack: replace an API function for the next card
-- expect: runtime
-- message: readonly
local game = ...
game.inflict_damage = function() end
