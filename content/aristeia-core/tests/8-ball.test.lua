-- Tests of 8-Ball's scripted effects (characters/characters.toml).
return {
  {
    name = "Displace yourself: one Displacement of 8-Ball",
    card = "character:8-ball",
    effect = "switches[id=displace-yourself].effect",
    ctx = { self = "8-ball", target = "maximus" },
    expect_calls = { 'displace("8-ball", 1)' },
  },
  {
    name = "Eat my Fa Jing!'s Switch Displaces the Target once",
    card = "character:8-ball",
    effect = "actions[id=eat-my-fa-jing].switches[id=displace-target].effect",
    ctx = { self = "8-ball", target = "maximus" },
    expect_calls = { 'displace("maximus", 1)' },
  },
  {
    name = "Be Water, Dude Places the Target in the first Free space Adjacent to 8-Ball",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    answers = { distance = { 2 }, position = { { 2, -3 } } },
    expect_calls = {
      'distance("8-ball", "parvati")',
      'position("8-ball")',
      'place("parvati", {3, -3})',
    },
  },
  {
    name = "Be Water, Dude leaves an Adjacent Target where it is",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    answers = { distance = { 1 } },
    expect_calls = { 'distance("8-ball", "parvati")' },
  },
  {
    name = "Be Water, Dude does nothing when 8-Ball has no space",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    -- position is not answered: nil, as for a Character out of the HexaDome.
    answers = { distance = { 2 } },
    expect_calls = { 'distance("8-ball", "parvati")', 'position("8-ball")' },
  },
}
