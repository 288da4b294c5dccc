//! Units in play: lookups of a Character or Minion, its card, its attributes and States as modified (`000 § Characters`, `002 § Minion`).

use super::*;

impl<'a> Game<'a> {
    /// The unit `id`. An `id` read from an interned [`crate::model::Id`]
    /// (nearly every call) is found by its address, without comparing text;
    /// any other text by comparing it.
    pub(in crate::rules) fn unit(&self, id: &str) -> Option<&Unit> {
        let units = &self.state.units;
        match units.iter().position(|u| same_text(&u.id, id)) {
            Some(i) => Some(&units[i]),
            None => units.iter().find(|u| u.id == id),
        }
    }

    pub(in crate::rules) fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        let i = self
            .state
            .units
            .iter()
            .position(|u| same_text(&u.id, id))
            .or_else(|| self.state.units.iter().position(|u| u.id == id))?;
        Some(&mut self.state.units[i])
    }

    /// The card of a Character or Minion in the game.
    pub(in crate::rules) fn card(&self, id: &str) -> Card<'a> {
        let unit = self.unit(id);
        if unit.is_some_and(|u| u.projectile.is_some()) {
            return Card::Minion(self.projectile_card.clone());
        }
        match unit.and_then(|u| u.minion.as_ref()) {
            Some(m) => Card::Minion(self.minion_cards[m.slot].clone()),
            None => Card::Character(&self.content.characters[id].value),
        }
    }

    /// Whether a unit is a Running Projectile (an Obstacle, not a Character).
    pub(super) fn is_projectile(&self, id: &str) -> bool {
        self.unit(id).is_some_and(|u| u.projectile.is_some())
    }

    /// Whose choice an effect's question is: the player of the Character whose
    /// effect runs (a Defender's Switch, an opponent's Tactic), else the active
    /// player's.
    pub(super) fn effect_player(&self) -> PlayerId {
        if let Some(p) = self.effect_frame.effect_player {
            // A Scenario rule's effect: its `ctx.player`.
            return p;
        }
        self.effect_frame
            .effect_source
            .as_deref()
            .or(self.state.active.as_deref())
            .and_then(|a| self.unit(a))
            .map_or(PlayerId::seat(0), |u| u.owner)
    }

    /// Whether a named effect "until the end of this Activation" is on a unit.
    pub(super) fn has_activation_effect(&self, id: &str, name: &str) -> bool {
        self.unit(id).is_some_and(|u| u.until_end_of_activation.iter().any(|n| n == name))
    }

    /// Whether a named effect "until the end of the Round" is on a unit.
    pub(super) fn has_round_effect(&self, id: &str, name: &str) -> bool {
        self.unit(id).is_some_and(|u| u.until_end_of_round.iter().any(|n| n == name))
    }

    /// Terminate Effects, the Recovery Phase's first step: "All Effects that
    /// last 'until the end of the Round' end at this point" (`000 § Recovery
    /// Phase`), their Markers taken off every Character card.
    pub(super) fn terminate_round_effects(&mut self) {
        let mut ended = Vec::new();
        for u in self.state.units.iter_mut() {
            for name in std::mem::take(&mut u.until_end_of_round) {
                ended.push((u.id, name));
            }
        }
        for (id, name) in ended {
            self.emit(Event::Log { text: format!("{id}'s {name} ends (until the end of the Round)") });
        }
    }

    /// Whether a unit is a Minion (`002 § Minion`: "they are not Characters").
    pub(in crate::rules) fn is_minion(&self, id: &str) -> bool {
        self.unit(id).is_some_and(|u| u.minion.is_some())
    }

    /// Who pays and decides for a unit's Actions: the Character itself, or a
    /// Minion's Controller (`002 § Controller`).
    pub(super) fn acting_character<'s>(&'s self, id: &'s str) -> &'s str {
        match self.unit(id).and_then(|u| u.minion.as_ref()) {
            Some(m) => &m.controller,
            None => id,
        }
    }

    /// The deployed Minions of a Controller.
    pub(super) fn minions_of(&self, controller: &str) -> Vec<Id> {
        self.state
            .units
            .iter()
            .filter(|u| {
                u.minion.as_ref().is_some_and(|m| m.controller == controller)
                    && matches!(u.location, Location::Space(_))
            })
            .map(|u| u.id)
            .collect()
    }

    /// Where an effect of a unit's card lives: a Character's on its card, a
    /// Minion's on its Controller's card under `minions[id=...]`.
    pub(super) fn effect_home(&self, id: &str, path: &str) -> (String, String) {
        let (mut home, mut full) = (String::new(), String::new());
        self.effect_home_into(id, path, &mut home, &mut full);
        (home, full)
    }

    /// [`Game::effect_home`] written into `home` and `full` (emptied first),
    /// for a lookup that keeps no copy.
    pub(super) fn effect_home_into(&self, id: &str, path: &str, home: &mut String, full: &mut String) {
        use std::fmt::Write;
        home.clear();
        full.clear();
        // An Action the Scenario gives every Character (Crow Accumulator's
        // capsules) lives on the Scenario, unless the card has its own.
        if let Some((action, _)) = path.strip_prefix("actions[id=").and_then(|r| r.split_once(']')) {
            if !self.card(id).actions.iter().any(|a| a.id == action)
                && self.scenario().actions.iter().any(|a| a.id == action)
            {
                let _ = write!(home, "scenario:{}", self.state.scenario);
                full.push_str(path);
                return;
            }
        }
        match self.unit(id).and_then(|u| u.minion.as_ref()) {
            Some(m) => {
                let _ = write!(home, "character:{}", m.controller);
                let _ = write!(full, "minions[id={}].{path}", m.card);
            }
            None => {
                let _ = write!(home, "character:{id}");
                full.push_str(path);
            }
        }
    }

    /// The script of the effect at `path` of `id`'s card ([`Game::effect_home`]),
    /// if it has one: found through buffers kept for it, so the lookup
    /// allocates nothing (Action conditions are asked for every option of
    /// every Actions Step, and most have none).
    pub(super) fn find_card_effect(&self, id: &str, path: std::fmt::Arguments<'_>) -> Option<ScriptId> {
        LOOKUP.with_borrow_mut(|[asked, home, full]| {
            use std::fmt::Write;
            asked.clear();
            let _ = asked.write_fmt(path);
            self.effect_home_into(id, asked, home, full);
            self.runtime.scripts().find(home, full)
        })
    }

    /// The script of a Tactic's effect `effect` (`tactic:<id>`), found as
    /// [`Game::find_card_effect`] does.
    pub(super) fn find_tactic_effect(&self, tactic: &str, effect: &str) -> Option<ScriptId> {
        LOOKUP.with_borrow_mut(|[_, home, _]| {
            home.clear();
            home.push_str("tactic:");
            home.push_str(tactic);
            self.runtime.scripts().find(home, effect)
        })
    }

    pub(super) fn has_state(&self, id: &str, state: &str) -> bool {
        self.unit(id).is_some_and(|u| u.tokens.iter().any(|t| t.state == state))
    }

    /// An attribute with the States' modifiers applied, never below 0 (`000 § Attributes`).
    pub(super) fn attribute(&self, id: &str, base: u8, pick: fn(&model::Modifiers) -> i8) -> u8 {
        let mut v = base as i32;
        if let Some(u) = self.unit(id) {
            for t in &u.tokens {
                if let Some(m) = self.content.states.get(&t.state).and_then(|s| s.value.modifiers.as_ref()) {
                    v += pick(m) as i32;
                }
            }
        }
        v.max(0) as u8
    }

    pub(super) fn initiative(&self, id: &str) -> u8 {
        self.attribute(id, self.card(id).initiative, |m| m.initiative)
    }
}

thread_local! {
    /// The buffers of [`Game::find_card_effect`]: the path asked, the card, the path on it.
    static LOOKUP: std::cell::RefCell<[String; 3]> = const { std::cell::RefCell::new([String::new(), String::new(), String::new()]) };
}

/// Whether `text` is the very text of `id` (same address and length): the
/// cheap test that an id's own `&str` passes.
#[inline]
fn same_text(id: &crate::model::Id, text: &str) -> bool {
    std::ptr::eq(id.as_str(), text)
}
