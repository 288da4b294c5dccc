//! The narrative of an Invictus game: one [`Event`] per thing that happened,
//! named by the rulebook's terms. Players are named by their god's id.

use crate::model::Id;
use crate::rules::seats::PlayerId;
use serde::Serialize;

/// Something that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The seats, teams and gods at the start (`003 § Team Assignment`, `§ Character Assignment`).
    Seated { seat: usize, team: usize, god: Id, dealt: Vec<Id> },
    /// Who goes first: the lowest Health (`003 § Who Goes First?`).
    FirstPlayer { god: Id, tie_flip: bool },
    /// A turn begins.
    TurnBegan { turn: u32, god: Id },
    /// A financial transaction was paid and completed.
    Transaction { god: Id, paid: u32, spent: u32, items: Vec<String> },
    /// A standard attack was announced.
    StandardAttack { god: Id, artifact: Id, target: Id, reinforcement: Option<Id>, stamina_left: i32 },
    /// A character ability was performed.
    Ability { god: Id, ability: Id, target: Option<Id>, stamina_left: i32 },
    /// A Boost was flipped for probability; `colour` is the colour it counts as.
    Flipped { god: Id, boost: Id, colour: Id },
    /// The attack missed (no Accuracy token of the flipped colour).
    Missed { god: Id },
    /// A Boost was played or declared.
    BoostPlayed { god: Id, boost: Id },
    /// A counter was played.
    Counter { god: Id, with: Id },
    /// An attack's damage after its counters.
    AttackResolved { attacker: Id, target: Id, damage: i32, blocked: i32, failed: bool },
    /// Damage taken.
    Damage { god: Id, amount: i32, health: i32 },
    /// Healing received.
    Healed { god: Id, amount: i32, health: i32 },
    /// Stamina gained.
    StaminaGained { god: Id, amount: i32, stamina: i32 },
    /// Cards discarded from hand by an effect.
    Discarded { god: Id, cards: Vec<Id> },
    /// Cards drawn by an effect.
    Drew { god: Id, count: usize },
    /// A Reinforcement took a successful attack.
    ReinforcementHit { owner: Id, reinforcement: Id, hits: u8 },
    /// A Reinforcement was defeated or discarded.
    ReinforcementLost { owner: Id, reinforcement: Id },
    /// A Reinforcement was gained.
    ReinforcementGained { god: Id, reinforcement: Id },
    /// An Artifact was charged.
    Charged { god: Id, artifact: Id },
    /// An Artifact was discharged.
    Discharged { god: Id, artifact: Id },
    /// A skill token was inactivated or activated.
    Token { god: Id, skill: Id, active: bool },
    /// A turn was completed: hand drawn back to 5 Artifacts, Stamina replenished.
    TurnEnded { god: Id, stamina: i32 },
    /// A player's HP reached 0.
    Down { god: Id },
    /// An ally revived them.
    Revived { god: Id, by: Id, gave: i32 },
    /// A player was defeated.
    Defeated { god: Id },
    /// The Apocalypse: `damage` true for 40 damage to all, false for all to 10.
    Apocalypse { damage: bool },
    /// A line an effect logged.
    Log { text: String },
    /// An effect failed and was undone.
    EffectFailed { card: String, message: String },
    /// A game that would not end was stopped (more than its `max_turns`
    /// turns, or `MAX_DECISIONS_PER_GAME` Decisions): no team wins.
    Stopped { message: String },
    /// The game ended: the winning team, if any.
    GameEnded { winner: Option<usize>, turns: u32 },
}

