-- En Garde: an Automatic Skill. The file returns a function that the engine
-- calls with the game API and the effect's context.
return function(game, ctx)
  local near = math.min(#game:enemies_within(ctx.self, 1, 1), 2)
  if near > 0 then
    game:gain_action_points(ctx.self, near)
  end
  return near
end
