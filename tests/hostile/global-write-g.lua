-- attack: keep state in _G
-- expect: runtime
-- message: readonly
_G.counter = 1
