-- Tests of Major Lunah's scripted effects (characters/characters.toml).
return {
  {
    name = "Nullify a Block removes one Block of the opponent's Roll",
    card = "character:major-lunah",
    effect = "switches[id=nullify-block].effect",
    ctx = { self = "major-lunah", target = "miyamoto-mushashi" },
    answers = { nullify_symbol = { true } },
    expect_calls = { 'nullify_symbol("opponent", "block")' },
  },
  {
    name = "Nullify a Block with no Block to Nullify says so",
    card = "character:major-lunah",
    effect = "switches[id=nullify-block].effect",
    ctx = { self = "major-lunah", target = "miyamoto-mushashi" },
    answers = { nullify_symbol = { false } },
    expect_calls = {
      'nullify_symbol("opponent", "block")',
      [[log("Nullify a Block: the opponent's Roll has no Block")]],
    },
  },
  {
    name = "Suppressive Fire inflicts 1 Damage on the Target",
    card = "character:major-lunah",
    effect = "actions[id=suppressive-fire].effects[0]",
    ctx = { self = "major-lunah", target = "gata", successes = 1 },
    expect_calls = { 'inflict_damage("gata", 1)' },
  },
  {
    name = "Suppressive Fire imposes -2 Speed on the Target",
    card = "character:major-lunah",
    effect = "actions[id=suppressive-fire].effects[1]",
    ctx = { self = "major-lunah", target = "gata", successes = 1 },
    expect_calls = { 'impose_state("gata", "minus-2-speed", nil)' },
  },
  {
    name = "Marksmanship ignores the Target's Cover",
    card = "character:major-lunah",
    effect = "automatic_skills[id=marksmanship].effect",
    ctx = { self = "major-lunah", target = "miyamoto-mushashi" },
    expect_calls = { 'ignore_cover()' },
  },
  {
    name = "Veteran Sniper adds an Orange die instead of the Black Cover die",
    card = "character:major-lunah",
    effect = "automatic_skills[id=veteran-sniper].effect",
    ctx = { self = "major-lunah", target = "miyamoto-mushashi" },
    expect_calls = { 'cover_die("orange")' },
  },
}
