---@meta arena
-- Generated from engine/src/script/api/ by `arena generate`; do not edit.
--
-- LuaLS (sumneko): add `schemas` to `Lua.workspace.library`. Effects receive
-- `game` and `ctx` as arguments, so type them where they arrive:
--
--   ---@type Game, Ctx
--   local game, ctx = ...            -- an inline effect
--
--   ---@param game Game
--   ---@param ctx Ctx
--   local function effect(game, ctx) -- a script file's function

---@alias CharacterId string A Character's id ("valkyrie")
---@alias StateId string A State's id ("immobilized")
---@alias DieId string A die's id ("red")
---@alias Player integer A player's number (1, 2, ...), as the narrative names them
---@alias Symbol "success"|"block"|"special"|"critical_success"|"critical_block"
---@alias Side "own"|"opponent"
---@alias Space integer[] A space {q, r} in axial coordinates

---The context an effect runs in (its second argument, `ctx`).
---@class Ctx
---@field self CharacterId the Character whose card the effect is on (for Tactics, the active Character)
---@field target CharacterId? the declared Target, when the Action has one
---@field card string the card's reference (`character:valkyrie`, `tactic:ice-wall`)
---@field effect string which effect of the card (`actions[id=frostbite].effects[0]`)
---@field successes integer? Successes in the Roll's result, when the effect follows a Roll
---@field player Player? a Scenario rule's player: the Character's player, or the player credited with a Frag (docs/scenarios.md)
---@field zone string? the zone a Character entered, for a Scenario rule run at `zone-entered`
---@field state StateId? the State imposed, for a Scenario rule run at `state-imposed`

---An effect: the function a script file returns (or one of the table of
---them it returns), called with the game and the context.
---@alias Effect fun(game: Game, ctx: Ctx): any

---The game, passed to every effect as its first argument (`game`). Call with `:`.
---@class Game
local Game = {}

---The printed card of a Character: `{id, name, initiative, speed, energy, hit_points, defense, brawn, agility}` (pools as `{dice = {...}, symbols = {...}}`), or nil if no pack defines it. (000 § Characters)
---@param id CharacterId a Character id
---@return table? # nil when no pack defines the Character
function Game:character_card(id) end

---A State as loaded: `{id, name, stacking, modifiers = {initiative, speed, energy}}`, or nil. (000 § States)
---@param id StateId a State id
---@return table? # nil when no pack defines the State
function Game:state_card(id) end

---The six faces of a die, each a list of symbols, or nil. (000 § Dice)
---@param id DieId a die id
---@return table? # nil when no pack defines the die
function Game:die_faces(id) end

---A whole number from low to high inclusive, from the game's seeded RNG (also what `math.random` uses).
---@param low integer smallest result
---@param high integer largest result
---@return integer
function Game:random(low, high) end

---Add a line to the game's narrative (also what `print` does).
---@param message string text for the game's narrative
function Game:log(message) end

---The active Character (whose Activation it is), or nil between Activations. (000 § Activations)
---@return CharacterId? # nil between Activations
function Game:active_character() end

---The Character making the Attack whose Roll is being prepared or rolled, or nil; not always the active Character (an Ally acting through Programmed Strategy). (000 § Attacks)
---@return CharacterId? # nil when no Attack is being made
function Game:attacker() end

---Damage the Character has suffered. (000 § Damage)
---@param target CharacterId the Character it applies to
---@return integer
function Game:damage(target) end

---Whether the Character has a token of that State. (000 § States)
---@param target CharacterId the Character it applies to
---@param state StateId a State id
---@return boolean
function Game:has_state(target, state) end

---The States on a Character, each once. (000 § States)
---@param target CharacterId the Character it applies to
---@return string[]
function Game:states(target) end

---The Character's space, or nil when it is not in the HexaDome (Bench, Infirmary). (000 § HexaDome)
---@param target CharacterId the Character it applies to
---@return Space? # nil when the Character is not in the HexaDome (Bench, Infirmary)
function Game:position(target) end

---The Range between two Characters in spaces (No-Line-of-Sight count). (000 § Range)
---@param from CharacterId a Character
---@param to CharacterId another Character
---@return integer
function Game:distance(from, to) end

