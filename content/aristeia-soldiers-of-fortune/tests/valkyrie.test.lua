-- Tests of Valkyrie's scripted effects (characters/characters.toml). The first
-- two Effects of Charge of the Valkyrie are not scripted: they change the Roll
-- before it is made or before its Switches step, and Action Effects run after it.
return {
  {
    name = "Her Switch adds a Special",
    card = "character:valkyrie",
    effect = "switches[id=add-special].effect",
    ctx = { self = "valkyrie", target = "senor-massacre" },
    expect_calls = { 'add_symbol("special", 1)' },
  },
  {
    name = "After the Charge she Displaces herself next to the Target, where her player chooses",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[2]",
    ctx = { self = "valkyrie", target = "laxmee", successes = 2 },
    -- Valkyrie at {0, 0}, LaxMee two spaces away at {2, -1}: of Valkyrie's Free
    -- neighbours, {1, 0} and {1, -1} are Adjacent to LaxMee, {-1, 0} is not.
    answers = {
      position = { { 2, -1 } },
      free_spaces_within = { { { 1, 0 }, { -1, 0 }, { 1, -1 } } },
      choose_space = { { 1, -1 } },
    },
    expect_calls = {
      'position("laxmee")',
      'free_spaces_within("valkyrie", 1, 1)',
      'choose({"displace", "stay"}, "Charge of the Valkyrie: Displace yourself Adjacent to the Target?")',
      'choose_space({{1, 0}, {1, -1}}, "Charge of the Valkyrie: Displace Valkyrie where?")',
      'displace_to("valkyrie", {1, -1})',
    },
  },
  {
    name = "After the Charge she may stay",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[2]",
    ctx = { self = "valkyrie", target = "laxmee", successes = 0 },
    answers = { position = { { 1, 0 } }, free_spaces_within = { { { 1, -1 } } }, choose = { "stay" } },
    expect_calls = {
      'position("laxmee")',
      'free_spaces_within("valkyrie", 1, 1)',
      'choose({"displace", "stay"}, "Charge of the Valkyrie: Displace yourself Adjacent to the Target?")',
    },
  },
  {
    name = "After the Charge, no Displacement next to a Target sent to the Infirmary",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[2]",
    ctx = { self = "valkyrie", target = "laxmee", successes = 3 },
    -- LaxMee's position is not answered: nil, she is not in the HexaDome.
    expect_calls = { 'position("laxmee")' },
  },
  {
    name = "After the Charge, a Target three spaces away is out of one Displacement",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[2]",
    ctx = { self = "valkyrie", target = "laxmee", successes = 1 },
    answers = { position = { { 3, 0 } }, free_spaces_within = { { { 1, 0 }, { -1, 0 } } } },
    expect_calls = {
      'position("laxmee")',
      'free_spaces_within("valkyrie", 1, 1)',
      'log("Charge of the Valkyrie: no Free space Adjacent to the Target is one Displacement away")',
    },
  },
  {
    name = "Frostbite Immobilizes every Adjacent Enemy",
    card = "character:valkyrie",
    effect = "actions[id=frostbite].effects[0]",
    ctx = { self = "valkyrie" },
    answers = { enemies_within = { { "senor-massacre", "laxmee" } } },
    expect_calls = {
      'enemies_within("valkyrie", 1, 1)',
      'impose_state("senor-massacre", "immobilized", nil)',
      'impose_state("laxmee", "immobilized", nil)',
    },
  },
  {
    name = "Frostbite with nobody Adjacent does nothing",
    card = "character:valkyrie",
    effect = "actions[id=frostbite].effects[0]",
    ctx = { self = "valkyrie" },
    expect_calls = { 'enemies_within("valkyrie", 1, 1)' },
  },
  {
    name = "Charge of the Valkyrie: one Orange die per Movement Point spent",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[0]",
    ctx = { self = "valkyrie", target = "gata" },
    answers = { movement_points_spent = { 2 } },
    expect_calls = { 'movement_points_spent("valkyrie")', 'add_die("orange", 2)' },
  },
  {
    name = "Charge of the Valkyrie: at most 3 Orange dice",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[0]",
    ctx = { self = "valkyrie", target = "gata" },
    answers = { movement_points_spent = { 6 } },
    expect_calls = { 'movement_points_spent("valkyrie")', 'add_die("orange", 3)' },
  },
  {
    name = "Charge of the Valkyrie without moving adds nothing",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[0]",
    ctx = { self = "valkyrie", target = "gata" },
    answers = { movement_points_spent = { 0 } },
    expect_calls = { 'movement_points_spent("valkyrie")' },
  },
  {
    name = "Charge of the Valkyrie Nullifies a Block of the opponent's Roll",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[1]",
    ctx = { self = "valkyrie", target = "gata" },
    answers = { nullify_symbol = { true } },
    expect_calls = { 'nullify_symbol("opponent", "block")' },
  },
  {
    name = "Charge of the Valkyrie against a Roll without Blocks only says so",
    card = "character:valkyrie",
    effect = "actions[id=charge-of-the-valkyrie].effects[1]",
    ctx = { self = "valkyrie", target = "gata" },
    answers = { nullify_symbol = { false } },
    expect_calls = {
      'nullify_symbol("opponent", "block")',
      'log("Charge of the Valkyrie: the opponent\'s Roll has no Block")',
    },
  },
}
