-- En Garde: an Automatic Skill. The file returns a function that the engine
-- calls with the game API and the effect's context.
return function(game, ctx)
  return #game:enemies_within(ctx.self, 1, 1)
end
