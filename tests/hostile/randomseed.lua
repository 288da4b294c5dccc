-- attack: reseed the game's RNG
-- expect: runtime
-- message: attempt to call a nil value
math.randomseed(42)
