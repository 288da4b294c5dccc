//! Decisions of an Invictus game: the same shape as Aristeia's
//! (`crate::rules::decision`): a [`Decision`] lists the legal options and a
//! [`Controller`] answers with the index of one; a game is its seed, its
//! content and its answers (a replay).

use crate::model::{BoostColour, Id, Skill};
use crate::rules::seats::PlayerId;
use serde::Serialize;

/// What a decision is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// Which of the two dealt god boards to play (`003 § Character Assignment`).
    ChooseGod,
    /// What to do next in your turn (`003 § During Your Turn`).
    Action,
    /// What to add to the financial transaction being announced, or pay and complete it
    /// (`003 § What Are the Steps to Completing a Financial Transaction?`).
    Transaction,
    /// Which attack-related Boost to declare with an attack, or none more (`003 § Attack the Enemy`).
    AttachBoost,
    /// Which counter to play in reply to an attack or a counter, or pass (`003 § Counters`).
    Counter,
    /// Which Anytime Boost to play before the active player declares an action (`003 § Anytime Boosts`).
    Anytime,
    /// The colour of a flipped Wild Boost (`003 § Boosts`: the flipper decides).
    WildColour,
    /// Whether to revive an ally at 0 HP, and with how much HP (`003 § Revival`).
    Revive,
    /// Which of 3 Reinforcements to discard after replacing (`003 § Replacing a Reinforcements Card`).
    DiscardReinforcement,
    /// An option an effect's Lua asks for (`game:choose`).
    Choose,
}

/// Something bought or destroyed in a financial transaction (`003 § Financial Transactions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "item", rename_all = "kebab-case")]
pub enum Purchase {
    /// An Artifact from its marketplace pile, to the discard pile.
    Artifact { id: Id },
    /// The top Boost, to the hand.
    Boost,
    /// The top Reinforcement (you own fewer than 2).
    Reinforcement,
    /// Draw a Reinforcement and keep 2 of your 3.
    ReplaceReinforcement,
    /// A skill token on the next placeholder (an Accuracy token in `colour`).
    Token { skill: Skill, colour: Option<BoostColour> },
    /// Destroy a card from your hand.
    Destroy { card: Id },
}

impl std::fmt::Display for Purchase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Purchase::Artifact { id } => write!(f, "buy {id}"),
            Purchase::Boost => f.write_str("buy a Boost"),
            Purchase::Reinforcement => f.write_str("buy a Reinforcement"),
            Purchase::ReplaceReinforcement => f.write_str("replace a Reinforcement"),
            Purchase::Token { skill, colour: Some(c) } => write!(f, "buy a {} token ({})", skill.as_str(), c.as_str()),
            Purchase::Token { skill, colour: None } => write!(f, "buy a {} token", skill.as_str()),
            Purchase::Destroy { card } => write!(f, "destroy {card}"),
        }
    }
}

/// One legal option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "option", rename_all = "kebab-case")]
pub enum Choice {
    /// Play this god.
    God { god: Id },
    /// Complete your turn (`003 § Completing Your Turn`).
    EndTurn,
    /// A standard attack with an Artifact from hand on an enemy, or on one of its Reinforcements.
    StandardAttack { artifact: Id, target: Id, reinforcement: Option<Id> },
    /// A character ability, on a target if it has one.
    Ability { ability: Id, target: Option<Id> },
    /// Heal yourself or an ally with a Life Artifact.
    Heal { artifact: Id, target: Id },
    /// Give an ally Stamina (Elixir).
    Stamina { artifact: Id, target: Id },
    /// Begin a financial transaction.
    Transaction,
    /// Add an item to the transaction being announced.
    Add { purchase: Purchase },
    /// Pay for the announced items and complete them.
    Complete,
    /// Charge an Artifact from hand.
    Charge { artifact: Id },
    /// Discharge an Artifact from the Charge Station to the discard pile.
    Discharge { artifact: Id },
    /// Play a Boost from hand.
    PlayBoost { boost: Id },
    /// Declare this Boost with the attack.
    Attach { boost: Id },
    /// Block with an Aqua Artifact from hand.
    Block { artifact: Id },
    /// Play a counter Boost.
    CounterBoost { boost: Id },
    /// Perform a counter character ability (Energy from hand only).
    CounterAbility { ability: Id },
    /// Nothing (more).
    Pass,
    /// A colour.
    Colour { colour: BoostColour },
    /// Revive the ally, giving this much HP after the penalty.
    Revive { give: i32 },
    /// Discard this Reinforcement.
    Discard { reinforcement: Id },
    /// A free-form option of an effect.
    Text { text: String },
}

impl std::fmt::Display for Choice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Choice::God { god } => write!(f, "play {god}"),
            Choice::EndTurn => f.write_str("end the turn"),
            Choice::StandardAttack { artifact, target, reinforcement: Some(r) } => {
                write!(f, "attack {target}'s {r} with {artifact}")
            }
            Choice::StandardAttack { artifact, target, reinforcement: None } => {
                write!(f, "attack {target} with {artifact}")
            }
            Choice::Ability { ability, target: Some(t) } => write!(f, "{ability} on {t}"),
            Choice::Ability { ability, target: None } => write!(f, "{ability}"),
            Choice::Heal { artifact, target } => write!(f, "heal {target} with {artifact}"),
            Choice::Stamina { artifact, target } => write!(f, "give {target} Stamina with {artifact}"),
            Choice::Transaction => f.write_str("a financial transaction"),
            Choice::Add { purchase } => write!(f, "{purchase}"),
            Choice::Complete => f.write_str("pay and complete"),
            Choice::Charge { artifact } => write!(f, "charge {artifact}"),
            Choice::Discharge { artifact } => write!(f, "discharge {artifact}"),
            Choice::PlayBoost { boost } => write!(f, "play {boost}"),
            Choice::Attach { boost } => write!(f, "declare {boost}"),
            Choice::Block { artifact } => write!(f, "block with {artifact}"),
            Choice::CounterBoost { boost } => write!(f, "counter with {boost}"),
            Choice::CounterAbility { ability } => write!(f, "counter with {ability}"),
            Choice::Pass => f.write_str("pass"),
            Choice::Colour { colour } => f.write_str(colour.as_str()),
            Choice::Revive { give } => write!(f, "revive, giving {give} HP"),
            Choice::Discard { reinforcement } => write!(f, "discard {reinforcement}"),
            Choice::Text { text } => f.write_str(text),
        }
    }
}

/// A choice to make: who, about what, and the legal options (never empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// The deciding player.
    pub player: PlayerId,
    /// What it is about.
    pub kind: DecisionKind,
    /// A short question for people.
    pub prompt: String,
    /// The legal options; the answer is an index into this list.
    pub options: Vec<Choice>,
}

pub use super::view::View;

/// Something that answers Invictus decisions.
pub trait Controller {
    /// The index of the chosen option; out-of-range answers are an engine error.
    fn decide(&mut self, decision: &Decision, view: &View<'_>) -> usize;
}
