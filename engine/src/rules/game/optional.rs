//! The optional rules of Prime Time, chosen per game (`001 § Additional
//! Rules`): each is an [`OptionalRule`] in [`GameSetup::optional_rules`],
//! recorded in replays, named on the command line with `--optional-rule` and
//! in a situation with `optional_rules = [...]` (docs/optional-rules.md).
//!
//! The rules' play is in the chapters they change: the Underdog in `setup`
//! and `scoring`, Remove States in `rounds` (the Preparation Step), No! in
//! hand in `setup`, the Running Order restriction in `rounds` (Planning), the
//! Draft in `draft`, the Advanced Tactics decks in `tactics` (docs/rulings.md
//! R70-R76).

use serde::{Deserialize, Serialize};

/// One optional rule of `001 § Additional Rules`, on or off for a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OptionalRule {
    /// `001 § Underdog`: the Underdog marker instead of Prime Time: to the
    /// lowest combined Initiatives after Team Creation (random on a tie); at
    /// the end of each Round to the least Victory Points (tie: the one
    /// without it, then the fewest Frags, then random).
    Underdog,
    /// `001 § Remove States`: at the start of a Character's Preparation
    /// Step its player may remove one State token for the -2 Energy State
    /// and one Tactic discarded (not with -2 Energy already, nor an empty
    /// hand).
    RemoveStates,
    /// `001 § No!`: each player's "No!" is taken out before the Tactics deck
    /// is shuffled and added to the hand after the Mulligan.
    NoInHand,
    /// `001 § Frags and States`: Poisoned and Burning tokens told apart by
    /// who imposed them, for the Frag. `001 § Frags` already requires it, so
    /// the engine always plays it; the toggle changes nothing (R73).
    FragsAndStates,
    /// `001 § Running Order (Additional Rule)` (3 Player Matches): nobody
    /// but Prime Time places both Initiative cards in the same position of
    /// both Running Orders.
    RunningOrderRestriction,
    /// `001 § Draft` (and at 2 players `000 § Setup`, Optional Rule: Draft):
    /// the teams are drafted: from a random player, passing to the left,
    /// each takes one Initiative card in turn until everyone has their
    /// Characters.
    Draft,
    /// `001 § Sterling Forge` (Advanced Tactics Decks): Standard Tactics 009,
    /// 011, 012, 013, 016 and 017 may add only their die to any other
    /// player's Roll.
    SterlingForge,
    /// `001 § TComm` (Advanced Tactics Decks): Standard Tactics 009, 011,
    /// 012, 013, 016 and 018 may add only their die to any other player's
    /// Roll.
    Tcomm,
    /// Hidden objectives (`001 § Objective Cards (Additional Rule)`, `001 §
    /// Claiming Objective Cards (Additional Rule)`): each player holds 2
    /// Objective cards face down (deal 3, keep 1, pass one left and one
    /// right, keep 1), claims them when met, draws after a claim, and may
    /// discard one at the end of the Round to draw a new one.
    HiddenObjectives,
}

impl OptionalRule {
    /// Every optional rule, in the order of `001 § Additional Rules`.
    pub const ALL: [OptionalRule; 9] = [
        OptionalRule::Underdog,
        OptionalRule::RemoveStates,
        OptionalRule::NoInHand,
        OptionalRule::FragsAndStates,
        OptionalRule::RunningOrderRestriction,
        OptionalRule::Draft,
        OptionalRule::SterlingForge,
        OptionalRule::Tcomm,
        OptionalRule::HiddenObjectives,
    ];

