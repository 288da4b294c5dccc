-- Tests of Gata's scripted effects (characters/characters.toml). Freerun is
-- not scripted: its cost, "Spend 1 Movement Point", cannot be paid through the API.
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
}
