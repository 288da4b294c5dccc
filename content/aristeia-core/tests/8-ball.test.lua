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
    name = "Be Water, Dude: the player chooses a Free space Adjacent to 8-Ball",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    answers = { free_spaces_within = { { { 3, -3 }, { 2, -2 } } }, choose_space = { { 2, -2 } } },
    expect_calls = {
      'free_spaces_within("8-ball", 1, 1)',
      'choose_space({{3, -3}, {2, -2}}, "Be Water, Dude: Place the Target where?")',
      'place("parvati", {2, -2})',
    },
  },
  {
    name = "Be Water, Dude: with no Free space Adjacent, one Adjacent to those (000 § Placing)",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    answers = { free_spaces_within = { {}, { { 4, -3 } } }, choose_space = { { 4, -3 } } },
    expect_calls = {
      'free_spaces_within("8-ball", 1, 1)',
      'free_spaces_within("8-ball", 2, 2)',
      'choose_space({{4, -3}}, "Be Water, Dude: Place the Target where?")',
      'place("parvati", {4, -3})',
    },
  },
  {
    name = "Be Water, Dude does nothing when there is no space at all",
    card = "character:8-ball",
    effect = "actions[id=be-water-dude].effects[0]",
    ctx = { self = "8-ball", target = "parvati", successes = 1 },
    answers = { free_spaces_within = { {}, {} } },
    expect_calls = {
      'free_spaces_within("8-ball", 1, 1)',
      'free_spaces_within("8-ball", 2, 2)',
      'choose_space({}, "Be Water, Dude: Place the Target where?")',
      'log("Be Water, Dude: no Free space to Place the Target in")',
    },
  },
}
