-- How the Prime Time Scenarios choose and move their Scoring Zones (001 §
-- Scenarios: Crossover Assault, Wanted, Short Distance). Each function is a
-- Scenario rule's effect (`script = "scripts/scoring-zones.lua"`, `function =
-- ...`), run at the rule's `when` with `game` and `ctx` (docs/scenarios.md).
-- The readings these functions take are docs/rulings.md R41-R43.

-- The six neighbours of a space (docs/scenarios.md § 1. A map).
local DIRECTIONS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, -1 }, { -1, 1 } }

local function key(space)
  return space[1] .. "," .. space[2]
end

local function contains(list, value)
  for _, v in ipairs(list) do
    if v == value then
      return true
    end
  end
  return false
end

local function without(list, values)
  local out = {}
  for _, v in ipairs(list) do
    if not contains(values, v) then
      table.insert(out, v)
    end
  end
  return out
end

local function empty_zones(game, zones)
  local out = {}
  for _, z in ipairs(zones) do
    if #game:characters_in_zone(z) == 0 then
      table.insert(out, z)
    end
  end
  return out
end

-- Whether some player scored Victory Points in a Round.
local function someone_scored(game, round)
  for p = 1, game:player_count() do
    if game:victory_points_scored(p, round) > 0 then
      return true
    end
  end
  return false
end

-- The Free spaces in contact with a zone (outside it, Adjacent to one of its
-- spaces); when none is Free, the Free spaces nearest to `character` outside
-- the zone (rulings R41).
local function free_spaces_in_contact(game, zone, character)
  local spaces = game:zone_spaces(zone)
  local inside, contact = {}, {}
  for _, s in ipairs(spaces) do
    inside[key(s)] = true
  end
  for _, s in ipairs(spaces) do
    for _, d in ipairs(DIRECTIONS) do
      local n = { s[1] + d[1], s[2] + d[2] }
      if not inside[key(n)] then
        contact[key(n)] = true
      end
    end
  end
  local free = game:free_spaces_within(character, 1, 64)
  local out = {}
  for _, s in ipairs(free) do
    if contact[key(s)] then
      table.insert(out, s)
    end
  end
  -- None Free in contact: the nearest Free spaces outside the zone.
  local d = 1
  while #out == 0 and d <= 20 do
    for _, s in ipairs(game:free_spaces_within(character, d, d)) do
      if not inside[key(s)] then
        table.insert(out, s)
      end
    end
    d = d + 1
  end
  return out
end

-- `player` chooses one of `zones` as a Scoring Zone: a zone with no Characters
-- in it if there is one; otherwise any of them, and `player` Places the
-- Characters in it on Free spaces in contact with it (001 § Wanted, § Crossover
-- Assault: "placing the Character within them in any Free Space in contact with
-- said Scoring Zone").
local function choose_scoring_zone(game, player, zones, prompt)
  local empty = empty_zones(game, zones)
  if #empty > 0 then
    return game:choose_zone(player, empty, prompt)
  end
  local zone = game:choose_zone(player, zones, prompt .. " (every one is occupied: its Characters are Placed in contact with it)")
  if zone == nil then
    return nil
  end
  for _, c in ipairs(game:characters_in_zone(zone)) do
    local space = game:choose_space_for(player, free_spaces_in_contact(game, zone, c), "Place " .. c .. " in contact with " .. zone .. " where?")
    if space ~= nil then
      game:place(c, space)
    end
  end
  return zone
end

-- The player with the least Victory Points other than Prime Time; ties: the
-- least Frags, then at random (001 § Crossover Assault).
local function least_victory_points_but(game, prime_time)
  local tied = {}
  for p = 1, game:player_count() do
    if p ~= prime_time then
      local best = tied[1]
      if best == nil then
        tied = { p }
      else
        local vp, best_vp = game:victory_points(p), game:victory_points(best)
        local frags, best_frags = game:frags(p), game:frags(best)
        if vp < best_vp or (vp == best_vp and frags < best_frags) then
          tied = { p }
        elseif vp == best_vp and frags == best_frags then
          table.insert(tied, p)
        end
      end
    end
  end
  if #tied == 0 then
    return prime_time
  elseif #tied == 1 then
    return tied[1]
  end
  return tied[game:random(1, #tied)]
end

return {
  -- Wanted, Scoring Zones (001 § Wanted), at `round-start`: from the second
  -- Round, only if a player scored in the previous one, Prime Time moves the
  -- Scoring Zone to an adjacent Deployment Zone without Characters; when every
  -- adjacent one is occupied, Prime Time chooses one of them and Places its
  -- Characters in contact with it.
  wanted = function(game, ctx)
    local round = game:round()
    if round < 2 or not someone_scored(game, round - 1) then
      return
    end
    local current = game:scoring_zones()[1]
    if current == nil then
      return
    end
    local zone = choose_scoring_zone(
      game,
      game:prime_time(),
      game:adjacent_zones(current),
      "Wanted: which adjacent Deployment Zone becomes the Scoring Zone?"
    )
    if zone ~= nil then
      game:set_scoring_zones({ zone })
    end
  end,

  -- Crossover Assault, Scoring Zones (001 § Crossover Assault), at
  -- `before-deployment`: Prime Time chooses four of the numbered Deployment
  -- Zones; the two left over are the Scoring Zones.
  crossover_assault_first = function(game, ctx)
    local left = game:zones("deployment")
    local prime_time = game:prime_time()
    local four = #left - 2
    for i = 1, four do
      local z = game:choose_zone(prime_time, left, "Crossover Assault: choose a Deployment Zone that is not a Scoring Zone (" .. i .. " of " .. four .. ")")
      left = without(left, { z })
    end
    game:set_scoring_zones(left)
  end,

  -- Crossover Assault, at `round-start` of every later Round: Prime Time
  -- chooses the first Scoring Zone, then the player with the least Victory
  -- Points other than Prime Time the second, never the same one; the Central
  -- Zone may be chosen (rulings R41).
  crossover_assault_next = function(game, ctx)
    if game:round() < 2 then
      return
    end
    -- The API's lists are read-only: a new one.
    local zones = without(game:zones("deployment"), {})
    for _, z in ipairs(game:zones("central")) do
      table.insert(zones, z)
    end
    local prime_time = game:prime_time()
    local first = choose_scoring_zone(game, prime_time, zones, "Crossover Assault: Prime Time chooses this Round's first Scoring Zone")
    local second_player = least_victory_points_but(game, prime_time)
    local second = choose_scoring_zone(game, second_player, without(zones, { first }), "Crossover Assault: choose this Round's second Scoring Zone")
    local chosen = {}
    for _, z in ipairs({ first, second }) do
      if z ~= nil then
        table.insert(chosen, z)
      end
    end
    game:set_scoring_zones(chosen)
  end,

  -- Short Distance, Deployment (001 § Short Distance), at `before-deployment`:
  -- Prime Time selects the two Ziggurats whose Scoring Spaces score in the
  -- first Round.
  short_distance_first = function(game, ctx)
    local ziggurats = game:zones("ziggurat")
    local prime_time = game:prime_time()
    local chosen = {}
    for i = 1, 2 do
      local z = game:choose_zone(prime_time, without(ziggurats, chosen), "Short Distance: which Ziggurat's Scoring Spaces score (" .. i .. " of 2)?")
      if z ~= nil then
        table.insert(chosen, z)
      end
    end
    game:set_scoring_zones(chosen)
  end,

  -- Short Distance, Scoring Spaces, at `round-start`: from the second Round,
  -- only if a player scored in the previous one, Prime Time chooses a new
  -- couple of Ziggurats, neither of the current couple and with no Characters
  -- in their Scoring Spaces while there are such; Characters in the Scoring
  -- Spaces of a chosen Ziggurat are Placed by Prime Time on Free spaces of the
  -- Central Zone (rulings R42 for a map with too few Ziggurats).
  short_distance_next = function(game, ctx)
    local round = game:round()
    if round < 2 or not someone_scored(game, round - 1) then
      return
    end
    local current = game:scoring_zones()
    local ziggurats = game:zones("ziggurat")
    local new = without(ziggurats, current)
    local prime_time = game:prime_time()
    local chosen = {}
    for i = 1, 2 do
      local pool = empty_zones(game, without(new, chosen))
      if #pool == 0 then
        pool = without(new, chosen)
      end
      if #pool == 0 then
        pool = empty_zones(game, without(current, chosen))
      end
      if #pool == 0 then
        pool = without(current, chosen)
      end
      local z = game:choose_zone(prime_time, pool, "Short Distance: which Ziggurat's Scoring Spaces score this Round (" .. i .. " of 2)?")
      if z ~= nil then
        table.insert(chosen, z)
      end
    end
    local central = game:zones("central")[1]
    for _, z in ipairs(chosen) do
      for _, c in ipairs(game:characters_in_zone(z)) do
        if central ~= nil then
          local space = game:choose_space_for(prime_time, game:free_spaces_in_zone(central), "Place " .. c .. " in the Central Zone where?")
          if space ~= nil then
            game:place(c, space)
          end
        end
      end
    end
    game:set_scoring_zones(chosen)
  end,
}
