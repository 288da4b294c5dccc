//! Events: every change of a game's state, in order. The event log is the game's
//! narrative (`Display`), the replay check (same seed and answers, same events)
//! and what snapshot tests read.

use crate::model::{Id, Symbol};
use crate::rules::geometry::Hex;
use serde::Serialize;

pub use crate::rules::seats::PlayerId;
use crate::rules::seats::Seated;

/// One change of state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The game is set up.
    GameStarted { scenario: Id, seed: u64, teams: Seated<Vec<Id>> },
    /// A Character is deployed at setup.
    Deployed { character: Id, space: Hex },
    /// Who holds the Underdog token, and why.
    Underdog { player: PlayerId, reason: String },
    /// Who holds the Prime Time marker, and why (`001 § Prime Time`).
    PrimeTime { player: PlayerId, reason: String },
    /// The Initiative cards a player drafted, flipped when the Draft ends:
    /// their team (`001 § Draft`).
    Drafted { player: PlayerId, characters: Vec<Id> },
    /// An Initiative card placed in a position of one of the two Running
    /// Orders (`001 § Round`, 1. Planning Phase; `order` 1 or 2, `position` from 1).
    InitiativePlaced { player: PlayerId, character: Id, order: u8, position: u8 },
    /// A Round begins (`000 § Rounds`).
    RoundStarted { round: u8 },
    /// A player's Running Order for the Round (`000 § Planning Phase`).
    RunningOrder { player: PlayerId, order: Vec<Id> },
    /// A Turn's Initiative step: who activates first (`000 § Turns Phase`).
    Initiative { turn: u8, first: Id, second: Id },
    /// An Activation begins with this many Action Points (`000 § Preparation Step`).
    ActivationStarted { character: Id, action_points: u8 },
    /// A Character in the Infirmary skips its Activation (`000 § Infirmary`).
    ActivationSkipped { character: Id },
    /// A benched Character returns to the HexaDome (`000 § Bench`).
    ReturnedFromBench { character: Id, space: Hex },
    /// An Action is declared and paid (`000 § Actions`).
    Action { character: Id, action: Id, target: Option<Id>, cost: u8 },
    /// Movement Points gained.
    MovementPoints { character: Id, gained: u8, total: u8 },
    /// Action Points gained during an Activation (Go All-Out, Stick to the plan).
    ActionPoints { character: Id, gained: u8, total: u8 },
    /// A movement of one space, spending one Movement Point.
    Moved { character: Id, from: Hex, to: Hex },
    /// A Disengage failed: the Character stays and loses its Movement Points (`000 § Disengage`).
    DisengageFailed { character: Id },
    /// Dice rolled for one side of a Roll, face by face.
    Rolled { character: Id, faces: Vec<(Id, Vec<Symbol>)>, added: Vec<Symbol> },
    /// A Critical Block Nullifies a die (`000 § Critical Block`).
    CriticalBlock { character: Id, nullified: Id },
    /// A Switch is activated (`000 § Switches`).
    Switch { character: Id, switch: Id, cost: Vec<Symbol> },
    /// A Roll's results: each side's uncancelled Successes.
    RollResult { active: Id, active_successes: u32, opponent: Option<Id>, opponent_successes: u32 },
    /// Damage suffered (`000 § Damage`).
    Damage { character: Id, amount: u8, total: u8 },
    /// Damage healed.
    Healed { character: Id, amount: u8, total: u8 },
    /// A State token placed red side up (`000 § States`).
    StateImposed { character: Id, state: Id },
    /// A State token flipped blue side up.
    StateFlipped { character: Id, state: Id },
    /// A State token removed.
    StateRemoved {
        character: Id,
        state: Id,
        /// Tokens of that State still on the Character (stacking States).
        #[serde(skip_serializing_if = "is_zero")]
        left: u8,
    },
    /// Displaced one space (`000 § Displacements`).
    Displaced { character: Id, from: Hex, to: Hex },
    /// Placed in a space (`000 § Placing`).
    Placed { character: Id, from: Option<Hex>, to: Hex },
    /// A Controller deploys a Minion (`002 § Controller`).
    MinionDeployed { controller: Id, minion: Id, space: Hex },
    /// A Minion leaves the HexaDome, to the side (`002 § Minion`): `why` is
    /// `damage`, `controller` (its Controller went to the Infirmary) or `removed`
    /// (its Controller took it off).
    MinionRemoved { minion: Id, why: String },
    /// A Running Projectile deployed face down (`001 § Scenarios with Running Projectiles`).
    ProjectileDeployed { player: PlayerId, projectile: Id, space: Hex },
    /// A Running Projectile flipped against a Character (`001 § Running Projectiles`).
    ProjectileTriggered { projectile: Id, marker: Id, target: Id },
    /// A Running Projectile leaves the HexaDome for the bottom of its deck: `why` is
    /// `triggered`, `destroyed` or `discarded` (no space to deploy it).
    ProjectileRemoved { projectile: Id, why: String },
    /// A Special Space marker placed face down (`001 § Scenarios with Special Spaces`).
    SpecialSpacePlaced { player: PlayerId, space: Hex },
    /// A Special Space marker flipped face up as a Character enters its space.
    SpecialSpaceRevealed { space: Hex, marker: Id },
    /// A Smoke token deployed (`004 § Smoke`).
    SmokeDeployed { character: Id, space: Hex },
    /// A Smoke token removed.
    SmokeRemoved { character: Id, space: Hex },
    /// Sent to the Infirmary (`000 § Infirmary`).
    Infirmary { character: Id },
    /// A Frag gained (`000 § Frag`).
    Frag { player: PlayerId, total: u32 },
    /// Tactics drawn.
    TacticsDrawn { player: PlayerId, count: u8, hand: usize },
    /// A Tactic played (`000 § Tactics`).
    TacticPlayed { player: PlayerId, tactic: Id, character: Id },
    /// Moved from the Infirmary to the Bench (`000 § Recovery Phase`).
    Benched { character: Id },
    /// Victory Points scored (`000 § Objectives Phase`).
    VictoryPoints { player: PlayerId, gained: u8, total: u32, objective: Id },
    /// An Objective card drawn and placed face up, available (`001 §
    /// Preparation and Objectives Deck Use`).
    ObjectiveDrawn { card: Id, colour: String },
    /// An Objective card discarded, and why.
    ObjectiveDiscarded { card: Id, reason: String },
    /// A player claims an Objective card (`001 § Claiming Objective Cards`):
    /// its Victory Points follow.
    ObjectiveClaimed { player: PlayerId, card: Id, vp: u8 },
    /// The Objectives Deck ran out: the discard deck is shuffled into a new
    /// one (`001 § Preparation and Objectives Deck Use`).
    ObjectivesReshuffled { cards: usize },
    /// A green Objective card: `player` takes Victory Points from `from`
    /// (`001 § Objective Cards`, Last One in Victory Points).
    VictoryPointsTaken { player: PlayerId, from: PlayerId, amount: u8, left: u32 },
    /// The Scoring Zone moves (Assault).
    ScoringZone { zone: Id },
    /// The Scoring Zones are now these (none, or more than one).
    ScoringZones { zones: Vec<Id> },
    /// A Scenario's counter changed (`game:add_counter`): on a Character, a
    /// zone or a player, its name and how many there are now.
    Counter { on: Id, counter: Id, value: i64 },
    /// A line from an effect (`print`, `game:log`).
    Log { text: String },
    /// An effect failed and was undone; the game goes on (`arena check --sims` reports these).
    EffectFailed { card: Id, effect: String, message: String, file: String, line: Option<usize> },
    /// An Activation or a game that would not end was stopped (at most
    /// `MAX_ACTIONS_PER_ACTIVATION` Actions, `MAX_DECISIONS_PER_GAME`
    /// Decisions): the last effect that gave Action or Movement Points is named
    /// (`card` is `(engine)` when none did). Counted as a failed effect.
    Stopped { card: Id, effect: String, message: String, file: String },
    /// A Scenario rule's Lua ends the game (`game:end_game`), in this Round:
    /// the narrative says which rule, before the Game over line.
    GameEndedByRule { rule: Id, round: u8 },
    /// The game is over.
    GameEnded { winner: Option<PlayerId>, victory_points: Seated<u32>, frags: Seated<u32>, rounds: u8 },
}

