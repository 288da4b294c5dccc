-- The DeathMatch tutorials' Frag objective (001 § DeathMatch - Run 'N Shoot!
-- (Tutorial), § DeathMatch - Ballroom Dancing (Tutorial), Objectives): a Frag
-- earned this Round scores 1 VP (rulings R40).
local function frag_case(card)
  return {
    name = "Only the players who earned a Frag this Round score (" .. card .. ")",
    card = card,
    effect = "rules[id=earned-a-frag].effect",
    answers = { player_count = { 3 }, frags_earned = { 0, 2, 1 } },
    expect_calls = {
      "player_count()",
      "frags_earned(1, nil)",
      "frags_earned(2, nil)",
      "gain_victory_points(2, nil)",
      "frags_earned(3, nil)",
      "gain_victory_points(3, nil)",
    },
  }
end

return {
  frag_case("scenario:deathmatch-run-n-shoot"),
  frag_case("scenario:deathmatch-ballroom-dancing"),
}
