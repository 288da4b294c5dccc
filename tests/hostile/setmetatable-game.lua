-- attack: give the game object a metatable
-- expect: runtime
-- message: readonly
local game = ...
setmetatable(game, {})
