-- Short Distance (001 § Short Distance; rulings R42): the Scoring Ziggurats
-- chosen before Deployment and at the start of each later Round, and the
-- two-Ziggurats objective.
local CARD = "scenario:short-distance"
local NEXT = "rules[id=move-scoring-ziggurats].effect"

local function prompt(i)
  return "Short Distance: which Ziggurat's Scoring Spaces score this Round (" .. i .. " of 2)?"
end

return {
  {
    name = "Prime Time selects the first couple of Ziggurats",
    card = CARD,
    effect = "rules[id=first-round-ziggurats].effect",
    answers = {
      zones = { { "ziggurat-1", "ziggurat-2", "ziggurat-3" } },
      prime_time = { 1 },
      choose_zone = { "ziggurat-2", "ziggurat-3" },
    },
    expect_calls = {
      'zones("ziggurat")',
      "prime_time()",
      'choose_zone(1, {"ziggurat-1", "ziggurat-2", "ziggurat-3"}, "Short Distance: which Ziggurat\'s Scoring Spaces score (1 of 2)?")',
      'choose_zone(1, {"ziggurat-1", "ziggurat-3"}, "Short Distance: which Ziggurat\'s Scoring Spaces score (2 of 2)?")',
      'set_scoring_zones({"ziggurat-2", "ziggurat-3"})',
    },
  },
  {
    name = "Nobody scored: the couple stays",
    card = CARD,
    effect = NEXT,
    answers = { round = { 2 }, player_count = { 2 }, victory_points_scored = { 0, 0 } },
    expect_calls = { "round()", "player_count()", "victory_points_scored(1, 1)", "victory_points_scored(2, 1)" },
  },
  {
    name = "Four Ziggurats: a new couple without Characters, never one of the current couple",
    card = CARD,
    effect = NEXT,
    answers = {
      round = { 3 },
      player_count = { 3 },
      victory_points_scored = { 1 },
      scoring_zones = { { "ziggurat-1", "ziggurat-2" } },
      zones = { { "ziggurat-1", "ziggurat-2", "ziggurat-3", "ziggurat-4" }, { "central" } },
      prime_time = { 3 },
      -- ziggurat-3 and -4 are empty; then the chosen ones are checked for Characters.
      characters_in_zone = { {}, {}, {}, {}, {} },
      choose_zone = { "ziggurat-4", "ziggurat-3" },
    },
    expect_calls = {
      "round()",
      "player_count()",
      "victory_points_scored(1, 2)",
      "scoring_zones()",
      'zones("ziggurat")',
      "prime_time()",
      'characters_in_zone("ziggurat-3", nil)',
      'characters_in_zone("ziggurat-4", nil)',
      'choose_zone(3, {"ziggurat-3", "ziggurat-4"}, "' .. prompt(1) .. '")',
      'characters_in_zone("ziggurat-3", nil)',
      'choose_zone(3, {"ziggurat-3"}, "' .. prompt(2) .. '")',
      'zones("central")',
      'characters_in_zone("ziggurat-4", nil)',
      'characters_in_zone("ziggurat-3", nil)',
      'set_scoring_zones({"ziggurat-4", "ziggurat-3"})',
    },
  },
  {
    name = "Three Ziggurats, the new one occupied: its Characters go to the Central Zone and one of the current couple stays",
    card = CARD,
    effect = NEXT,
    answers = {
      round = { 2 },
      player_count = { 2 },
      victory_points_scored = { 0, 2 },
      scoring_zones = { { "ziggurat-1", "ziggurat-2" } },
      zones = { { "ziggurat-1", "ziggurat-2", "ziggurat-3" }, { "central" } },
      prime_time = { 1 },
      characters_in_zone = {
        { "gata" }, -- ziggurat-3: occupied, chosen anyway
        { "maximus" }, {}, -- the current couple: ziggurat-2 is empty
        { "gata" }, {}, -- the chosen ones' Characters
      },
      choose_zone = { "ziggurat-3", "ziggurat-2" },
      free_spaces_in_zone = { { { 0, 0 }, { 1, 0 } } },
      choose_space_for = { { 1, 0 } },
    },
    expect_calls = {
      "round()",
      "player_count()",
      "victory_points_scored(1, 1)",
      "victory_points_scored(2, 1)",
      "scoring_zones()",
      'zones("ziggurat")',
      "prime_time()",
      'characters_in_zone("ziggurat-3", nil)',
      'choose_zone(1, {"ziggurat-3"}, "' .. prompt(1) .. '")',
      'characters_in_zone("ziggurat-1", nil)',
      'characters_in_zone("ziggurat-2", nil)',
      'choose_zone(1, {"ziggurat-2"}, "' .. prompt(2) .. '")',
      'zones("central")',
      'characters_in_zone("ziggurat-3", nil)',
      'free_spaces_in_zone("central")',
      'choose_space_for(1, {{0, 0}, {1, 0}}, "Place gata in the Central Zone where?")',
      'place("gata", {1, 0})',
      'characters_in_zone("ziggurat-2", nil)',
      'set_scoring_zones({"ziggurat-3", "ziggurat-2"})',
    },
  },
  {
    name = "Characters at two different Scoring Ziggurats score 1 VP",
    card = CARD,
    effect = "rules[id=two-ziggurats].effect",
    answers = {
      player_count = { 2 },
      scoring_zones = { { "ziggurat-1", "ziggurat-3" }, { "ziggurat-1", "ziggurat-3" } },
      characters_in_zone = { { "gata" }, { "wild-bill" }, { "maximus", "parvati" }, {} },
    },
    expect_calls = {
      "player_count()",
      "scoring_zones()",
      'characters_in_zone("ziggurat-1", 1)',
      'characters_in_zone("ziggurat-3", 1)',
      "gain_victory_points(1, nil)",
      "scoring_zones()",
      'characters_in_zone("ziggurat-1", 2)',
      'characters_in_zone("ziggurat-3", 2)',
    },
  },
}
