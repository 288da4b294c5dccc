-- Tests of LaxMee's scripted effects (characters/characters.toml).

-- Purge '92 looks at every State a Character can carry, in this order.
local STATES = {
  "dazzled", "focused", "immobilized", "poisoned", "stunned", "taunted",
  "minus-2-energy", "minus-2-speed", "plus-2-initiative", "minus-2-initiative",
  "burning", "marked", "hidden", "silenced",
}
-- The has_state calls for every State of `who`, then `more` calls.
local function looks(who, more)
  local calls = {}
  for _, state in ipairs(STATES) do
    table.insert(calls, string.format('has_state("%s", "%s")', who, state))
  end
  for _, c in ipairs(more) do
    table.insert(calls, c)
  end
  return calls
end

return {
  {
    name = "Her Switch gains her 1 Movement Point",
    card = "character:laxmee",
    effect = "switches[id=gain-movement-point].effect",
    ctx = { self = "laxmee", target = "gata" },
    expect_calls = { 'gain_movement_points("laxmee", 1)' },
  },
  {
    name = "Stun Switch: Targets in Line of Sight within Range 1-4, the player's pick Stunned",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].switches[id=stun].effect",
    ctx = { self = "laxmee", target = "laxmee" },
    answers = {
      enemies_within = { { "gata", "wild-bill" } },
      allies_within = { { "valkyrie" } },
      -- Gata seen, Wild Bill not (and not Marked), Valkyrie seen.
      has_line_of_sight = { true, false, true },
      choose_target = { "valkyrie" },
    },
    expect_calls = {
      'enemies_within("laxmee", 1, 4)',
      'allies_within("laxmee", 1, 4)',
      'has_line_of_sight("laxmee", "gata")',
      'has_line_of_sight("laxmee", "wild-bill")',
      'has_state("wild-bill", "marked")',
      'has_line_of_sight("laxmee", "valkyrie")',
      'choose_target({"gata", "valkyrie"}, "D/BUff3r: impose Stunned on whom?")',
      'impose_state("valkyrie", "stunned", nil)',
    },
  },
  {
    name = "Stun Switch: a Marked Enemy out of sight is a valid Target",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].switches[id=stun].effect",
    ctx = { self = "laxmee", target = "gata" },
    answers = {
      enemies_within = { { "gata" } },
      has_line_of_sight = { false },
      has_state = { true },
    },
    expect_calls = {
      'enemies_within("laxmee", 1, 4)',
      'allies_within("laxmee", 1, 4)',
      'has_line_of_sight("laxmee", "gata")',
      'has_state("gata", "marked")',
      'choose_target({"gata"}, "D/BUff3r: impose Stunned on whom?")',
      'impose_state("gata", "stunned", nil)',
    },
  },
  {
    name = "Stun Switch with nobody within Range 1-4 does nothing",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].switches[id=stun].effect",
    ctx = { self = "laxmee", target = "laxmee" },
    expect_calls = {
      'enemies_within("laxmee", 1, 4)',
      'allies_within("laxmee", 1, 4)',
      'choose_target({}, "D/BUff3r: impose Stunned on whom?")',
      'log("D/BUff3r: no Target within Range 1-4")',
    },
  },
  {
    name = "Focus Switch: Range 0-4 offers LaxMee herself first",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].switches[id=focus].effect",
    ctx = { self = "laxmee", target = "gata" },
    answers = { allies_within = { { "hannibal" } }, has_line_of_sight = { true } },
    expect_calls = {
      'enemies_within("laxmee", 1, 4)',
      'allies_within("laxmee", 1, 4)',
      'has_line_of_sight("laxmee", "hannibal")',
      'choose_target({"laxmee", "hannibal"}, "D/BUff3r: impose Focused on whom?")',
      'impose_state("laxmee", "focused", nil)',
    },
  },
  {
    name = "D/BUff3r imposes the State the player chooses: Stunned",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].effects[0]",
    ctx = { self = "laxmee", target = "gata", successes = 1 },
    answers = { choose = { "stunned" } },
    expect_calls = {
      'choose({"stunned", "focused"}, "D/BUff3r: impose which State on the Target?")',
      'impose_state("gata", "stunned", nil)',
    },
  },
  {
    name = "D/BUff3r imposes the State the player chooses: Focused",
    card = "character:laxmee",
    effect = "actions[id=d-buff3r].effects[0]",
    ctx = { self = "laxmee", target = "hannibal", successes = 1 },
    answers = { choose = { "focused" } },
    expect_calls = {
      'choose({"stunned", "focused"}, "D/BUff3r: impose which State on the Target?")',
      'impose_state("hannibal", "focused", nil)',
    },
  },
  {
    name = "Purge '92 removes the token the player chooses",
    card = "character:laxmee",
    effect = "actions[id=purge-92].effects[0]",
    ctx = { self = "laxmee", target = "hannibal", successes = 1 },
    -- Dazzled and Taunted.
    answers = { has_state = { true, false, false, false, false, true }, choose = { "taunted" } },
    expect_calls = looks("hannibal", {
      [[choose({"dazzled", "taunted"}, "Purge '92: remove which State token?")]],
      'remove_state("hannibal", "taunted")',
    }),
  },
  {
    name = "Purge '92 removes the only token without asking",
    card = "character:laxmee",
    effect = "actions[id=purge-92].effects[0]",
    ctx = { self = "laxmee", target = "laxmee", successes = 1 },
    answers = { has_state = { false, false, true } },
    expect_calls = looks("laxmee", { 'remove_state("laxmee", "immobilized")' }),
  },
  {
    name = "Purge '92 on a Target without States does nothing",
    card = "character:laxmee",
    effect = "actions[id=purge-92].effects[0]",
    ctx = { self = "laxmee", target = "valkyrie", successes = 1 },
    expect_calls = looks("valkyrie", { [[log("Purge '92: the Target has no State token")]] }),
  },
}
