//! Damage, the Infirmary and Frags (`000 § Damage`, `000 § Infirmary`, `000 § Frags`).

use super::*;

impl<'a> Game<'a> {
    /// Inflict Damage; at Hit Points the Character goes to the Infirmary at once
    /// and excess Damage is ignored (`000 § Damage`, `§ Infirmary`).
    pub(super) fn inflict(&mut self, id: &str, amount: u8, _source: Option<&str>) {
        if amount == 0 {
            return;
        }
        let Some(u) = self.unit(id) else { return };
        if !matches!(u.location, Location::Space(_)) {
            return;
        }
        let hp = self.card(id).hit_points;
        let u = self.unit_mut(id).expect("unit");
        let before = u.damage;
        u.damage = (u.damage + amount).min(hp);
        let total = u.damage;
        let minion = u.minion.is_some();
        let projectile = u.projectile.is_some();
        self.emit(Event::Damage { character: id.to_string(), amount: total - before, total });
        if projectile {
            // No Frag for destroying one (`001 § Running Projectiles`).
            if total >= hp {
                self.remove_projectile(id, "destroyed");
            }
            return;
        }
        if minion {
            // "removed from the HexaDome when they have suffered as much Damage as
            // their Hit Points" (`002 § Minion`): no Infirmary, no Frag.
            if total >= hp {
                self.remove_minion(id, "damage");
            }
            return;
        }
        if self.in_effect() {
            self.effect_frame.after_effect.push_back(AfterEffect::Damage(id.to_string()));
            return;
        }
        self.damage_received(id);
    }

    /// After Damage: the Tactics played when Damage is received (before the
    /// Infirmary), or when it is enough to go there, then the Infirmary at Hit
    /// Points (`000 § Damage`, `§ Infirmary`).
    pub(super) fn damage_received(&mut self, id: &str) {
        let Some(u) = self.unit(id) else { return };
        if !matches!(u.location, Location::Space(_)) {
            return;
        }
        let (total, owner) = (u.damage, u.owner);
        let hp = self.card(id).hit_points;
        // Tactics played when Damage is received (before the Infirmary), or when
        // it is enough to go there (`000 § Tactics`: the card's timing); the
        // Character's own Automatic Skills of those moments first.
        let mut windows = vec![model::Window::DamageSuffered];
        if total >= hp {
            windows.push(model::Window::SentToInfirmary);
        }
        for window in windows {
            self.automatic_skills(id, window, None, None);
            if !matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) {
                return;
            }
            let mut playable = self.playable_for(owner, window, id);
            playable.retain(|t| self.tactic_condition(t, id));
            if playable.is_empty() {
                continue;
            }
            let options =
                std::iter::once(Choice::Done).chain(playable.into_iter().map(|t| Choice::Play { tactic: t })).collect();
            if let Choice::Play { tactic } =
                self.decide(owner, DecisionKind::Tactic, Some(id), "Play a Tactic now?", options)
            {
                self.play_tactic(owner, &tactic, id, None);
            }
        }
        let total = self.unit(id).map_or(0, |u| u.damage);
        if total >= hp {
            self.send_to_infirmary(id);
        }
    }

    pub(super) fn send_to_infirmary(&mut self, id: &str) {
        let owner = {
            let u = self.unit_mut(id).expect("unit");
            u.location = Location::Infirmary;
            u.damage = 0;
            u.tokens.clear();
            // "remove all tokens (State tokens, Damage tokens, Markers...)"
            // (`000 § Infirmary`): its effects until the end of the Round end.
            u.until_end_of_round.clear();
            u.owner
        };
        self.emit(Event::Infirmary { character: id.to_string() });
        // "If the Controller is placed in the Infirmary, all their Minions must be
        // removed from the HexaDome immediately" (`002 § Controller`).
        for m in self.minions_of(id) {
            self.remove_minion(&m, "controller");
        }
        // Taunted tokens it provoked go (`000 § Taunted`).
        let mut removed = Vec::new();
        for u in self.state.units.iter_mut() {
            let before = u.tokens.len();
            u.tokens.retain(|t| !(t.state == "taunted" && t.source.as_deref() == Some(id)));
            if u.tokens.len() != before {
                removed.push(u.id.clone());
            }
        }
        for r in removed {
            self.emit(Event::StateRemoved { character: r, state: "taunted".into(), left: 0 });
        }
        let opponent = self.table().opponent(owner);
        self.state.players[opponent].frags += 1;
        self.count_frag(opponent);
        let total = self.state.players[opponent].frags;
        self.emit(Event::Frag { player: opponent, total });
        self.draw(opponent, 1);
        let at = scenario::RuleCtx { player: Some(opponent), ..scenario::RuleCtx::of(id, owner) };
        self.scenario_window(model::ScenarioWindow::SentToInfirmary, at);
    }
}
