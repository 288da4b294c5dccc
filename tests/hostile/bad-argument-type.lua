-- attack: a wrong-typed API argument
-- expect: runtime
-- message: bad argument #2 `amount` to inflict_damage (integer expected, got string)
local game = ...
game:inflict_damage("valkyrie", "two")
