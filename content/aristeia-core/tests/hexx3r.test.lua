-- Tests of hEXx3r's scripted effects (characters/characters.toml).
return {
  {
    name = "Displace yourself: one Displacement of hEXx3r",
    card = "character:hexx3r",
    effect = "switches[id=displace-yourself].effect",
    ctx = { self = "hexx3r", target = "8-ball" },
    expect_calls = { 'displace("hexx3r", 1)' },
  },
  {
    name = "Gotcha's Switch imposes -2 Speed on the Target",
    card = "character:hexx3r",
    effect = "actions[id=gotcha].switches[id=minus-2-speed].effect",
    ctx = { self = "hexx3r", target = "8-ball" },
    expect_calls = { 'impose_state("8-ball", "minus-2-speed", nil)' },
  },
  {
    name = "Gotcha Immobilizes the Target",
    card = "character:hexx3r",
    effect = "actions[id=gotcha].effects[0]",
    ctx = { self = "hexx3r", target = "8-ball", successes = 1 },
    expect_calls = { 'impose_state("8-ball", "immobilized", nil)' },
  },
  {
    name = "Vade Retro Displaces the Target once, an Ally too",
    card = "character:hexx3r",
    effect = "actions[id=vade-retro].effects[0]",
    ctx = { self = "hexx3r", target = "maximus", successes = 2 },
    expect_calls = { 'displace("maximus", 1)' },
  },
}
