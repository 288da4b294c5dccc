-- Tests of Señor Massacre's scripted effects (characters/characters.toml).
-- ¡Te voy a cascar!'s Effect (an Orange die added to the Roll) is not scripted:
-- Action Effects run after the Roll.
return {
  {
    name = "Taunt: the Target is Taunted, provoked by Señor Massacre",
    card = "character:senor-massacre",
    effect = "switches[id=taunt].effect",
    ctx = { self = "senor-massacre", target = "valkyrie" },
    expect_calls = { 'impose_state("valkyrie", "taunted", "senor-massacre")' },
  },
  {
    name = "Taunt in a Roll with no Target does nothing",
    card = "character:senor-massacre",
    effect = "switches[id=taunt].effect",
    ctx = { self = "senor-massacre" },
    expect_calls = { 'log("Taunt: this Roll has no Target")' },
  },
  {
    name = "¡Te voy a cascar!'s Switch Nullifies a Block of the Defense Roll",
    card = "character:senor-massacre",
    effect = "actions[id=te-voy-a-cascar].switches[id=nullify-block].effect",
    ctx = { self = "senor-massacre", target = "hannibal" },
    answers = { nullify_symbol = { true } },
    expect_calls = { 'nullify_symbol("opponent", "block")' },
  },
  {
    name = "¡Te voy a cascar!'s Switch with no Block to Nullify says so",
    card = "character:senor-massacre",
    effect = "actions[id=te-voy-a-cascar].switches[id=nullify-block].effect",
    ctx = { self = "senor-massacre", target = "hannibal" },
    expect_calls = {
      'nullify_symbol("opponent", "block")',
      [[log("Nullify a Block: the opponent's Roll has no Block")]],
    },
  },
  {
    name = "¡Hey, malparío! Taunts the Target, provoked by Señor Massacre",
    card = "character:senor-massacre",
    effect = "actions[id=hey-malpario].effects[0]",
    ctx = { self = "senor-massacre", target = "laxmee", successes = 0 },
    expect_calls = { 'impose_state("laxmee", "taunted", "senor-massacre")' },
  },
  {
    name = "¡Tangana! Places him next to a Taunted Target",
    card = "character:senor-massacre",
    effect = "actions[id=tangana].effects[0]",
    ctx = { self = "senor-massacre", target = "laxmee" },
    answers = { has_state = { true }, distance = { 3 }, position = { { 0, 0 } } },
    expect_calls = {
      'has_state("laxmee", "taunted")',
      'distance("senor-massacre", "laxmee")',
      'position("laxmee")',
      'place("senor-massacre", {1, 0})',
    },
  },
  {
    name = "¡Tangana! does nothing when the Target is not Taunted",
    card = "character:senor-massacre",
    effect = "actions[id=tangana].effects[0]",
    ctx = { self = "senor-massacre", target = "laxmee" },
    expect_calls = {
      'has_state("laxmee", "taunted")',
      'log("¡Tangana!: the Target is not Taunted")',
    },
  },
  {
    name = "¡Tangana! leaves him where he is when already Adjacent",
    card = "character:senor-massacre",
    effect = "actions[id=tangana].effects[0]",
    ctx = { self = "senor-massacre", target = "laxmee" },
    answers = { has_state = { true }, distance = { 1 } },
    expect_calls = {
      'has_state("laxmee", "taunted")',
      'distance("senor-massacre", "laxmee")',
    },
  },
  {
    name = "Regeneration heals him of 1 Damage",
    card = "character:senor-massacre",
    effect = "automatic_skills[id=regeneration].effect",
    ctx = { self = "senor-massacre" },
    answers = { damage = { 2 } },
    expect_calls = { 'damage("senor-massacre")', 'heal("senor-massacre", 1)' },
  },
  {
    name = "Regeneration with no Damage heals nothing",
    card = "character:senor-massacre",
    effect = "automatic_skills[id=regeneration].effect",
    ctx = { self = "senor-massacre" },
    expect_calls = { 'damage("senor-massacre")' },
  },
  {
    name = "Te voy a cascar adds an Orange die against a Taunted Target",
    card = "character:senor-massacre",
    effect = "actions[id=te-voy-a-cascar].effects[0]",
    ctx = { self = "senor-massacre", target = "gata" },
    answers = { has_state = { true } },
    expect_calls = { 'has_state("gata", "taunted")', 'add_die("orange", nil)' },
  },
  {
    name = "Te voy a cascar adds nothing against a Target that is not Taunted",
    card = "character:senor-massacre",
    effect = "actions[id=te-voy-a-cascar].effects[0]",
    ctx = { self = "senor-massacre", target = "gata" },
    answers = { has_state = { false } },
    expect_calls = { 'has_state("gata", "taunted")' },
  },
}