    /// Its kebab-case name (`--optional-rule underdog`, `optional_rules = ["underdog"]`).
    pub const fn name(self) -> &'static str {
        match self {
            OptionalRule::Underdog => "underdog",
            OptionalRule::RemoveStates => "remove-states",
            OptionalRule::NoInHand => "no-in-hand",
            OptionalRule::FragsAndStates => "frags-and-states",
            OptionalRule::RunningOrderRestriction => "running-order-restriction",
            OptionalRule::Draft => "draft",
            OptionalRule::SterlingForge => "sterling-forge",
            OptionalRule::Tcomm => "tcomm",
            OptionalRule::HiddenObjectives => "hidden-objectives",
        }
    }

    /// The section of 001 that gives it.
    pub const fn section(self) -> &'static str {
        match self {
            OptionalRule::Underdog => "001 § Underdog",
            OptionalRule::RemoveStates => "001 § Remove States",
            OptionalRule::NoInHand => "001 § No!",
            OptionalRule::FragsAndStates => "001 § Frags and States",
            OptionalRule::RunningOrderRestriction => "001 § Running Order (Additional Rule)",
            OptionalRule::Draft => "001 § Draft",
            OptionalRule::SterlingForge => "001 § Sterling Forge",
            OptionalRule::Tcomm => "001 § TComm",
            OptionalRule::HiddenObjectives => "001 § Objective Cards (Additional Rule)",
        }
    }

    /// The tables it is given for: every rule of `001 § Additional Rules` is
    /// a rule of Prime Time matches (3-4 players); the Running Order
    /// restriction is given for "3 player matches" only; the Draft is also
    /// 000's (`000 § Setup`, Optional Rule: Draft), so 2-4 players. (Hidden objectives
    /// pass cards "to the player to their left and ... to their right":
    /// docs/rulings.md R66.)
    pub const fn seats(self) -> std::ops::RangeInclusive<usize> {
        match self {
            OptionalRule::RunningOrderRestriction => 3..=3,
            // `000 § Setup`, Optional Rule: Draft, and `001 § Draft`.
            OptionalRule::Draft => 2..=4,
            _ => 3..=4,
        }
    }

    /// Why this rule cannot be played at a table of `seats`, if it cannot.
    pub fn refuse(self, seats: usize) -> Option<String> {
        let allowed = self.seats();
        if allowed.contains(&seats) {
            return None;
        }
        let tables = if allowed.start() == allowed.end() {
            format!("{}-player", allowed.start())
        } else {
            format!("{}-{} player (Prime Time)", allowed.start(), allowed.end())
        };
        Some(format!(
            "optional rule `{}` ({}) is for {tables} tables, not for {seats} players",
            self.name(),
            self.section()
        ))
    }

    /// Why a table of `seats` cannot play `rules`, if it cannot: the first
    /// rule not given for such a table, or both Advanced Tactics decks at
    /// once (the engine plays one deck for every player: R76).
    pub fn refuse_any(rules: &std::collections::BTreeSet<OptionalRule>, seats: usize) -> Option<String> {
        if rules.contains(&OptionalRule::SterlingForge) && rules.contains(&OptionalRule::Tcomm) {
            return Some(
                "optional rules `sterling-forge` and `tcomm` are two Advanced Tactics decks (001 § Advanced Tactics Decks): choose one"
                    .to_string(),
            );
        }
        rules.iter().find_map(|r| r.refuse(seats))
    }
}

impl std::fmt::Display for OptionalRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for OptionalRule {
    type Err = String;
    /// A rule by its kebab-case name; the error lists every name.
    fn from_str(s: &str) -> Result<OptionalRule, String> {
        OptionalRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            let names: Vec<&str> = OptionalRule::ALL.iter().map(|r| r.name()).collect();
            format!("`{s}` is not an optional rule; the rules are: {}", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_through_serde_and_from_str() {
        for r in OptionalRule::ALL {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.name()));
            assert_eq!(serde_json::from_str::<OptionalRule>(&json).unwrap(), r);
            assert_eq!(r.name().parse::<OptionalRule>().unwrap(), r);
            assert!(r.section().starts_with("001 § "));
        }
        assert!("nope".parse::<OptionalRule>().unwrap_err().contains("underdog, remove-states"));
    }

    #[test]
    fn prime_time_rules_refuse_a_two_player_table() {
        assert!(OptionalRule::Underdog.refuse(2).unwrap().contains("3-4 player"));
        assert!(OptionalRule::Underdog.refuse(4).is_none());
        assert!(OptionalRule::RunningOrderRestriction.refuse(4).unwrap().contains("3-player"));
        assert!(OptionalRule::RunningOrderRestriction.refuse(3).is_none());
    }
}
