//! Restricted play (Jaffe, Miller, Andersen, Liu, Karlin and Popović,
//! "Evaluating Competitive Game Balance with Restricted Play", AIIDE 2012):
//! a player who may not use a card, an Action, a Switch or a whole class of
//! them. The value of the feature is then the change in win rate, measured
//! by playing the same seeds and teams with and without the restriction
//! (`arena sim --restrict`, docs/balance-runs.md § Restricted play).
//!
//! A restriction takes the forbidden options out of the player's Decisions
//! before the player sees them ([`Game::decide`]): it is as if the card or
//! Action were not there for that player. A Decision whose every option is
//! forbidden keeps them all (a rule cannot forbid a Decision away); an
//! Actions Step always keeps Done.

use super::*;
use crate::model::Id;

/// What a restricted player may not do.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Forbid {
    /// Play this Tactic (`no-tactic:ID`).
    Tactic(Id),
    /// Play any Tactic (`no-tactics`).
    Tactics,
    /// Perform this Action, a Minion's included (`no-action:ID`; `move` is
    /// the Move Action, `contender` the Contender Attack).
    Action(Id),
    /// Perform any Attack (`no-attacks`, `000 § Attacks`): the card's
    /// Attacks and the Contender Attack.
    Attacks,
    /// Activate this Switch (`no-switch:ID`).
    Switch(Id),
    /// Activate any Switch (`no-switches`, `000 § Switches`).
    Switches,
}

/// A restriction: what is forbidden, to one seat or to every seat, for
/// one Character or for all. It serializes as it is written
/// (`2:no-tactic:take-aim`, `no-switch:displace-yourself@gata`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Restriction {
    /// The restricted seat; `None`: every seat.
    pub seat: Option<PlayerId>,
    /// What it may not do.
    pub forbid: Forbid,
    /// Only in the Decisions about this Character (`@ID`: its Actions, its
    /// Rolls' Switches, the Tactics played for it); `None`: in every one.
    pub of: Option<Id>,
}

impl std::str::FromStr for Restriction {
    type Err = String;

    /// `[SEAT:]RULE`: SEAT a player number from 1 (absent: every seat),
    /// RULE one of `no-tactic:ID`, `no-tactics`, `no-action:ID`,
    /// `no-attacks`, `no-switch:ID`, `no-switches`.
    fn from_str(s: &str) -> Result<Self> {
        let (s, of) = match s.rsplit_once('@') {
            Some((_, "")) => return Err(format!("`{s}`: `@` names no Character")),
            Some((rule, id)) => (rule, Some(Id::from(id))),
            None => (s, None),
        };
        let (seat, rule) = match s.split_once(':') {
            Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                let n: usize = n.parse().map_err(|_| format!("`{n}`: a player number from 1 to 4"))?;
                if !(1..=4).contains(&n) {
                    return Err(format!("`{n}`: a player number from 1 to 4"));
                }
                (Some(PlayerId::seat(n - 1)), rest)
            }
            _ => (None, s),
        };
        let id = |id: &str| -> Result<Id> {
            if id.is_empty() { Err(format!("`{rule}` names no id")) } else { Ok(Id::from(id)) }
        };
        let forbid = match rule.split_once(':') {
            None if rule == "no-tactics" => Forbid::Tactics,
            None if rule == "no-attacks" => Forbid::Attacks,
            None if rule == "no-switches" => Forbid::Switches,
            Some(("no-tactic", t)) => Forbid::Tactic(id(t)?),
            Some(("no-action", a)) => Forbid::Action(id(a)?),
            Some(("no-switch", w)) => Forbid::Switch(id(w)?),
            _ => {
                return Err(format!(
                    "`{rule}`: no-tactic:ID, no-tactics, no-action:ID, no-attacks, no-switch:ID or no-switches, after an optional player number (`2:no-tactics`)"
                ));
            }
        };
        Ok(Restriction { seat, forbid, of })
    }
}

impl std::fmt::Display for Restriction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = self.seat {
            write!(f, "{}:", p.index() + 1)?;
        }
        match &self.forbid {
            Forbid::Tactic(id) => write!(f, "no-tactic:{id}"),
            Forbid::Tactics => write!(f, "no-tactics"),
            Forbid::Action(id) => write!(f, "no-action:{id}"),
            Forbid::Attacks => write!(f, "no-attacks"),
            Forbid::Switch(id) => write!(f, "no-switch:{id}"),
            Forbid::Switches => write!(f, "no-switches"),
        }?;
        match &self.of {
            Some(id) => write!(f, "@{id}"),
            None => Ok(()),
        }
    }
}