fn hex(h: &Hex) -> String {
    format!("[{}, {}]", h.q, h.r)
}

fn symbols(s: &[Symbol]) -> String {
    if s.is_empty() {
        return "blank".into();
    }
    s.iter().map(|s| symbol_name(*s)).collect::<Vec<_>>().join("+")
}

/// A symbol as the narrative writes it ("critical block").
pub fn symbol_name(s: Symbol) -> &'static str {
    match s {
        Symbol::Success => "success",
        Symbol::Block => "block",
        Symbol::Special => "special",
        Symbol::CriticalSuccess => "critical success",
        Symbol::CriticalBlock => "critical block",
    }
}

impl Event {
    /// The event as one seat may know it: what is placed face down by
    /// another player shows only that it was placed. A Running Order is
    /// placed face down (`000 § Planning Phase`: "secretly"; `001 § Round`
    /// (1. Planning Phase): "hidden to the other players") and each Turn's
    /// Initiative step reveals its cards ([`Event::Initiative`]). Every other
    /// event is public and reads as its `Display`.
    pub fn seen_by(&self, seat: PlayerId) -> SeenBy<'_> {
        SeenBy { event: self, seat }
    }

    /// Whether `seat` sees this event only in part ([`Event::seen_by`]).
    pub fn hidden_from(&self, seat: PlayerId) -> bool {
        match self {
            Event::RunningOrder { player, .. } | Event::InitiativePlaced { player, .. } => *player != seat,
            _ => false,
        }
    }
}

