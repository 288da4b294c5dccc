---@meta
-- Generated from engine/src/invictus/api.rs by `arena generate`; do not edit.

---@class InvictusGame
local InvictusGame = {}

--- A whole number from low to high inclusive, from the game's seeded RNG (also what `math.random` uses).
---@param low integer smallest result
---@param high integer largest result
---@return integer
function InvictusGame:random(low, high) end

--- Add a line to the game's narrative (also what `print` does).
---@param message string text for the game's narrative
function InvictusGame:log(message) end

--- The player's HP now.
---@param god string a player, by their god's id (`"athena"`)
---@return integer
function InvictusGame:health(god) end

--- The player's maximum HP.
---@param god string a player, by their god's id (`"athena"`)
---@return integer
function InvictusGame:max_health(god) end

--- The player's Stamina left.
---@param god string a player, by their god's id (`"athena"`)
---@return integer
function InvictusGame:stamina(god) end

--- The player's enemies not defeated, in seat order.
---@param god string a player, by their god's id (`"athena"`)
---@return string[]
function InvictusGame:enemies(god) end

--- The player's allies not defeated, not the player, in seat order.
---@param god string a player, by their god's id (`"athena"`)
---@return string[]
function InvictusGame:allies(god) end

--- Whether `to` is within `from`'s Range around the ring of players not defeated.
---@param from string the attacking player's god
---@param to string the other player's god
---@return boolean
function InvictusGame:in_range(from, to) end

--- The ids of the Artifacts (and counterfeits) in the player's hand.
---@param god string a player, by their god's id (`"athena"`)
---@return string[]
function InvictusGame:hand(god) end

--- The attacker of the attack being declared or countered, or nil.
---@return string
function InvictusGame:attacker() end

--- The attacked player of the attack being declared or countered, or nil.
---@return string
function InvictusGame:defender() end

--- `"standard"` or `"ability"` for the attack being declared or countered, or nil.
---@return string
function InvictusGame:attack_kind() end

--- The damage the attack would deal as things stand (after bonuses, failures and blocks); 0 with no attack.
---@return integer
function InvictusGame:attack_damage() end

--- Damage outside an attack: no counter blocks it. A player it takes to 0 HP is revived or defeated once the effect has run.
---@param god string a player, by their god's id (`"athena"`)
---@param amount integer HP of damage, 0 to 1000
function InvictusGame:deal_damage(god, amount) end

--- Heal the player, never above their maximum HP.
---@param god string a player, by their god's id (`"athena"`)
---@param amount integer HP, 0 to 1000
function InvictusGame:heal(god, amount) end

--- Add Stamina, never above 24.
---@param god string a player, by their god's id (`"athena"`)
---@param amount integer Stamina, 0 to 1000
function InvictusGame:gain_stamina(god, amount) end

--- Draw cards from the player's draw pile (shuffling the discard pile when it runs out); returns how many were drawn.
---@param god string a player, by their god's id (`"athena"`)
---@param count integer cards, at most 20
---@return integer
function InvictusGame:draw(god, count) end

--- The player discards every Artifact of that Energy type from their hand (Olympian Slash); returns how many.
---@param god string a player, by their god's id (`"athena"`)
---@param energy_type string `prisma`, `fire`, `wild`, `life`, `aqua` or `none`
---@return integer
function InvictusGame:discard_energy_type(god, energy_type) end

--- Flip the top Boost for probability and return its colour (`omega`, `sigma`, `phi`, `delta`); the effect's player chooses a Wild Boost's colour. Exposing the Apocalypse sets it off.
---@return string
function InvictusGame:flip_boost() end

--- The attack being declared or countered deals this much more (Godlike: 20). Undone if this Boost is negated.
---@param amount integer damage, -1000 to 1000
function InvictusGame:add_attack_damage(amount) end

--- A character ability's attack fails: 0 damage and none of its further effects (Aegis Perfected); returns false, doing nothing, for a standard attack.
---@return boolean
function InvictusGame:fail_attack() end

--- Fully negate the latest Boost played with or against the attack before this one (Server Down); returns false if there is none.
---@return boolean
function InvictusGame:negate_previous_boost() end

--- Block this much of the attack's damage (a counter).
---@param amount integer damage, 0 to 1000
function InvictusGame:block(amount) end

--- Flip the player's last active token of the skill to its black side; returns false if none was active.
---@param god string a player, by their god's id (`"athena"`)
---@param skill string `stamina`, `range` or `accuracy`
---@return boolean
function InvictusGame:inactivate_token(god, skill) end

--- Flip the player's last inactive token of the skill back; returns false if none was inactive.
---@param god string a player, by their god's id (`"athena"`)
---@param skill string `stamina`, `range` or `accuracy`
---@return boolean
function InvictusGame:activate_token(god, skill) end

--- The effect's player chooses one of the options (a decision); nil for an empty list.
---@param options string[] 1 to 64 options
---@param prompt? string the question
---@return string
function InvictusGame:choose(options, prompt) end

---@class InvictusCtx
---@field self string the god id of the card's player
---@field target string? the god id of the target
---@field card string the card (`god:athena`)
---@field effect string which effect of the card
