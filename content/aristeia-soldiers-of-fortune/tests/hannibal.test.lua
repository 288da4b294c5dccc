-- Hannibal's scripted effects. Programmed Strategy (an Ally performs an Action)
-- is not scripted: the effect API cannot grant an Action yet.
return {
  {
    name = "Coordinated Assault counts Hannibal and each Ally with Line of Sight",
    card = "character:hannibal",
    effect = "actions[id=coordinated-assault].effects[0]",
    ctx = { self = "hannibal", target = "gata" },
    answers = {
      allies_within = { { "valkyrie", "laxmee" } },
      has_line_of_sight = { true, false },
    },
    expect_calls = {
      'allies_within("hannibal", 0, 99)',
      'has_line_of_sight("valkyrie", "gata")',
      'has_line_of_sight("laxmee", "gata")',
      'add_die("orange", 2)',
    },
  },
  {
    name = "Pointman adds an Orange die against an Enemy in Hannibal's sight",
    card = "character:hannibal",
    effect = "automatic_skills[id=pointman].effect",
    ctx = { self = "hannibal", target = "gata" },
    answers = { has_line_of_sight = { true }, choose = { "add" } },
    expect_calls = {
      'has_line_of_sight("hannibal", "gata")',
      'choose({"add", "no"}, "Pointman: add an Orange die to the Attack?")',
      'add_die("orange", 1)',
    },
  },
  {
    name = "Pointman adds nothing against an Enemy out of Hannibal's sight",
    card = "character:hannibal",
    effect = "automatic_skills[id=pointman].effect",
    ctx = { self = "hannibal", target = "gata" },
    answers = { has_line_of_sight = { false } },
    expect_calls = { 'has_line_of_sight("hannibal", "gata")' },
  },
}
