-- Wanted's moving Scoring Zone (001 § Wanted, Scoring Zones; rulings R41),
-- scripts/scoring-zones.lua `wanted`, against the recording host.
local CARD = "scenario:wanted"
local MOVE = "rules[id=move-scoring-zone].effect"
local PROMPT = "Wanted: which adjacent Deployment Zone becomes the Scoring Zone?"

return {
  {
    name = "In Round 1 the Central Zone stays the Scoring Zone",
    card = CARD,
    effect = MOVE,
    answers = { round = { 1 } },
    expect_calls = { "round()" },
  },
  {
    name = "Nobody scored in the previous Round: the Scoring Zone stays",
    card = CARD,
    effect = MOVE,
    answers = { round = { 3 }, player_count = { 3 }, victory_points_scored = { 0, 0, 0 } },
    expect_calls = {
      "round()",
      "player_count()",
      "victory_points_scored(1, 2)",
      "victory_points_scored(2, 2)",
      "victory_points_scored(3, 2)",
    },
  },
  {
    name = "Someone scored: Prime Time moves it to an adjacent zone without Characters",
    card = CARD,
    effect = MOVE,
    answers = {
      round = { 2 },
      player_count = { 4 },
      victory_points_scored = { 0, 1 },
      scoring_zones = { { "central" } },
      prime_time = { 3 },
      adjacent_zones = { { "zone-1", "zone-2", "zone-3" } },
      characters_in_zone = { { "gata" }, {}, {} },
      choose_zone = { "zone-3" },
    },
    expect_calls = {
      "round()",
      "player_count()",
      "victory_points_scored(1, 1)",
      "victory_points_scored(2, 1)",
      "scoring_zones()",
      "prime_time()",
      'adjacent_zones("central")',
      'characters_in_zone("zone-1", nil)',
      'characters_in_zone("zone-2", nil)',
      'characters_in_zone("zone-3", nil)',
      'choose_zone(3, {"zone-2", "zone-3"}, "' .. PROMPT .. '")',
      'set_scoring_zones({"zone-3"})',
    },
  },
  {
    name = "Every adjacent zone occupied: Prime Time chooses one and Places its Characters in contact with it",
    card = CARD,
    effect = MOVE,
    answers = {
      round = { 4 },
      player_count = { 3 },
      victory_points_scored = { 2 },
      scoring_zones = { { "zone-6" } },
      prime_time = { 1 },
      adjacent_zones = { { "zone-1", "zone-5" } },
      -- zone-1 and zone-5 occupied; then the Characters of zone-1, chosen.
      characters_in_zone = { { "gata" }, { "maximus" }, { "gata" } },
      choose_zone = { "zone-1" },
      -- A zone of two spaces, [0, 0] and [1, 0].
      zone_spaces = { { { 0, 0 }, { 1, 0 } } },
      -- The Free spaces: [-1, 0] and [2, -1] touch the zone, [5, 5] does not.
      free_spaces_within = { { { -1, 0 }, { 5, 5 }, { 2, -1 } } },
      choose_space_for = { { 2, -1 } },
    },
    expect_calls = {
      "round()",
      "player_count()",
      "victory_points_scored(1, 3)",
      "scoring_zones()",
      "prime_time()",
      'adjacent_zones("zone-6")',
      'characters_in_zone("zone-1", nil)',
      'characters_in_zone("zone-5", nil)',
      'choose_zone(1, {"zone-1", "zone-5"}, "' .. PROMPT .. ' (every one is occupied: its Characters are Placed in contact with it)")',
      'characters_in_zone("zone-1", nil)',
      'zone_spaces("zone-1")',
      'free_spaces_within("gata", 1, 64)',
      'choose_space_for(1, {{-1, 0}, {2, -1}}, "Place gata in contact with zone-1 where?")',
      'place("gata", {2, -1})',
      'set_scoring_zones({"zone-1"})',
    },
  },
}
