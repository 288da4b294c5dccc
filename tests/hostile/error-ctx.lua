-- attack: raise ctx as the error, to print its address
-- expect: runtime
-- message: ctx
local game, ctx = ...
error(ctx)