/// An event as one seat knows it ([`Event::seen_by`]).
#[derive(Debug, Clone, Copy)]
pub struct SeenBy<'a> {
    event: &'a Event,
    seat: PlayerId,
}

impl<'a> SeenBy<'a> {
    /// The event, when the seat sees it whole; `None` for one it sees only
    /// in part (its `Display` says what it sees).
    pub fn event(&self) -> Option<&'a Event> {
        (!self.event.hidden_from(self.seat)).then_some(self.event)
    }
}

impl std::fmt::Display for SeenBy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.event.hidden_from(self.seat) {
            return write!(f, "{}", self.event);
        }
        match self.event {
            Event::RunningOrder { player, order } => {
                write!(
                    f,
                    "{player} places a Running Order of {} face down",
                    count(order.len() as u32, "Initiative card")
                )
            }
            Event::InitiativePlaced { player, order, position, .. } => {
                write!(f, "{player} places an Initiative card face down in Running Order {order}, position {position}")
            }
            other => write!(f, "{other}"),
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use Event::*;
        match self {
            GameStarted { scenario, seed, teams } => {
                let sides: Vec<String> = teams.enumerate().map(|(p, t)| format!("{p} {}", t.join(", "))).collect();
                write!(f, "Game of {scenario}, seed {seed}: {}", sides.join(" vs "))
            }
            Deployed { character, space } => write!(f, "{character} deploys at {}", hex(space)),
            Underdog { player, reason } => write!(f, "{player} is the Underdog ({reason})"),
            PrimeTime { player, reason } => write!(f, "{player} holds the Prime Time marker ({reason})"),
            Drafted { player, characters } => write!(f, "{player} drafted {}", characters.join(", ")),
            InitiativePlaced { player, character, order, position } => {
                write!(f, "{player} places {character} in Running Order {order}, position {position}")
            }
            RoundStarted { round } => write!(f, "== Round {round} =="),
            RunningOrder { player, order } => write!(f, "{player} Running Order: {}", order.join(", ")),
            Initiative { turn, first, second } => write!(f, "-- Turn {turn}: {first} activates before {second}"),
            ActivationStarted { character, action_points } => {
                write!(f, "{character} activates with {}", count(*action_points as u32, "Action Point"))
            }
            ActivationSkipped { character } => write!(f, "{character} is in the Infirmary and skips the Activation"),
            ReturnedFromBench { character, space } => write!(f, "{character} returns from the Bench at {}", hex(space)),
            Action { character, action, target, cost } => match target {
                Some(t) => write!(f, "{character} performs {action} on {t} ({cost} AP)"),
                None => write!(f, "{character} performs {action} ({cost} AP)"),
            },
            MovementPoints { character, gained, total } => {
                write!(f, "{character} gains {} ({total})", count(*gained as u32, "Movement Point"))
            }
            ActionPoints { character, gained, total } => {
                write!(f, "{character} gains {} ({total})", count(*gained as u32, "Action Point"))
            }
            Moved { character, from, to } => write!(f, "{character} moves {} -> {}", hex(from), hex(to)),
            DisengageFailed { character } => write!(f, "{character} fails to Disengage and loses its Movement Points"),
            Rolled { character, faces, added } => {
                let mut parts: Vec<String> = faces.iter().map(|(d, s)| format!("{d}: {}", symbols(s))).collect();
                if !added.is_empty() {
                    parts.push(format!("added: {}", symbols(added)));
                }
                write!(f, "{character} rolls {}", parts.join("; "))
            }
            CriticalBlock { character, nullified } => {
                write!(f, "{character} uses a Critical Block to Nullify the {nullified} die")
            }
            Switch { character, switch, cost } => write!(f, "{character} activates {switch} ({})", symbols(cost)),
            RollResult { active, active_successes, opponent, opponent_successes } => match opponent {
                Some(o) => write!(
                    f,
                    "result: {active} {active_successes} Success{}, {o} {opponent_successes}",
                    if *active_successes == 1 { "" } else { "es" }
                ),
                None => write!(
                    f,
                    "result: {active} {active_successes} Success{}",
                    if *active_successes == 1 { "" } else { "es" }
                ),
            },
            Damage { character, amount, total } => write!(f, "{character} suffers {amount} Damage ({total})"),
            Healed { character, amount, total } => write!(f, "{character} heals {amount} Damage ({total})"),
            StateImposed { character, state } => write!(f, "{character} is {state}"),
            StateFlipped { character, state } => write!(f, "{character}'s {state} turns blue side up"),
            StateRemoved { character, state, left: 0 } => write!(f, "{character} is no longer {state}"),
            StateRemoved { character, state, left } => {
                write!(f, "{character} loses a {state} token ({left} left)")
            }
            Displaced { character, from, to } => write!(f, "{character} is Displaced {} -> {}", hex(from), hex(to)),
            Placed { character, to, .. } => write!(f, "{character} is Placed at {}", hex(to)),
            MinionDeployed { controller, minion, space } => {
                write!(f, "{controller} deploys {minion} at {}", hex(space))
            }
            MinionRemoved { minion, why } => match why.as_str() {
                "damage" => {
                    write!(f, "{minion} has suffered its Hit Points in Damage and is removed from the HexaDome")
                }
                "controller" => write!(f, "{minion} is removed from the HexaDome: its Controller is in the Infirmary"),
                _ => write!(f, "{minion} is removed from the HexaDome by its Controller"),
            },
            ProjectileDeployed { player, projectile, space } => {
                write!(f, "{player} deploys Running Projectile {projectile} face down at {}", hex(space))
            }
            ProjectileTriggered { projectile, marker, target } => {
                write!(f, "{projectile} is flipped against {target}: {marker}")
            }
            ProjectileRemoved { projectile, why } => match why.as_str() {
                "destroyed" => write!(f, "{projectile} is destroyed and goes to the bottom of its deck"),
                "discarded" => write!(f, "{projectile} finds no space and goes to the bottom of its deck"),
                _ => write!(f, "{projectile} goes to the bottom of its deck"),
            },
            SpecialSpacePlaced { player, space } => {
                write!(f, "{player} places a Special Space marker face down at {}", hex(space))
            }
            SpecialSpaceRevealed { space, marker } => {
                write!(f, "the Special Space at {} is revealed: {marker}", hex(space))
            }
            SmokeDeployed { character, space } => write!(f, "{character} deploys Smoke at {}", hex(space)),
            SmokeRemoved { character, space } => write!(f, "{character}'s Smoke at {} is removed", hex(space)),
            Infirmary { character } => write!(f, "{character} goes to the Infirmary"),
            Frag { player, total } => write!(f, "{player} takes a Frag ({total})"),
            TacticsDrawn { player, count, hand } => {
                write!(f, "{player} draws {} ({hand} in hand)", self::count(*count as u32, "Tactic"))
            }
            TacticPlayed { player, tactic, character } => {
                write!(f, "{player} plays {tactic} for {character}")
            }
            Benched { character } => write!(f, "{character} moves to the Bench with -2 Energy"),
            VictoryPoints { player, gained, total, objective } => {
                write!(f, "{player} scores {gained} VP for {objective} ({total})")
            }
            ObjectiveDrawn { card, colour } => write!(f, "Objective card {card} ({colour}) is drawn and available"),
            ObjectiveDiscarded { card, reason } => write!(f, "Objective card {card} is discarded ({reason})"),
            ObjectiveClaimed { player, card, vp } => write!(f, "{player} claims Objective card {card} ({vp} VP)"),
            ObjectivesReshuffled { cards } => {
                write!(f, "the Objectives Deck is empty: the discard deck ({cards} cards) is shuffled into a new one")
            }
            VictoryPointsTaken { player, from, amount, left } => {
                write!(f, "{player} takes {amount} VP from {from} ({from} has {left})")
            }
            ScoringZone { zone } => write!(f, "the Scoring Zone is now {zone}"),
            ScoringZones { zones } if zones.is_empty() => write!(f, "there is no Scoring Zone now"),
            ScoringZones { zones } => write!(f, "the Scoring Zones are now {}", zones.join(" and ")),
            Counter { on, counter, value } => write!(f, "{on} has {value} {counter}"),
            Log { text } => write!(f, "  {text}"),
            EffectFailed { card, effect, message, .. } => {
                write!(f, "{card} {effect} failed and was undone: {message}")
            }
            Stopped { card, effect, message, .. } => {
                write!(f, "{message}; the last points came from {card} {effect}")
            }
            GameEndedByRule { rule, round } => write!(f, "{rule} ends the game in Round {round}"),
            // At a Prime Time table "X VP to Y" would not say whose: every seat is named.
            GameEnded { winner, victory_points, frags, rounds } if victory_points.table().prime_time() => {
                let each =
                    |v: &Seated<u32>| v.enumerate().map(|(p, n)| format!("{p} {n}")).collect::<Vec<_>>().join(", ");
                let outcome = winner.map_or_else(|| "a draw".to_string(), |w| format!("{w} wins"));
                write!(
                    f,
                    "== Game over after {}: {outcome}; VP: {}; Frags: {}",
                    self::count(*rounds as u32, "Round"),
                    each(victory_points),
                    each(frags)
                )
            }
            GameEnded { winner, victory_points, frags, rounds } => match winner {
                Some(w) => write!(
                    f,
                    "== Game over after {}: {w} wins, {} VP to {} ({} to {})",
                    self::count(*rounds as u32, "Round"),
                    victory_points[*w],
                    others(victory_points, *w),
                    self::count(frags[*w], "Frag"),
                    others(frags, *w)
                ),
                None => write!(
                    f,
                    "== Game over after {}: a draw, {} VP each, {} Frags each",
                    self::count(*rounds as u32, "Round"),
                    victory_points.iter().next().copied().unwrap_or(0),
                    frags.iter().next().copied().unwrap_or(0)
                ),
            },
        }
    }
}

