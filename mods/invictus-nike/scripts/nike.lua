-- Nike's abilities (docs/invictus.md, docs/invictus-lua-api.md).
-- An attack's Lua runs after its damage: ctx.target is the attacked player.
local M = {}

function M.winged_strike(game, ctx)
  if game:health(ctx.target) <= 30 then
    game:gain_stamina(ctx.self, 2)
  end
end

function M.laurel(game, ctx)
  if game:health(ctx.target) <= 50 then
    game:heal(ctx.target, 20)
  else
    game:heal(ctx.target, 10)
  end
end

return M
