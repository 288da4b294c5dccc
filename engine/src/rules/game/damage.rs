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
        if self.table().prime_time() {
            let by = self.damage_by(id, _source);
            self.last_hit.insert(id.into(), by);
        }
        if self.state.objectives.is_some() {
            match self.damage_cause(_source) {
                Some(cause) => self.last_cause.insert(id.into(), cause),
                None => self.last_cause.remove(id),
            };
        }
        let u = self.unit_mut(id).expect("unit");
        let before = u.damage;
        // Saturating: Damage beyond the Hit Points is ignored, and never wraps
        // round to a small total (which would heal the Character).
        u.damage = u.damage.saturating_add(amount).min(hp);
        let total = u.damage;
        let minion = u.minion.is_some();
        let projectile = u.projectile.is_some();
        self.emit(Event::Damage { character: id.into(), amount: total - before, total });
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
            self.effect_frame.after_effect.push_back(AfterEffect::Damage(id.into()));
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
            if self.table().prime_time() {
                self.send_to_bench(id);
            } else {
                self.send_to_infirmary(id);
            }
        }
    }

    /// Prime Time: who inflicts Damage on `id` now (`001 § Frags`): the
    /// player of the Character whose Combat Roll it is (`source`), of a
    /// Poisoned or Burning token's imposer in a States Step, of the Character
    /// whose Action, Automatic Skill or Tactic's effect runs; else nobody.
    fn damage_by(&self, id: &str, source: Option<&str>) -> FragBy {
        let owner_of = |c: &str| self.unit(c).map(|u| u.owner);
        let Some(owner) = owner_of(id) else { return FragBy::Nobody };
        let by = if let Some(s) = source {
            owner_of(s)
        } else if let Some(credit) = &self.state_credit {
            return credit.clone();
        } else {
            self.effect_frame.effect_source.as_deref().and_then(owner_of).or(self.effect_frame.effect_player)
        };
        match by {
            Some(p) if p != owner => FragBy::Player(p),
            _ => FragBy::Nobody,
        }
    }

    /// Prime Time: the Frag's player for tokens of Poisoned and Burning on
    /// `id` (`001 § Frags and States`): the team that imposed more of them;
    /// Prime Time decides on a tie, or when the Character imposed them itself
    /// (or its Ally did: no Enemy inflicted them).
    pub(super) fn state_frag_credit(&self, id: &str) -> FragBy {
        let Some(owner) = self.unit(id).map(|u| u.owner) else { return FragBy::Nobody };
        let Some(u) = self.unit(id) else { return FragBy::Nobody };
        let mut by: Seated<u32> = Seated::splat(self.table(), 0);
        let mut own = 0;
        for t in u.tokens.iter().filter(|t| t.state == "poisoned" || t.state == "burning") {
            match t.source.as_deref().and_then(|s| self.unit(s)).map(|s| s.owner) {
                Some(p) if p != owner => by[p] += 1,
                _ => own += 1,
            }
        }
        let most = by.iter().copied().max().unwrap_or(0);
        if most == 0 {
            let others: Vec<PlayerId> = self.table().opponents(owner).collect();
            return if own > 0 { FragBy::PrimeTimeAmong(others) } else { FragBy::Nobody };
        }
        let tied: Vec<PlayerId> = by.enumerate().filter(|(_, n)| **n == most).map(|(p, _)| p).collect();
        if tied.len() == 1 { FragBy::Player(tied[0]) } else { FragBy::PrimeTimeAmong(tied) }
    }

    /// Prime Time: at Hit Points a Character goes straight to the Bench, its
    /// tokens removed and the -2 Energy State imposed (`001 § Bench`; "The
    /// Infirmary is not used", `001 § Infirmary`); the Frag goes to the
    /// player who inflicted the Damage (`001 § Frags`), and every player whose
    /// Enemy it is draws a Tactic (`001 § Tactics`; docs/rulings.md R47).
    pub(super) fn send_to_bench(&mut self, id: &str) {
        let owner = {
            let u = self.unit_mut(id).expect("unit");
            u.location = Location::Bench;
            u.damage = 0;
            u.tokens.clear();
            u.until_end_of_round.clear();
            u.owner
        };
        self.emit(Event::Benched { character: id.into() });
        if self.content.states.contains_key("minus-2-energy") {
            let _ = self.impose(id, "minus-2-energy", None);
        }
        self.left_the_hexadome(id);
        let by = self.last_hit.remove(id).unwrap_or(FragBy::Nobody);
        let credited = match by {
            FragBy::Player(p) => Some(p),
            FragBy::Nobody => None,
            FragBy::PrimeTimeAmong(among) => {
                let options: Vec<Choice> = among.iter().map(|p| Choice::Text { text: p.to_string() }).collect();
                let pt = self.state.underdog;
                let prompt = format!("{}: who earns the Frag?", self.marker_name());
                let pick = self.decide(pt, DecisionKind::Choose, Some(id), prompt, options.clone());
                options.iter().position(|o| *o == pick).map(|i| among[i])
            }
        };
        match credited {
            Some(p) => {
                self.state.players[p].frags = self.state.players[p].frags.saturating_add(1);
                self.count_frag(p);
                let total = self.state.players[p].frags;
                self.emit(Event::Frag { player: p, total });
            }
            None => {
                self.emit(Event::Log { text: format!("no player inflicted the Damage that benched {id}: no Frag") })
            }
        }
        for p in self.table().order_from(self.state.underdog) {
            if p != owner {
                self.draw(p, 1);
            }
        }
        self.objectives_sent_to_bench(id, owner, credited);
        let at = scenario::RuleCtx { player: credited, ..scenario::RuleCtx::of(id, owner) };
        self.scenario_window(model::ScenarioWindow::SentToBench, at);
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
        self.emit(Event::Infirmary { character: id.into() });
        self.left_the_hexadome(id);
        let opponent = self.table().opponent(owner);
        self.state.players[opponent].frags = self.state.players[opponent].frags.saturating_add(1);
        self.count_frag(opponent);
        let total = self.state.players[opponent].frags;
        self.emit(Event::Frag { player: opponent, total });
        self.draw(opponent, 1);
        self.objectives_sent_to_bench(id, owner, Some(opponent));
        let at = scenario::RuleCtx { player: Some(opponent), ..scenario::RuleCtx::of(id, owner) };
        self.scenario_window(model::ScenarioWindow::SentToInfirmary, at);
    }

    /// What goes with a Character leaving the HexaDome (Infirmary or Bench):
    /// its Minions are removed ("If the Controller is placed in the Infirmary,
    /// all their Minions must be removed from the HexaDome immediately", `002 §
    /// Controller`) and the Taunted tokens it provoked go (`000 § Taunted`).
    fn left_the_hexadome(&mut self, id: &str) {
        for m in self.minions_of(id) {
            self.remove_minion(&m, "controller");
        }
        let mut removed = Vec::new();
        for u in self.state.units.iter_mut() {
            let before = u.tokens.len();
            u.tokens.retain(|t| !(t.state == "taunted" && t.source.as_deref() == Some(id)));
            if u.tokens.len() != before {
                removed.push(u.id);
            }
        }
        for r in removed {
            self.emit(Event::StateRemoved { character: r, state: "taunted".into(), left: 0 });
        }
    }
}
