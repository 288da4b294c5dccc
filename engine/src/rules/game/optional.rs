//! Optional rules chosen per game (`001 § Additional Rules`): a set on
//! [`super::GameSetup`], recorded in replays, given to `arena sim` as
//! `--optional-rule NAME` and to a situation as `optional_rules = [...]`.

use serde::{Deserialize, Serialize};

/// One optional rule of 001's Additional Rules. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OptionalRule {
    /// Hidden objectives (`001 § Objective Cards (Additional Rule)`, `001 §
    /// Claiming Objective Cards (Additional Rule)`): each player holds 2
    /// Objective cards face down (deal 3, keep 1, pass one left and one
    /// right, keep 1), claims them when met, draws after a claim, and may
    /// discard one at the end of the Round to draw a new one.
    HiddenObjectives,
}

impl OptionalRule {
    /// Every optional rule, in order.
    pub const ALL: [OptionalRule; 1] = [OptionalRule::HiddenObjectives];

    /// The kebab-case name (`hidden-objectives`).
    pub fn name(self) -> &'static str {
        match self {
            OptionalRule::HiddenObjectives => "hidden-objectives",
        }
    }

    /// The 001 section that gives the rule.
    pub fn section(self) -> &'static str {
        match self {
            OptionalRule::HiddenObjectives => "001 § Objective Cards (Additional Rule)",
        }
    }

    /// Whether 001 gives the rule only for Prime Time tables (3-4 players):
    /// at a 2-seat table it is a usage error.
    pub fn prime_time_only(self) -> bool {
        match self {
            // "each player hands over one of the remaining cards to the
            // player to their left and the other to the player to their
            // right": a rule of 3-4 players (docs/rulings.md R66).
            OptionalRule::HiddenObjectives => true,
        }
    }
}

impl std::fmt::Display for OptionalRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for OptionalRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OptionalRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            let names: Vec<&str> = OptionalRule::ALL.iter().map(|r| r.name()).collect();
            format!("no optional rule `{s}`; the optional rules are: {}", names.join(", "))
        })
    }
}
