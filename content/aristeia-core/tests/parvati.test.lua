-- Tests of Parvati's scripted effects (characters/characters.toml).

-- Reset looks at every State a Character can carry, in this order.
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

local reset_some = { 'has_state("maximus", "dazzled")', 'remove_state("maximus", "dazzled")' }
looks(reset_some, "maximus", 1, 4) -- dazzled gone; focused, immobilized no; poisoned yes
table.insert(reset_some, 'remove_state("maximus", "poisoned")')
table.insert(reset_some, 'has_state("maximus", "poisoned")') -- a second Poisoned token
table.insert(reset_some, 'remove_state("maximus", "poisoned")')
looks(reset_some, "maximus", 4, 14)

return {
  {
    name = "+2 Initiative goes on Parvati herself",
    card = "character:parvati",
    effect = "switches[id=plus-2-initiative].effect",
    ctx = { self = "parvati", target = "gata" },
    expect_calls = { 'impose_state("parvati", "plus-2-initiative", nil)' },
  },
  {
    name = "Reset removes every State token, both Poisoned tokens included",
    card = "character:parvati",
    effect = "actions[id=reset].effects[0]",
    ctx = { self = "parvati", target = "maximus", successes = 1 },
    -- dazzled, then: dazzled gone, focused no, immobilized no, poisoned x2, then none.
    answers = { has_state = { true, false, false, false, true, true, false } },
    expect_calls = reset_some,
  },
  {
    name = "Reset on a Target without States only looks",
    card = "character:parvati",
    effect = "actions[id=reset].effects[0]",
    ctx = { self = "parvati", target = "parvati", successes = 1 },
    expect_calls = looks({}, "parvati", 1, 14),
  },
  {
    name = "MediKit heals 1 Damage from the Target",
    card = "character:parvati",
    effect = "actions[id=medikit].effects[0]",
    ctx = { self = "parvati", target = "maximus", successes = 1 },
    expect_calls = { 'heal("maximus", 1)' },
  },
}
