-- Tests of Maximus' scripted effects (characters/characters.toml).
return {
  {
    name = "Taunt: the Target is Taunted, provoked by Maximus",
    card = "character:maximus",
    effect = "switches[id=taunt].effect",
    ctx = { self = "maximus", target = "8-ball" },
    expect_calls = { 'impose_state("8-ball", "taunted", "maximus")' },
  },
  {
    name = "Taunt from a Defense Roll still names Maximus as the source",
    card = "character:maximus",
    effect = "switches[id=taunt].effect",
    -- Maximus defends: the other Character of the Roll is the Attacker.
    ctx = { self = "maximus", target = "miyamoto-mushashi" },
    expect_calls = { 'impose_state("miyamoto-mushashi", "taunted", "maximus")' },
  },
  {
    name = "Taunt in a Roll with no Target does nothing",
    card = "character:maximus",
    effect = "switches[id=taunt].effect",
    ctx = { self = "maximus" },
    expect_calls = { 'log("Taunt: this Roll has no Target")' },
  },
  {
    name = "Jotum's Shield's Switch Displaces the Target once",
    card = "character:maximus",
    effect = "actions[id=jotums-shield].switches[id=displace-target].effect",
    ctx = { self = "maximus", target = "miyamoto-mushashi" },
    expect_calls = { 'displace("miyamoto-mushashi", 1)' },
  },
}
