-- Tests of La Duelista's scripted effects (characters/duelist.toml).
return {
  {
    name = "Riposte adds a Success to her Roll",
    card = "character:la-duelista",
    effect = "switches[id=riposte].effect",
    ctx = { self = "la-duelista" },
    expect_calls = { 'add_symbol("success", nil)' },
  },
  {
    name = "Disarm Stuns the Target",
    card = "character:la-duelista",
    effect = "actions[id=lunge].switches[id=disarm].effect",
    ctx = { self = "la-duelista", target = "gata" },
    expect_calls = { 'impose_state("gata", "stunned", nil)' },
  },
  {
    name = "Flourish adds a Yellow die to the Roll",
    card = "tactic:flourish",
    effect = "effect",
    ctx = { self = "la-duelista" },
    expect_calls = { 'add_die("yellow", nil)' },
  },
}
