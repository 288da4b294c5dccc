//! `003 § During Your Turn`: the actions a player may take in any order, the
//! Charge Station, healing, Boosts played in a turn, Anytime Boosts before a
//! declaration, and `003 § Completing Your Turn`.

use super::*;
use crate::model::{AbilityTiming, ArtifactUse, BoostTiming, EnergyType};

impl<'a, 'c> Game<'a, 'c> {
    /// One whole turn of the active player.
    /// Play the active player's turn (`003 § During Your Turn`), to its completion.
    pub fn play_turn(&mut self) {
        let p = self.state.active;
        self.state.turn += 1;
        self.state.charged_this_turn = false;
        self.state.discharged_this_turn = false;
        self.state.turn_over = false;
        self.emit(Event::TurnBegan { turn: self.state.turn, god: self.name(p) });
        loop {
            if self.state.outcome.is_some() || self.state.turn_over {
                return;
            }
            self.anytime_window(p);
            if self.state.outcome.is_some() || self.state.turn_over {
                return;
            }
            let options = self.actions(p);
            let choice = self.ask(p, DecisionKind::Action, "what do you do?", options);
            if choice == Choice::EndTurn {
                self.complete_turn(p);
                return;
            }
            self.perform(p, choice);
        }
    }

    /// The legal actions of `p` now, ending the turn last.
    pub fn actions(&self, p: PlayerId) -> Vec<Choice> {
        let mut out = Vec::new();
        let me = self.state.player(p);
        let mut seen: Vec<&str> = Vec::new();
        let mut allies = vec![p];
        allies.extend(self.state.allies(p));
        let chargeable = self.god(p).chargeable_types();
        for c in &me.hand {
            let Card::Artifact(id) = c else { continue };
            if seen.contains(&id.as_str()) {
                continue;
            }
            seen.push(id);
            let Some(a) = self.artifact(id) else { continue };
            match a.use_ {
                ArtifactUse::StandardAttack if me.stamina >= a.stamina_cost.unwrap_or(0) as i32 => {
                    for e in self.state.enemies(p) {
                        if !self.state.in_range(p, e) {
                            continue;
                        }
                        let target = self.name(e);
                        out.push(Choice::StandardAttack {
                            artifact: *id,
                            target: target.as_str().into(),
                            reinforcement: None,
                        });
                        for r in &self.state.player(e).reinforcements {
                            let reinforcement = Some(r.id);
                            out.push(Choice::StandardAttack {
                                artifact: *id,
                                target: target.as_str().into(),
                                reinforcement,
                            });
                        }
                    }
                }
                ArtifactUse::Healing => {
                    for q in &allies {
                        let qp = self.state.player(*q);
                        if qp.health < qp.max_health {
                            out.push(Choice::Heal { artifact: *id, target: self.name(*q) });
                        }
                    }
                }
                ArtifactUse::Stamina => {
                    for q in &allies {
                        if self.state.player(*q).stamina < self.market.max_stamina as i32 {
                            out.push(Choice::Stamina { artifact: *id, target: self.name(*q) });
                        }
                    }
                }
                _ => {}
            }
            if !self.state.charged_this_turn && a.energy.unwrap_or(0) > 0 && chargeable.contains(&a.energy_type) {
                out.push(Choice::Charge { artifact: *id });
            }
        }
        if !self.state.discharged_this_turn {
            let mut seen: Vec<&str> = Vec::new();
            for c in &me.charged {
                if !seen.contains(&c.id()) {
                    seen.push(c.id());
                    out.push(Choice::Discharge { artifact: c.id().into() });
                }
            }
        }
        for ab in &self.god(p).abilities {
            if ab.timing != AbilityTiming::OwnTurn || me.stamina < ab.stamina_cost as i32 {
                continue;
            }
            if self.energy_payment(p, &ab.energy, true).is_none() {
                continue;
            }
            for target in self.ability_targets(p, ab) {
                out.push(Choice::Ability { ability: ab.id, target });
            }
        }
        for purchase in self.affordable(p, &[]) {
            out.push(Choice::Add { purchase });
        }
        let mut seen: Vec<&str> = Vec::new();
        for b in &me.boosts {
            let Some(boost) = self.boost(&b.card.id) else { continue };
            let playable = match boost.timing {
                BoostTiming::Anytime => true,
                BoostTiming::FutureTurn => !boost.attack && b.obtained_turn < self.state.turn,
                _ => false,
            };
            if playable && (!boost.team || self.state.team_game) && !seen.contains(&boost.id.as_str()) {
                seen.push(&boost.id);
                out.push(Choice::PlayBoost { boost: boost.id });
            }
        }
        out.push(Choice::EndTurn);
        out
    }

    /// Whom an ability may be performed on: `[None]` for none.
    pub(crate) fn ability_targets(&self, p: PlayerId, ab: &crate::model::Ability) -> Vec<Option<Id>> {
        use crate::model::AbilityTarget;
        match ab.target {
            None => vec![None],
            Some(AbilityTarget::Enemy) => self
                .state
                .enemies(p)
                .into_iter()
                .filter(|e| !ab.range || self.state.in_range(p, *e))
                .map(|e| Some(self.name(e)))
                .collect(),
            Some(AbilityTarget::Ally) => {
                let mut v = vec![Some(self.name(p))];
                v.extend(self.state.allies(p).into_iter().map(|a| Some(self.name(a))));
                v
            }
        }
    }

