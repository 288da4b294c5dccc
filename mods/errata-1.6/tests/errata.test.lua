-- The corrected effects, as this pack patches them.
return {
  {
    name = "Coordinated Assault counts only Allies other than Hannibal",
    card = "character:hannibal",
    effect = "actions[id=coordinated-assault].effects[0]",
    ctx = { self = "hannibal", target = "gata" },
    answers = { allies_within = { { "valkyrie" } }, has_line_of_sight = { true } },
    expect_calls = {
      'allies_within("hannibal", 0, 99)',
      'has_line_of_sight("valkyrie", "gata")',
      'add_die("orange", 1)',
    },
  },
  {
    name = "Pointman does not help Hannibal's own Attack",
    card = "character:hannibal",
    effect = "automatic_skills[id=pointman].effect",
    ctx = { self = "hannibal", target = "gata" },
    answers = { attacker = { "hannibal" } },
    expect_calls = { "attacker()" },
  },
  {
    name = "Pointman helps another Ally's Attack",
    card = "character:hannibal",
    effect = "automatic_skills[id=pointman].effect",
    ctx = { self = "hannibal", target = "gata" },
    answers = { attacker = { "valkyrie" }, has_line_of_sight = { true }, choose = { "add" } },
    expect_calls = {
      "attacker()",
      'has_line_of_sight("hannibal", "gata")',
      'choose({"add", "no"}, "Pointman: add an Orange die to the Attack?")',
      'add_die("orange", 1)',
    },
  },
}
