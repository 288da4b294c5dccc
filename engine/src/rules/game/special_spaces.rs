//! Special Space markers: placed at setup, set off when a Character enters their space (`001 § Special Spaces`).

use super::*;

/// How many Special Space markers a Prime Time table places (`001 §
/// Scenarios with Special Spaces`: "a total of 9 Special Spaces").
const PRIME_TIME_SPECIAL_SPACES: usize = 9;

impl<'a> Game<'a> {
    /// Special Spaces (`001 § Scenarios with Special Spaces`): the markers
    /// (Wildcards left out) are shuffled face down; the players take turns,
    /// clockwise from the Underdog (Prime Time), drawing one and placing it
    /// on a Free space outside every Deployment Zone and not Adjacent to
    /// another marker. At a Prime Time table "a total of 9 Special Spaces
    /// will be placed" whatever the Scenario's count (R72); with three
    /// players "each player will deploy their third marker unaware of its
    /// content, blindly", with four "Prime Time will draw the ninth marker
    /// and place it blindly": from placement `2 x players` on, the marker is
    /// placed blind, its Decision neither names it nor shows it in the View
    /// (the drawn marker joins the state only once placed).
    pub(super) fn place_special_spaces(&mut self) {
        let count = self.content.scenarios[&self.state.scenario].value.special_spaces as usize;
        if count == 0 {
            return;
        }
        let prime_time = self.table().prime_time();
        let count = if prime_time { PRIME_TIME_SPECIAL_SPACES } else { count };
        let blind_from = if prime_time { 2 * self.table().len() } else { usize::MAX };
        let mut stack: Vec<Id> = Vec::new();
        for e in self.content.special_spaces.values() {
            if !e.value.wildcard {
                stack.extend(std::iter::repeat_n(e.value.id, e.value.count as usize));
            }
        }
        shuffle(&mut stack, &mut self.state.rng);
        let deployment: BTreeSet<Hex> = self
            .board
            .zones
            .values()
            .filter(|(kind, _)| *kind == model::ZoneKind::Deployment)
            .flat_map(|(_, spaces)| spaces.iter().copied())
            .collect();
        let mut p = self.state.underdog;
        for k in 0..count {
            let Some(marker) = stack.pop() else { break };
            let r = self.board.radius as i32;
            let options: Vec<Choice> = (-r..=r)
                .flat_map(|q| (-r..=r).map(move |rr| Hex::new(q, rr)))
                .filter(|h| self.is_free(*h) && !deployment.contains(h))
                .filter(|h| !self.state.special_spaces.iter().any(|m| m.space == *h || m.space.is_adjacent(*h)))
                .map(|space| Choice::Space { space })
                .collect();
            if options.is_empty() {
                break;
            }
            let prompt = if k >= blind_from {
                "Place the Special Space marker you drew, blind (unseen), where?".to_string()
            } else {
                format!("Place the Special Space marker you drew ({marker}) where?")
            };
            if let Choice::Space { space } = self.decide(p, DecisionKind::SpecialSpace, None, prompt, options) {
                self.state.special_spaces.push(SpecialSpaceMarker { space, marker, revealed: false });
                self.emit(Event::SpecialSpacePlaced { player: p, space });
            }
            p = self.table().next_clockwise(p);
        }
    }

    /// A Character "advances, is Placed, or Displaced into a Space with a
    /// Special Space marker": the marker is flipped if face down, and its
    /// Effects apply, at once if red, if its player wants if green (`001 §
    /// Special Spaces`). Minions are not Characters.
    /// First, the Scenario's rules for a space or zone entered.
    pub(super) fn entered(&mut self, id: &str, from: Option<Hex>, space: Hex) {
        if self.is_minion(id) || self.is_projectile(id) {
            return;
        }
        let scenario = self.has_scenario_rules(model::ScenarioWindow::SpaceEntered)
            || self.has_scenario_rules(model::ScenarioWindow::ZoneEntered);
        let contact = self
            .state
            .units
            .iter()
            .any(|u| u.projectile.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space)));
        if !scenario && !contact && !self.state.special_spaces.iter().any(|m| m.space == space) {
            return;
        }
        if self.in_effect() {
            self.effect_frame.after_effect.push_back(AfterEffect::Entered(id.into(), from, space));
            return;
        }
        if scenario {
            self.scenario_entered(id, from, space);
            if self.space_of(id) != Some(space) || self.state.over {
                return;
            }
        }
        // A Running Projectile in Contact is flipped against the Character
        // (`001 § Running Projectiles`), the first found if several.
        let touching: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| u.projectile.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space)))
            .map(|u| u.id)
            .collect();
        for p in touching {
            // Each Running Projectile in Contact is flipped (R20), while the
            // Character is still there.
            if self.space_of(id) != Some(space) {
                return;
            }
            self.trigger_projectile(&p, id);
        }
        if self.space_of(id) != Some(space) {
            return;
        }
        let Some(i) = self.state.special_spaces.iter().position(|m| m.space == space) else { return };
        let marker = self.state.special_spaces[i].marker;
        if !self.state.special_spaces[i].revealed {
            self.state.special_spaces[i].revealed = true;
            self.emit(Event::SpecialSpaceRevealed { space, marker });
        }
        let Some(card) = self.content.special_spaces.get(&marker).map(|e| e.value.clone()) else { return };
        if self.effect_frame.markers_resolving.contains(&space) {
            // Its own Effect brought the Character back onto it: no second go (R18).
            return;
        }
        if card.optional && !self.optional(id, format!("Apply the Special Space: {}", card.effect.text.trim())) {
            self.emit(Event::Log { text: format!("{id} does not apply the Special Space") });
            return;
        }
        self.effect_frame.markers_resolving.push(space);
        self.run_effect(&format!("special_space:{marker}"), "effect", id, None, None, &card.effect.text);
        self.effect_frame.markers_resolving.retain(|m| *m != space);
    }
}
