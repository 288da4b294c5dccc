-- Tests of the Soldiers of Fortune Tactics' scripted effects (tactics/tactics.toml).
-- For a Tactic, ctx.self is the active Character. Not scripted: ¡Es hora de
-- armar el bonche! (changes ¡Tangana! until the end of the Activation), Ice Wall
-- (adds dice before a Roll) and Atom (reduces the opponent's Roll to one die).

-- Team Reset looks at every State a Character can carry, in this order.
local STATES = {
  "dazzled", "focused", "immobilized", "poisoned", "stunned", "taunted",
  "minus-2-energy", "minus-2-speed", "plus-2-initiative", "minus-2-initiative",
  "burning", "marked", "hidden", "silenced",
}
-- The has_state calls for STATES[from..to] of `who`, appended to `calls`.
local function looks(calls, who, from, to)
  for i = from, to do
    table.insert(calls, string.format('has_state("%s", "%s")', who, STATES[i]))
  end
  return calls
end

-- LaxMee has Focused (state 2); Valkyrie has nothing.
local reset = { 'allies_within("laxmee", 1, 99)' }
looks(reset, "laxmee", 1, 2)
table.insert(reset, 'remove_state("laxmee", "focused")')
looks(reset, "laxmee", 2, 14)
looks(reset, "valkyrie", 1, 14)

return {
  {
    name = "Kiss My Sexy Ass Taunts every Enemy in the HexaDome, provoked by Señor Massacre",
    card = "tactic:kiss-my-sexy-ass",
    effect = "effect",
    ctx = { self = "senor-massacre" },
    answers = { enemies_within = { { "hexx3r", "maximus" } } },
    expect_calls = {
      'enemies_within("senor-massacre", 1, 99)',
      'impose_state("hexx3r", "taunted", "senor-massacre")',
      'impose_state("maximus", "taunted", "senor-massacre")',
    },
  },
  {
    name = "Epic Regeneration heals all of Señor Massacre's Damage, in anyone's Activation",
    card = "tactic:epic-regeneration",
    effect = "effect",
    ctx = { self = "gata" },
    answers = { damage = { 3 } },
    expect_calls = { 'damage("senor-massacre")', 'heal("senor-massacre", 3)' },
  },
  {
    name = "Epic Regeneration with no Damage heals nothing",
    card = "tactic:epic-regeneration",
    effect = "effect",
    ctx = { self = "senor-massacre" },
    expect_calls = { 'damage("senor-massacre")' },
  },
  {
    name = "Say It to My Face! Places a Taunted Character next to Señor Massacre",
    card = "tactic:say-it-to-my-face",
    effect = "effect",
    ctx = { self = "senor-massacre" },
    answers = {
      enemies_within = { { "gata", "8-ball" } },
      allies_within = { { "valkyrie" } },
      -- Gata Taunted, 8-Ball not, Valkyrie Taunted but out of sight and not Marked.
      has_state = { true, false, true, false },
      has_line_of_sight = { true, false },
      free_spaces_within = { { { 1, 0 }, { 0, 1 } } },
      choose_space = { { 1, 0 } },
    },
    expect_calls = {
      'enemies_within("senor-massacre", 1, 5)',
      'allies_within("senor-massacre", 1, 5)',
      'has_state("gata", "taunted")',
      'has_line_of_sight("senor-massacre", "gata")',
      'has_state("8-ball", "taunted")',
      'has_state("valkyrie", "taunted")',
      'has_line_of_sight("senor-massacre", "valkyrie")',
      'has_state("valkyrie", "marked")',
      'choose_target({"gata"}, "Say It to My Face!: Place which Taunted Character?")',
      'free_spaces_within("senor-massacre", 1, 1)',
      'choose_space({{1, 0}, {0, 1}}, "Say It to My Face!: Place the Target where?")',
      'place("gata", {1, 0})',
    },
  },
  {
    name = "Say It to My Face! with no Free space Adjacent to him uses one Adjacent to those (000 § Placing)",
    card = "tactic:say-it-to-my-face",
    effect = "effect",
    ctx = { self = "senor-massacre" },
    answers = {
      enemies_within = { { "gata" } },
      has_state = { true },
      has_line_of_sight = { true },
      free_spaces_within = { {}, { { 2, 0 } } },
      choose_space = { { 2, 0 } },
    },
    expect_calls = {
      'enemies_within("senor-massacre", 1, 5)',
      'allies_within("senor-massacre", 1, 5)',
      'has_state("gata", "taunted")',
      'has_line_of_sight("senor-massacre", "gata")',
      'choose_target({"gata"}, "Say It to My Face!: Place which Taunted Character?")',
      'free_spaces_within("senor-massacre", 1, 1)',
      'free_spaces_within("senor-massacre", 2, 2)',
      'choose_space({{2, 0}}, "Say It to My Face!: Place the Target where?")',
      'place("gata", {2, 0})',
    },
  },
  {
    name = "Say It to My Face! with no Taunted Character does nothing",
    card = "tactic:say-it-to-my-face",
    effect = "effect",
    ctx = { self = "senor-massacre" },
    answers = { enemies_within = { { "gata" } } },
    expect_calls = {
      'enemies_within("senor-massacre", 1, 5)',
      'allies_within("senor-massacre", 1, 5)',
      'has_state("gata", "taunted")',
      'choose_target({}, "Say It to My Face!: Place which Taunted Character?")',
      'log("Say It to My Face!: no Taunted Character within Range 1-5")',
    },
  },
  {
    name = "Odin's Breath gains 3 Movement Points",
    card = "tactic:odins-breath",
    effect = "effect",
    ctx = { self = "valkyrie" },
    expect_calls = { 'gain_movement_points("valkyrie", 3)' },
  },
  {
    name = "Valkyrie's Cry inflicts 2 Damage on a damaged Target in sight",
    card = "tactic:valkyries-cry",
    effect = "effect",
    ctx = { self = "valkyrie" },
    answers = {
      enemies_within = { { "hexx3r", "maximus" } },
      damage = { 0, 2 },
      has_line_of_sight = { true },
    },
    expect_calls = {
      'enemies_within("valkyrie", 1, 5)',
      'allies_within("valkyrie", 1, 5)',
      'damage("hexx3r")',
      'damage("maximus")',
      'has_line_of_sight("valkyrie", "maximus")',
      [[choose_target({"maximus"}, "Valkyrie's Cry: inflict 2 Damage on whom?")]],
      'inflict_damage("maximus", 2)',
    },
  },
  {
    name = "Valkyrie's Cry with no damaged Target does nothing",
    card = "tactic:valkyries-cry",
    effect = "effect",
    ctx = { self = "valkyrie" },
    answers = { enemies_within = { { "hexx3r" } } },
    expect_calls = {
      'enemies_within("valkyrie", 1, 5)',
      'allies_within("valkyrie", 1, 5)',
      'damage("hexx3r")',
      [[choose_target({}, "Valkyrie's Cry: inflict 2 Damage on whom?")]],
      [[log("Valkyrie's Cry: no Target with Damage within Range 1-5")]],
    },
  },
  {
    name = "Frostburn Immobilizes the chosen Target",
    card = "tactic:frostburn",
    effect = "effect",
    ctx = { self = "valkyrie" },
    answers = { enemies_within = { { "gata" } }, has_line_of_sight = { true } },
    expect_calls = {
      'enemies_within("valkyrie", 1, 5)',
      'allies_within("valkyrie", 1, 5)',
      'has_line_of_sight("valkyrie", "gata")',
      'choose_target({"gata"}, "Frostburn: impose Immobilized on whom?")',
      'impose_state("gata", "immobilized", nil)',
    },
  },
  {
    name = "Frostburn with nobody within Range does nothing",
    card = "tactic:frostburn",
    effect = "effect",
    ctx = { self = "valkyrie" },
    expect_calls = {
      'enemies_within("valkyrie", 1, 5)',
      'allies_within("valkyrie", 1, 5)',
      'choose_target({}, "Frostburn: impose Immobilized on whom?")',
      'log("Frostburn: no Target within Range 1-5")',
    },
  },
  {
    name = "4-Kaleidoscope Stuns every Enemy in sight within Range 1-7",
    card = "tactic:4-kaleidoscope",
    effect = "effect",
    ctx = { self = "laxmee" },
    answers = { enemies_within = { { "gata", "wild-bill" } }, has_line_of_sight = { false, true } },
    expect_calls = {
      'enemies_within("laxmee", 1, 7)',
      'has_line_of_sight("laxmee", "gata")',
      'has_state("gata", "marked")',
      'has_line_of_sight("laxmee", "wild-bill")',
      'impose_state("wild-bill", "stunned", nil)',
    },
  },
  {
    name = "Team Upgrade Focuses LaxMee and every Ally in the HexaDome",
    card = "tactic:team-upgrade",
    effect = "effect",
    ctx = { self = "laxmee" },
    answers = { allies_within = { { "valkyrie", "hannibal" } } },
    expect_calls = {
      'impose_state("laxmee", "focused", nil)',
      'allies_within("laxmee", 1, 99)',
      'impose_state("valkyrie", "focused", nil)',
      'impose_state("hannibal", "focused", nil)',
    },
  },
  {
    name = "Team Reset removes every State from LaxMee and her Allies",
    card = "tactic:team-reset",
    effect = "effect",
    ctx = { self = "laxmee" },
    answers = { allies_within = { { "valkyrie" } }, has_state = { false, true, false } },
    expect_calls = reset,
  },
  {
    name = "ice-wall adds 2 Blue dice to the Roll",
    card = "tactic:ice-wall",
    effect = "effect",
    ctx = { self = "valkyrie" },
    expect_calls = { 'add_die("blue", 2)' },
  },
  {
    name = "Valkyrie's Cry is offered with a Damaged Target in sight",
    card = "tactic:valkyries-cry",
    effect = "condition",
    ctx = { self = "valkyrie" },
    answers = { enemies_within = { { "gata" } }, allies_within = { {} }, damage = { 1 }, has_line_of_sight = { true } },
    expect_calls = {
      'enemies_within("valkyrie", 1, 5)',
      'allies_within("valkyrie", 1, 5)',
      'damage("gata")',
      'has_line_of_sight("valkyrie", "gata")',
    },
    expect_result = true,
  },
  {
    name = "Valkyrie's Cry is not offered when nobody in Range has Damage",
    card = "tactic:valkyries-cry",
    effect = "condition",
    ctx = { self = "valkyrie" },
    answers = { enemies_within = { { "gata" } }, allies_within = { {} }, damage = { 0 } },
    expect_calls = { 'enemies_within("valkyrie", 1, 5)', 'allies_within("valkyrie", 1, 5)', 'damage("gata")' },
    expect_result = false,
  },
}