---Enemies of a Character within a Range, in a stable order. The Range bounds saturate: a negative `min` is 0, a huge `max` is every distance (never wrapped round). (000 § Enemies)
---@param of CharacterId the Character whose Enemies are listed
---@param min integer minimum Range (below 0 counts as 0)
---@param max integer maximum Range (any number past the HexaDome counts as all of it)
---@return CharacterId[]
function Game:enemies_within(of, min, max) end

---Allies of a Character (not the Character itself) within a Range; the bounds saturate as `enemies_within`'s do. (000 § Allies)
---@param of CharacterId the Character whose Allies are listed
---@param min integer minimum Range (below 0 counts as 0)
---@param max integer maximum Range (any number past the HexaDome counts as all of it)
---@return CharacterId[]
function Game:allies_within(of, min, max) end

---Whether `from` has Line of Sight to `to`. (000 § Line of Sight)
---@param from CharacterId the looking Character
---@param to CharacterId the seen Character
---@return boolean
function Game:has_line_of_sight(from, to) end

---Movement Points the Character has spent during the current Activation. (000 § Movement Points)
---@param target CharacterId the Character it applies to
---@return integer
function Game:movement_points_spent(target) end

---Inflict Damage (an error below 1). A Character that reaches its Hit Points goes to the Infirmary once the effect has run; excess Damage is ignored, so 999 takes any Character there, whatever Damage it had. (000 § Inflict; § Damage)
---@param target CharacterId the Character it applies to
---@param amount integer Damage, at least 1; any larger amount is allowed
function Game:inflict_damage(target, amount) end

---Heal Damage from a Character (an error below 0, as `inflict_damage` is below 1). More than its Damage heals it all; 0, or a Character with no Damage, changes nothing and adds no event. (000 § Healing)
---@param target CharacterId the Character it applies to
---@param amount integer Damage removed, at least 0
function Game:heal(target, amount) end

---Impose a State red side up; a State the Target already has is replaced unless it stacks. (000 § States)
---@param target CharacterId the Character it applies to
---@param state StateId a State id
---@param source? CharacterId who imposes it (Taunted)
function Game:impose_state(target, state, source) end

---Remove one token of a State. (000 § States)
---@param target CharacterId the Character it applies to
---@param state StateId a State id
function Game:remove_state(target, state) end

---Displace a Character: move it to an adjacent Free Space, once per Displacement, without spending Movement Points. (000 § Displacements)
---@param target CharacterId the Character it applies to
---@param spaces? integer how many Displacements (default 1)
function Game:displace(target, spaces) end

---One Displacement of a Character to a space the effect chose (Adjacent to it and Free), for an effect that restricts where it may go (Charge of the Valkyrie). (000 § Displacements)
---@param target CharacterId the Character it applies to
---@param space Space an Adjacent Free Space
function Game:displace_to(target, space) end

---Place a Character in a Free Space. (000 § Placing)
---@param target CharacterId the Character it applies to
---@param space Space a Free Space
function Game:place(target, space) end

---Swap two Characters' spaces. (000 § Swapping)
---@param first CharacterId a Character
---@param second CharacterId another Character
function Game:swap(first, second) end

---The Free Spaces at a hex distance from min to max of the Character's space (No-Line-of-Sight Range), nearest first; 1, 1 gives the Adjacent ones. (000 § Free Spaces, § Range)
---@param of CharacterId a Character or Minion in the HexaDome
---@param min integer least distance (below 0 counts as 0)
---@param max integer greatest distance (any number past the HexaDome counts as all of it)
---@return Space[]
function Game:free_spaces_within(of, min, max) end