    /// Perform one chosen action.
    pub(crate) fn perform(&mut self, p: PlayerId, choice: Choice) {
        match choice {
            Choice::StandardAttack { artifact, target, reinforcement } => {
                let Some(t) = self.state.seat_of(&target) else { return };
                self.standard_attack(p, &artifact, t, reinforcement);
            }
            Choice::Ability { ability, target } => {
                let t = target.and_then(|t| self.state.seat_of(&t));
                self.perform_ability(p, &ability, t);
            }
            Choice::Heal { artifact, target } => {
                let Some(t) = self.state.seat_of(&target) else { return };
                self.play_from_hand(p, &artifact);
                let amount = self.artifact(&artifact).and_then(|a| a.healing).unwrap_or(0) as i32;
                self.heal(t, amount);
            }
            Choice::Stamina { artifact, target } => {
                let Some(t) = self.state.seat_of(&target) else { return };
                self.play_from_hand(p, &artifact);
                let amount = self.artifact(&artifact).and_then(|a| a.stamina_gain).unwrap_or(0) as i32;
                self.gain_stamina(t, amount);
            }
            Choice::Charge { artifact } => {
                if let Some(c) = self.remove_from_hand(p, &artifact) {
                    self.state.player_mut(p).charged.push(c);
                    self.state.charged_this_turn = true;
                    self.emit(Event::Charged { god: self.name(p), artifact });
                }
            }
            Choice::Discharge { artifact } => {
                let player = self.state.player_mut(p);
                if let Some(i) = player.charged.iter().position(|c| c.id() == artifact) {
                    let c = player.charged.remove(i);
                    player.discard.push(c);
                    self.state.discharged_this_turn = true;
                    self.emit(Event::Discharged { god: self.name(p), artifact });
                }
            }
            Choice::Add { purchase } => self.transaction(p, purchase),
            Choice::PlayBoost { boost } => self.play_boost(p, &boost),
            _ => {}
        }
        self.check_down();
    }

    /// Take the first card with this id from `p`'s hand.
    pub(crate) fn remove_from_hand(&mut self, p: PlayerId, id: &str) -> Option<Card> {
        let hand = &mut self.state.player_mut(p).hand;
        let i = hand.iter().position(|c| c.id() == id)?;
        Some(hand.remove(i))
    }

    /// Play an Artifact from hand to the discard pile.
    pub(crate) fn play_from_hand(&mut self, p: PlayerId, id: &str) {
        if let Some(c) = self.remove_from_hand(p, id) {
            self.state.player_mut(p).discard.push(c);
        }
    }

    /// Heal up to maximum Health (`003 § Heal Yourself or Allies`).
    pub(crate) fn heal(&mut self, p: PlayerId, amount: i32) {
        let player = self.state.player_mut(p);
        if player.defeated || amount <= 0 {
            return;
        }
        let before = player.health;
        player.health = (player.health + amount).min(player.max_health);
        let (gained, health) = (player.health - before, player.health);
        self.emit(Event::Healed { god: self.name(p), amount: gained, health });
    }

    /// Gain Stamina, never above the maximum (24, Elixir).
    pub(crate) fn gain_stamina(&mut self, p: PlayerId, amount: i32) {
        let max = self.market.max_stamina as i32;
        let player = self.state.player_mut(p);
        if player.defeated {
            return;
        }
        let before = player.stamina;
        player.stamina = (player.stamina + amount).min(max).max(0);
        let (gained, stamina) = (player.stamina - before, player.stamina);
        self.emit(Event::StaminaGained { god: self.name(p), amount: gained, stamina });
    }

    /// Play a Boost from hand (not an attack's or a counter): to the Boost
    /// discard pile, then its effect.
    pub(crate) fn play_boost(&mut self, p: PlayerId, id: &str) {
        let player = self.state.player_mut(p);
        let Some(i) = player.boosts.iter().position(|b| b.card.id == id) else { return };
        let card = player.boosts.remove(i).card;
        self.state.boost_discard.push(card);
        self.emit(Event::BoostPlayed { god: self.name(p), boost: id.into() });
        self.run_effect(p, &format!("boost:{id}"), "effect", None);
    }

    /// Before the active player declares an action, the others may play
    /// Anytime Boosts, clockwise from the active player (ruling I3).
    fn anytime_window(&mut self, active: PlayerId) {
        let n = self.state.players.len();
        for k in 1..n {
            let q = PlayerId::seat((active.index() + k) % n);
            loop {
                if self.state.player(q).defeated || self.state.outcome.is_some() {
                    break;
                }
                let mut options: Vec<Choice> = Vec::new();
                for b in &self.state.player(q).boosts {
                    let Some(boost) = self.boost(&b.card.id) else { continue };
                    if boost.timing == BoostTiming::Anytime && (!boost.team || self.state.team_game) {
                        let c = Choice::PlayBoost { boost: boost.id };
                        if !options.contains(&c) {
                            options.push(c);
                        }
                    }
                }
                if options.is_empty() {
                    break;
                }
                options.push(Choice::Pass);
                match self.ask(q, DecisionKind::Anytime, "play an Anytime Boost?", options) {
                    Choice::PlayBoost { boost } => self.play_boost(q, &boost),
                    _ => break,
                }
            }
        }
    }

    /// `003 § Completing Your Turn`: draw to 5 Artifacts, replenish Stamina.
    pub(crate) fn complete_turn(&mut self, p: PlayerId) {
        self.draw_to(p, self.market.hand_size as usize);
        let full = self.full_stamina(p);
        self.state.player_mut(p).stamina = full;
        self.emit(Event::TurnEnded { god: self.name(p), stamina: full });
    }

    /// The chargeable Energy types of `p`.
    pub fn chargeable(&self, p: PlayerId) -> Vec<EnergyType> {
        self.god(p).chargeable_types()
    }
}
