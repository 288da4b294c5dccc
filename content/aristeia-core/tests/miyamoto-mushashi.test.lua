-- Tests of Miyamoto Mushashi's scripted effects (characters/characters.toml).
return {
  {
    name = "Adjacent to his Target, the Switch adds a Success",
    card = "character:miyamoto-mushashi",
    effect = "switches[id=add-success].effect",
    ctx = { self = "miyamoto-mushashi", target = "major-lunah" },
    answers = { distance = { 1 } },
    expect_calls = {
      'distance("miyamoto-mushashi", "major-lunah")',
      'add_symbol("success", 1)',
    },
  },
  {
    name = "Displaced away from his Target, the Switch adds nothing (rulings R4)",
    card = "character:miyamoto-mushashi",
    effect = "switches[id=add-success].effect",
    ctx = { self = "miyamoto-mushashi", target = "maximus" },
    answers = { distance = { 2 } },
    expect_calls = {
      'distance("miyamoto-mushashi", "maximus")',
      'log("Miyamoto Mushashi is not Adjacent to his Target: no Success added")',
    },
  },
  {
    name = "With no Target, the Switch adds nothing",
    card = "character:miyamoto-mushashi",
    effect = "switches[id=add-success].effect",
    ctx = { self = "miyamoto-mushashi" },
    expect_calls = { 'log("Miyamoto Mushashi is not Adjacent to his Target: no Success added")' },
  },
  {
    name = "Kaze Tachinu Displaces him once per Damage, until he stays",
    card = "character:miyamoto-mushashi",
    effect = "automatic_skills[id=kaze-tachinu].effect",
    ctx = { self = "miyamoto-mushashi", target = "maximus", successes = 3 },
    answers = { choose = { "displace", "displace", "stay" } },
    expect_calls = {
      'choose({"displace", "stay"}, "Kaze Tachinu: Displace yourself?")',
      'displace("miyamoto-mushashi", 1)',
      'choose({"displace", "stay"}, "Kaze Tachinu: Displace yourself?")',
      'displace("miyamoto-mushashi", 1)',
      'choose({"displace", "stay"}, "Kaze Tachinu: Displace yourself?")',
    },
  },
}