---The Free Spaces of a zone of the HexaDome (a Portal's Deployment Zone). (000 § Deployment Zones; 001 § Special Spaces (Portal))
---@param zone string a zone id of the map (`zone-1`, `central`)
---@return Space[]
function Game:free_spaces_in_zone(zone) end

---The player of the Character whose effect runs chooses one space among the candidates (a Decision); nil when there are none. (000 § Effects)
---@param spaces Space[] the valid spaces
---@param prompt? string what the choice is for
---@return Space? # nil when there is no candidate
function Game:choose_space(spaces, prompt) end

---The active Character spends Movement Points it has (Freerun); false, and nothing spent, when it has fewer. (000 § Movement Points)
---@param target CharacterId the Character it applies to
---@param amount integer Movement Points
---@return boolean
function Game:spend_movement_points(target, amount) end

---The Character whose effect runs (the Controller, ctx.self) deploys one of its Minions that is to the side; returns the Minion's id (`drone-1`), or nil when all of them are already deployed. An error when the Controller has no such Minion card, the space is not Free, or it is Adjacent to an Allied Minion. (002 § Controller)
---@param minion string the Minion card's id on the Controller's card
---@param space Space a Free Space not Adjacent to an Allied Minion
---@return CharacterId? # nil when no Minion can be deployed
function Game:deploy_minion(minion, space) end

---The spaces where the Controller may deploy a Minion within that hex distance of its space: Free, and not Adjacent to any Allied Minion; nearest first. (002 § Controller)
---@param controller CharacterId the Controller
---@param min integer least distance from the Controller (below 0 counts as 0)
---@param max integer greatest distance from the Controller (past the HexaDome: all of it)
---@return Space[]
function Game:deployable_spaces(controller, min, max) end

---The Controller's Minions in the HexaDome. (002 § Controller)
---@param controller CharacterId a Character
---@return CharacterId[]
function Game:minions(controller) end

---Whether it is a Minion (Minions are Allies or Enemies, but not Characters). (002 § Minion)
---@param id CharacterId a Character or Minion
---@return boolean
function Game:is_minion(id) end

---The active Character deploys one of its Smoke tokens on a space; an error when all its tokens are already in the HexaDome. Tokens go at the start of its next Activation. (004 § Smoke)
---@param space Space the space, Free or not
function Game:deploy_smoke(space) end

---The Character gains Movement Points. (000 § Movement Points)
---@param target CharacterId the Character it applies to
---@param amount integer Movement Points
function Game:gain_movement_points(target, amount) end

---Add a die to the next Roll the active Character makes in this Activation (an Action's Roll or a Disengage); unused at the end of the Activation, it is lost. Nothing for a Character that is not active. (000 § Tactics (Take Aim, 000 Turn 2))
---@param target CharacterId the Character it applies to
---@param die DieId a die id
function Game:add_die_to_next_roll(target, die) end

---The active Character gains Action Points (nothing for another Character). (000 § Action Points)
---@param target CharacterId the Character it applies to
---@param amount integer Action Points
function Game:gain_action_points(target, amount) end

---Add dice to the current Roll, within the per-Roll limits. (000 § Dice)
---@param die DieId a die id
---@param count? integer how many (default 1)
function Game:add_die(die, count) end

---Add symbols to the current Roll's result, as if rolled. (000 § Dice; § Symbols)
---@param symbol Symbol a symbol
---@param count? integer how many (default 1)
function Game:add_symbol(symbol, count) end

---Nullify one symbol of a Roll's result; false when there was none to Nullify. (000 § Nullifying Dice)
---@param side Side whose Roll
---@param symbol Symbol the symbol
---@return boolean
function Game:nullify_symbol(side, symbol) end

---Nullify one die of a Roll: before the dice are rolled it leaves the pool; once rolled, it leaves the Roll with its symbols (an added symbol counts as a die). False when there is no such die or it is Nullified already. (000 § Nullifying Dice)
---@param side Side whose Roll
---@param index integer the die's position in that Roll, from 1
---@return boolean
function Game:nullify_die(side, index) end

---Puts a named effect on a Character "until the end of this Activation"; other effects ask for it with has_activation_effect. The engine knows `no-disengage-rolls` ("you do not make Disengage Rolls", Barrel through). (000 § Tactics)
---@param target CharacterId the Character it applies to
---@param name string the effect's name, kebab-case
function Game:activation_effect(target, name) end

---Whether the named effect is on the Character until the end of this Activation. (000 § Tactics)
---@param target CharacterId the Character it applies to
---@param name string the effect's name
---@return boolean
function Game:has_activation_effect(target, name) end

---Puts a named effect on a Character "until the end of the Round" (the Marker on its Character card); it ends in the Recovery Phase's Terminate Effects step. Other effects ask for it with has_round_effect. The engine knows the names it knows for activation_effect (`no-disengage-rolls`). (000 § Effects; § Recovery Phase)
---@param target CharacterId the Character it applies to
---@param name string the effect's name, kebab-case
function Game:round_effect(target, name) end

---Whether the named effect is on the Character until the end of the Round. (000 § Effects; § Recovery Phase)
---@param target CharacterId the Character it applies to
---@param name string the effect's name
---@return boolean
function Game:has_round_effect(target, name) end

---Nullify the Tactic this one answers (a `tactic-played` Tactic, "No!"): its whole text is ignored. (000 § Nullifying an Effect; 001 § No!)
function Game:nullify_tactic() end

---Roll one die that is not a Roll (no Tactics, no Switches, no per-colour limit: Burning) and return the symbols it shows. (004 § Burning)
---@param die DieId a die id
---@return string[]
function Game:roll_die(die) end

---The dice of a Roll about to be made (before-roll Tactics and skills), in pool order. (000 § Rolls)
---@param side Side whose pool
---@return string[]
function Game:pool_dice(side) end

---Before the Roll: that side's Roll is reduced to one of its dice (added symbols go too), and no more dice can be added to it (Atom). (002 § LaxMee Tactics (Atom))
---@param side Side whose Roll
---@param index integer the die's position in pool_dice, from 1
function Game:reduce_roll_to(side, index) end

---Once this effect has run, the Character may perform one of its Actions (not Move) costing at most max_cost for no Action Points, without becoming the active Character; the effect's player chooses it, or none. (002 § Hannibal (Programmed Strategy))
---@param target CharacterId the Character it applies to
---@param max_cost integer the most Action Points the Action may cost
function Game:grant_action(target, max_cost) end

---How many Tactics the Character's player holds. (000 § Tactics)
---@param of CharacterId a Character: its player's hand
---@return integer
function Game:tactics_in_hand(of) end

---That side cannot activate Switches during this Roll (before the Roll, or in its Switches step for Switches not yet activated). (000 § Switches (Access Denied))
---@param side Side whose side of the Roll
function Game:forbid_switches(side) end

---"Ignore your Target's Cover": the Target adds no die for Cover to its Roll in this Attack. Only in the `cover` window. (000 § Who Does What; § Cover)
function Game:ignore_cover() end

---When you would add a Black die to your Attack Roll for Cover, add this die instead. Only in the `cover` window; no effect when you have no Cover. (000 § Cover; Turn 4 (Veteran Sniper))
---@param die DieId a die id
function Game:cover_die(die) end

---The player of the Character whose effect runs draws Tactics. (000 § Tactics)
---@param count? integer how many (default 1)
function Game:draw_tactics(count) end

---The player of the Character whose effect runs Discards Tactics of their choice. (000 § Discarding)
---@param count? integer how many (default 1)
function Game:discard_tactics(count) end

---The player of `character` Discards Tactics at random from their Hand, each drawn by the game's seeded RNG (the opponent's face-down pick, rulings R24); fewer when the Hand runs out. (000 § Discarding)
---@param character CharacterId a Character of the player who Discards
---@param count? integer how many (default 1)
function Game:discard_tactics_at_random(character, count) end

---The player of the Character whose effect runs chooses one Target among the candidates (a Decision); nil when there are none. (000 § Targets)
---@param candidates CharacterId[] the valid Targets
---@param prompt? string what the choice is for
---@return CharacterId? # nil when there is no candidate
function Game:choose_target(candidates, prompt) end

---The player of the Character whose effect runs chooses one option (a Decision), such as which State to impose. (000 § Effects)
---@param options string[] the options
---@param prompt? string what the choice is for
---@return string? # nil when there is no option
function Game:choose(options, prompt) end

---The current Round, from 1 (0 before the first). (000 § Rounds)
---@return integer
function Game:round() end

---How many players there are: the players are 1 to this number (`for p = 1, game:player_count() do ... end`). (000 § Setup; 001 § Prime Time)
---@return integer
function Game:player_count() end

---The player a Character belongs to. (000 § Teams)
---@param character CharacterId a Character (or Minion) in this game
---@return Player
function Game:player_of(character) end

---A player's Characters in the HexaDome (not on the Bench or in the Infirmary; not Minions, `002 § Minion`), in team order. (000 § Characters)
---@param player Player a player
---@return CharacterId[]
function Game:characters_of(player) end

---The player with the Underdog token. (000 § Underdog)
---@return Player
function Game:underdog() end

---The player with the Prime Time marker; in a game without the marker, the Underdog (rulings R30). (001 § Prime Time)
---@return Player
function Game:prime_time() end

---A player's Victory Points so far. (000 § Victory Points)
---@param player Player a player
---@return integer
function Game:victory_points(player) end

---The Victory Points a player gained in one Round (`game:round() - 1` for the previous one; 0 for a Round not played). (000 § Recovery Phase; 001 § Wanted)
---@param player Player a player
---@param round? integer a Round (default: the current one)
---@return integer
function Game:victory_points_scored(player, round) end

---A player's Frag tokens. (000 § Frags)
---@param player Player a player
---@return integer
function Game:frags(player) end

---The Frag tokens a player earned in one Round (0 for a Round not played): "Having earned at least 1 Frag" at the end of a Round (rulings R40). (001 § DeathMatch - Run 'N Shoot! (Tutorial); 001 § Recovery Phase)
---@param player Player a player
---@param round? integer a Round (default: the current one)
---@return integer
function Game:frags_earned(player, round) end

---A player scores Victory Points for the Scenario rule whose effect runs (the narrative names the rule). An error outside a Scenario rule, or for an amount past 100. (000 § Phase 3: Objectives)
---@param player Player who scores
---@param amount? integer how many, 0 to 100 (default: the rule's `vp`)
function Game:gain_victory_points(player, amount) end

---The ids of the map's zones, in the map's order. (000 § Deployment Zones)
---@param kind? string `deployment`, `central` or `ziggurat` (default: every zone)
---@return string[]
function Game:zones(kind) end

---The zones the map lists as `adjacent` to a zone. An error for a zone the map lacks. (001 § Wanted)
---@param zone string a zone id of the map
---@return string[]
function Game:adjacent_zones(zone) end

---Every space of a zone, Free or not. An error for a zone the map lacks. (000 § Deployment Zones)
---@param zone string a zone id of the map
---@return Space[]
function Game:zone_spaces(zone) end

---The Characters inside a zone (not Minions, not Running Projectiles), in play order. An error for a zone the map lacks. (000 § Scoring Zones)
---@param zone string a zone id, or `scoring-zone` for every current Scoring Zone
---@param player? Player only this player's (default: everyone's)
---@return CharacterId[]
function Game:characters_in_zone(zone, player) end

---The current Scoring Zones' ids. (000 § Scoring Zones)
---@return string[]
function Game:scoring_zones() end

---The Scoring Zones are now these (the narrative says so). An error for a zone the map lacks. (000 § Scoring Zones)
---@param zones string[] zone ids of the map (none: no Scoring Zone)
function Game:set_scoring_zones(zones) end

---A player chooses one of the zones (a Decision, answered like the Underdog's choice of Scoring Zone); nil when there are none. (000 § Phase 3: Objectives; 001 § Wanted)
---@param player Player who chooses
---@param zones string[] the zones that may be chosen
---@param prompt? string what the choice is for
---@return string? # nil when there is no zone to choose
function Game:choose_zone(player, zones, prompt) end

---A player chooses one of the spaces (a Decision), where a Scenario rule names who chooses (Prime Time Places the Characters in contact with a new Scoring Zone); nil when there are none. `game:choose_space` asks the player of the effect instead. (001 § Wanted; 001 § Crossover Assault; 001 § Short Distance)
---@param player Player who chooses
---@param spaces Space[] the spaces that may be chosen
---@param prompt? string what the choice is for
---@return Space? # nil when there is no candidate
function Game:choose_space_for(player, spaces, prompt) end

---How many of a counter are on a Character card, a zone or a player (0 when none). (000 § Counters)
---@param on string what holds it: a Character id, a zone id, or a player as `player 1`
---@param name string the counter's name (`crow-substance`)
---@return integer
function Game:counter(on, name) end

---Add counters (never below 0) and return how many there are now; the narrative says so. (000 § Counters)
---@param on string what holds it: a Character id, a zone id, or a player as `player 1`
---@param name string the counter's name
---@param amount integer how many to add, -1000 to 1000 (negative: remove)
---@return integer
function Game:add_counter(on, name, amount) end

---The game ends now: the winner is decided as at the end of the last Round (Victory Points, then Frags if the Scenario says so). The result stands: the effect's later calls that would change the game are ignored, with no event (docs/effects.md). (000 § Phase 3: Objectives)
function Game:end_game() end

