-- attack: write into ctx, to leave state for the next call
-- expect: runtime
-- message: ctx is read-only
local game, ctx = ...
ctx.target = "somebody-else"