/// The other players' figures, in seat order: `3` with
/// two players, `3, 1, 0` with four.
fn others(v: &Seated<u32>, p: PlayerId) -> String {
    v.table().opponents(p).map(|o| v[o].to_string()).collect::<Vec<_>>().join(", ")
}

/// `1 Action Point`, `2 Action Points`, `0 Tactics`.
pub fn count(n: u32, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_order_is_seen_face_down_by_the_other_players() {
        let (p1, p2) = (PlayerId::seat(0), PlayerId::seat(1));
        let e = Event::RunningOrder { player: p1, order: vec!["gata".into(), "maximus".into()] };
        assert_eq!(e.seen_by(p1).to_string(), e.to_string(), "its owner sees it");
        let seen = e.seen_by(p2).to_string();
        assert!(!seen.contains("gata") && !seen.contains("maximus"), "{seen}");
        assert_eq!(seen, "player 1 places a Running Order of 2 Initiative cards face down");
        let placed = Event::InitiativePlaced { player: p1, character: "gata".into(), order: 2, position: 1 };
        let seen = placed.seen_by(p2).to_string();
        assert!(!seen.contains("gata"), "{seen}");
        assert!(seen.contains("Running Order 2, position 1"), "{seen}");
        let public = Event::Initiative { turn: 1, first: "gata".into(), second: "laxmee".into() };
        assert_eq!(public.seen_by(p2).to_string(), public.to_string(), "the Turn reveals them");
    }
}