impl Event {
    /// The event as the player in `seat` reads it: the god boards dealt to
    /// another player are face down but the one chosen (`003 § Character
    /// Assignment`); every other event is public.
    pub fn seen_by(&self, seat: PlayerId) -> String {
        match self {
            Event::Seated { seat: s, team, god, .. } if *s != seat.index() => {
                format!("seat {} (team {}): {god}", s + 1, team + 1)
            }
            _ => self.to_string(),
        }
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Seated { seat, team, god, dealt } => {
                write!(f, "seat {} (team {}): {god}, chosen from {}", seat + 1, team + 1, dealt.join(" and "))
            }
            Event::FirstPlayer { god, tie_flip } => {
                write!(f, "{god} goes first (lowest Health{})", if *tie_flip { ", tie flipped" } else { "" })
            }
            Event::TurnBegan { turn, god } => write!(f, "turn {turn}: {god}"),
            Event::Transaction { god, paid, spent, items } => {
                write!(f, "  {god} pays {paid} Prisma for {spent}: {}", items.join(", "))
            }
            Event::StandardAttack { god, artifact, target, reinforcement, stamina_left } => match reinforcement {
                Some(r) => write!(f, "  {god} attacks {target}'s {r} with {artifact} (Stamina {stamina_left})"),
                None => write!(f, "  {god} attacks {target} with {artifact} (Stamina {stamina_left})"),
            },
            Event::Ability { god, ability, target, stamina_left } => match target {
                Some(t) => write!(f, "  {god} performs {ability} on {t} (Stamina {stamina_left})"),
                None => write!(f, "  {god} performs {ability} (Stamina {stamina_left})"),
            },
            Event::Flipped { god, boost, colour } => write!(f, "  {god} flips {boost}: {colour}"),
            Event::Missed { god } => write!(f, "  {god} misses"),
            Event::BoostPlayed { god, boost } => write!(f, "  {god} plays {boost}"),
            Event::Counter { god, with } => write!(f, "  {god} counters with {with}"),
            Event::AttackResolved { attacker, target, damage, blocked, failed } => write!(
                f,
                "  {attacker}'s attack on {target}: {damage} damage{}{}",
                if *blocked > 0 { format!(" ({blocked} blocked)") } else { String::new() },
                if *failed { " (failed)" } else { "" }
            ),
            Event::Damage { god, amount, health } => write!(f, "  {god} takes {amount} damage ({health} HP)"),
            Event::Healed { god, amount, health } => write!(f, "  {god} heals {amount} ({health} HP)"),
            Event::StaminaGained { god, amount, stamina } => write!(f, "  {god} gains {amount} Stamina ({stamina})"),
            Event::Discarded { god, cards } => write!(f, "  {god} discards {}", cards.join(", ")),
            Event::Drew { god, count } => write!(f, "  {god} draws {count}"),
            Event::ReinforcementHit { owner, reinforcement, hits } => {
                write!(f, "  {owner}'s {reinforcement} is hit ({hits})")
            }
            Event::ReinforcementLost { owner, reinforcement } => write!(f, "  {owner} loses {reinforcement}"),
            Event::ReinforcementGained { god, reinforcement } => write!(f, "  {god} gains {reinforcement}"),
            Event::Charged { god, artifact } => write!(f, "  {god} charges {artifact}"),
            Event::Discharged { god, artifact } => write!(f, "  {god} discharges {artifact}"),
            Event::Token { god, skill, active } => {
                write!(f, "  {god}'s {skill} token is {}", if *active { "active" } else { "inactive" })
            }
            Event::TurnEnded { god, stamina } => write!(f, "  {god} completes the turn (Stamina {stamina})"),
            Event::Down { god } => write!(f, "  {god} is at 0 HP"),
            Event::Revived { god, by, gave } => write!(f, "  {by} revives {god} with {gave} HP"),
            Event::Defeated { god } => write!(f, "  {god} is defeated"),
            Event::Apocalypse { damage: true } => {
                f.write_str("  the Apocalypse: 40 unpreventable damage to every player")
            }
            Event::Apocalypse { damage: false } => f.write_str("  the Apocalypse: every player is reduced to 10 HP"),
            Event::Log { text } => write!(f, "  | {text}"),
            Event::EffectFailed { card, message } => write!(f, "  effect of {card} failed: {message}"),
            Event::Stopped { message } => write!(f, "stopped: {message}"),
            Event::GameEnded { winner: Some(t), turns } => {
                write!(f, "team {} wins after {turns} turn{}", t + 1, if *turns == 1 { "" } else { "s" })
            }
            Event::GameEnded { winner: None, turns } => {
                write!(f, "no winner after {turns} turn{}", if *turns == 1 { "" } else { "s" })
            }
        }
    }
}
