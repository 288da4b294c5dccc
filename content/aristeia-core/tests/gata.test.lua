-- Tests of Gata's scripted effects (characters/characters.toml). Freerun's
-- Movement Point is spent by the engine (its `movement_cost`), not by the Lua.
return {
  {
    name = "Displace yourself: one Displacement of Gata",
    card = "character:gata",
    effect = "switches[id=displace-yourself].effect",
    ctx = { self = "gata", target = "major-lunah" },
    expect_calls = { 'displace("gata", 1)' },
  },
  {
    name = "Misdirection Dazzles the Target",
    card = "character:gata",
    effect = "actions[id=misdirection].effects[0]",
    ctx = { self = "gata", target = "major-lunah", successes = 1 },
    expect_calls = { 'impose_state("major-lunah", "dazzled", nil)' },
  },
  {
    name = "Freerun Places Gata in a Free space Adjacent to the Target (a Barrier)",
    card = "character:gata",
    effect = "actions[id=freerun].effects[0]",
    ctx = { self = "gata", target = "barrier@3,0" },
    answers = { free_spaces_within = { { { 4, -1 }, { 4, 0 } } }, choose_space = { { 4, 0 } } },
    expect_calls = {
      'free_spaces_within("barrier@3,0", 1, 1)',
      'choose_space({{4, -1}, {4, 0}}, "Freerun: Place Gata where?")',
      'place("gata", {4, 0})',
    },
  },
}