impl serde::Serialize for Restriction {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl Restriction {
    /// Whether the id it names is in `content` (a Tactic, an Action or a
    /// Switch of some Character, Minion or Scenario); the reason if not.
    ///
    /// # Errors
    /// The id names nothing loaded.
    pub fn check(&self, content: &Content) -> std::result::Result<(), String> {
        if let Some(id) = &self.of {
            if !content.characters.contains_key(id.as_str()) {
                return Err(format!("no Character `{id}` is loaded"));
            }
        }
        let actions = || {
            content
                .characters
                .values()
                .flat_map(|c| c.value.actions.iter())
                .chain(content.scenarios.values().flat_map(|s| s.value.actions.iter()))
        };
        match &self.forbid {
            Forbid::Tactic(id) if !content.tactics.contains_key(id.as_str()) => {
                Err(format!("no Tactic `{id}` is loaded"))
            }
            Forbid::Action(id) if id != "move" && *id != contender().id && !actions().any(|a| a.id == *id) => {
                Err(format!("no Character has an Action `{id}`"))
            }
            Forbid::Switch(id)
                if !content.characters.values().any(|c| {
                    c.value
                        .switches
                        .iter()
                        .chain(c.value.actions.iter().flat_map(|a| a.switches.iter()))
                        .any(|s| s.id == *id)
                }) =>
            {
                Err(format!("no Character has a Switch `{id}`"))
            }
            _ => Ok(()),
        }
    }
}

impl Game<'_> {
    /// `options` without those the restrictions forbid `player`
    /// ([`Restriction`]); all of them when every one is forbidden.
    /// `character` is the one the Decision is about (the actor of an Action).
    pub(super) fn restricted(&self, player: PlayerId, character: Option<&str>, options: Vec<Choice>) -> Vec<Choice> {
        let rules: Vec<&Forbid> = self
            .state
            .restrictions
            .iter()
            .filter(|r| r.seat.is_none_or(|s| s == player))
            .filter(|r| r.of.as_ref().is_none_or(|of| character.is_some_and(|c| c == of.as_str())))
            .map(|r| &r.forbid)
            .collect();
        if rules.is_empty() {
            return options;
        }
        let attack = |actor: Option<&str>, action: &Id| {
            *action == contender().id
                || actor.is_some_and(|a| self.card(a).actions.iter().any(|x| x.id == *action && x.attack))
        };
        let forbidden = |o: &Choice| {
            rules.iter().any(|f| match (f, o) {
                (Forbid::Tactic(id), Choice::Play { tactic }) => tactic == id,
                (Forbid::Tactics, Choice::Play { .. }) => true,
                (Forbid::Action(id), Choice::Perform { action, .. } | Choice::MinionAction { action, .. }) => {
                    action == id
                }
                (Forbid::Attacks, Choice::Perform { action, .. }) => attack(character, action),
                (Forbid::Attacks, Choice::MinionAction { minion, action, .. }) => attack(Some(minion), action),
                (Forbid::Switch(id), Choice::Activate { switch }) => switch == id,
                (Forbid::Switches, Choice::Activate { .. }) => true,
                _ => false,
            })
        };
        if options.iter().all(forbidden) {
            return options;
        }
        options.into_iter().filter(|o| !forbidden(o)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_restriction_reads_as_it_is_written_and_back() {
        for text in [
            "no-tactics",
            "2:no-tactic:take-aim",
            "no-action:medikit",
            "1:no-attacks",
            "no-switch:taunt",
            "4:no-switches",
            "no-switch:displace-yourself@gata",
            "2:no-tactics@laxmee",
        ] {
            let r: Restriction = text.parse().unwrap();
            assert_eq!(r.to_string(), text);
        }
        let r: Restriction = "2:no-tactic:take-aim".parse().unwrap();
        assert_eq!(
            r,
            Restriction { seat: Some(PlayerId::seat(1)), forbid: Forbid::Tactic("take-aim".into()), of: None }
        );
        assert_eq!("no-switches@gata".parse::<Restriction>().unwrap().of, Some(Id::from("gata")));
        assert_eq!("no-attacks".parse::<Restriction>().unwrap().seat, None);
    }

    #[test]
    fn a_restriction_that_is_not_one_says_what_is() {
        for (text, says) in [
            ("no-tactic", "no-tactic:ID"),
            ("no-tactic:", "names no id"),
            ("5:no-tactics", "a player number from 1 to 4"),
            ("0:no-tactics", "a player number from 1 to 4"),
            ("no-dice", "no-tactic:ID, no-tactics"),
            ("1:", "no-tactic:ID, no-tactics"),
            ("no-switches@", "names no Character"),
        ] {
            let e = text.parse::<Restriction>().unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
