//! Decisions: every choice a player makes is one [`Decision`] with its legal
//! options, answered by a [`Controller`] with the index of an option. A game is
//! therefore its seed, its content and the sequence of answers (a replay).
//!
//! This module is the interface between the rules and the players: the
//! players themselves (random, greedy, scripted) are clients in
//! [`crate::players`]; a situation's answers are in [`crate::rules::situation`];
//! the human prompt is in the `arena` tool.

use crate::model::Id;
use crate::rules::event::PlayerId;
use crate::rules::geometry::Hex;
use serde::Serialize;

/// What a decision is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// Once per game, right after the starting hand: keep it or draw anew (`000 § Setup`).
    Mulligan,
    /// Where a Character deploys at setup.
    Deploy,
    /// The Running Order for a Round (`000 § Planning Phase`).
    RunningOrder,
    /// Which of the two Characters of a Turn activates first (`000 § Turns Phase`).
    FirstActivation,
    /// What the active Character does next in its Actions Step.
    Action,
    /// Where a benched Character returns (`000 § Bench`).
    BenchReturn,
    /// Which adjacent Enemy contests a Disengage (`000 § Disengage`).
    DisengageContender,
    /// Which die a Critical Block Nullifies, or keep it (`000 § Critical Block`).
    CriticalBlock,
    /// Which side activates Switches first (`000 § Switches`).
    SwitchOrder,
    /// Which Switch to activate next, or stop (`000 § Switches`).
    Switch,
    /// Whether to apply an optional Effect (`000 § Effects`).
    OptionalEffect,
    /// Which space a Displacement goes to (`000 § Displacements`).
    Displace,
    /// Which space a Character is Placed in (`000 § Placing`).
    Place,
    /// A Target chosen by an effect (`game:choose_target`).
    Target,
    /// A space chosen by an effect (`game:choose_space`).
    Space,
    /// Where to place a Special Space marker (`001 § Scenarios with Special Spaces`).
    SpecialSpace,
    /// A Running Projectile: where to deploy it, which to activate, where it
    /// Displaces, which Target it hits (`001 § Running Projectiles`).
    Projectile,
    /// Which of several simultaneous effects resolves first: the Underdog
    /// decides (`000 § When Do Things Happen`).
    SimultaneousEffects,
    /// An option chosen by an effect (`game:choose`).
    Choose,
    /// A Tactic to play in a timing window, or none (`000 § Tactics`).
    Tactic,
    /// Which Deployment Zone becomes the Scoring Zone (Assault).
    ScoringZone,
    /// Which Initiative card to keep from the Draft's deck (`001 § Draft`).
    Draft,
    /// Which State token to remove for the -2 Energy State and a Tactic, or
    /// none (`001 § Remove States`).
    RemoveState,
    /// An Objective card to discard, keep or hand over (`001 § Objectives
    /// Deck`, `001 § Objective Cards (Additional Rule)`).
    Objective,
}

/// One legal option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "option", rename_all = "kebab-case")]
pub enum Choice {
    /// Yes / no.
    Yes,
    /// No.
    No,
    /// Stop: end the Activation, activate no more Switches, play no Tactic, keep the Critical Block.
    Done,
    /// A space.
    Space { space: Hex },
    /// A Character (or other entry) by id.
    Pick { id: Id },
    /// An ordering of Characters.
    Order { ids: crate::rules::state::IdList<4> },
    /// Perform an Action, on a Target if it has one.
    Perform { action: Id, target: Option<Id>, cost: u8 },
    /// A Controller activates one of its Minions to perform an Action (`002 § Controller`).
    MinionAction { minion: Id, action: Id, target: Option<Id>, cost: u8 },
    /// A Controller removes one of its Minions from the HexaDome (`002 § Controller`).
    RemoveMinion { minion: Id },
    /// Spend a Movement Point to move to an adjacent space.
    MoveTo { space: Hex },
    /// Nullify this die (index in the opponent's Roll) with a Critical Block.
    Nullify { index: usize, die: Id },
    /// This side activates Switches first.
    First { character: Id },
    /// Activate a Switch.
    Activate { switch: Id },
    /// Play a Tactic.
    Play { tactic: Id },
    /// A free-form option of an effect.
    Text { text: String },
    /// Place a Character's Initiative card in a free position of one of the
    /// two Running Orders (`001 § Round`, 1. Planning Phase): `order` 1 or 2,
    /// `position` from 1.
    Slot { character: Id, order: u8, position: u8 },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::Yes => f.write_str("yes"),
            Choice::No => f.write_str("no"),
            Choice::Done => f.write_str("done"),
            Choice::Space { space } => write!(f, "space [{}, {}]", space.q, space.r),
            Choice::Pick { id } => f.write_str(id),
            Choice::Order { ids } => f.write_str(&ids.join(", ")),
            Choice::Perform { action, target: Some(t), cost } => write!(f, "{action} on {t} ({cost} AP)"),
            Choice::Perform { action, target: None, cost } => write!(f, "{action} ({cost} AP)"),
            Choice::MinionAction { minion, action, target: Some(t), cost } => {
                write!(f, "{minion}: {action} on {t} ({cost} AP)")
            }
            Choice::MinionAction { minion, action, target: None, cost } => write!(f, "{minion}: {action} ({cost} AP)"),
            Choice::RemoveMinion { minion } => write!(f, "remove {minion}"),
            Choice::MoveTo { space } => write!(f, "move to [{}, {}]", space.q, space.r),
            Choice::Nullify { index, die } => write!(f, "nullify die #{} ({die})", index + 1),
            Choice::First { character } => write!(f, "{character} first"),
            Choice::Activate { switch } => write!(f, "activate {switch}"),
            Choice::Play { tactic } => write!(f, "play {tactic}"),
            Choice::Text { text } => f.write_str(text),
            Choice::Slot { character, order, position } => {
                write!(f, "{character} in Running Order {order}, position {position}")
            }
        }
    }
}

/// A choice to make: who makes it, about what, and the legal options (never empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The deciding player.
    pub player: PlayerId,
    /// What it is about.
    pub kind: DecisionKind,
    /// The Character concerned, if any.
    pub character: Option<Id>,
    /// A short question for people (most are the rules' fixed text, kept
    /// without a copy).
    pub prompt: std::borrow::Cow<'static, str>,
    /// The legal options; the answer is an index into this list.
    pub options: Vec<Choice>,
}

/// Something that answers decisions.
pub trait Controller {
    /// The index of the chosen option; out-of-range answers are an engine error.
    fn decide(&mut self, decision: &Decision, view: &crate::rules::state::View<'_>) -> usize;
}
