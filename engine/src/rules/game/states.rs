//! States: imposing, Silenced's choice, removing tokens, the States Step (`000 § States`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    pub(super) fn impose(&mut self, id: &str, state: &str, source: Option<&str>) -> Result<()> {
        let st = &self.content.states.get(state).ok_or_else(|| format!("no State `{state}`"))?.value;
        let stacking = st.stacking;
        let red_damage = st.red_side.damage;
        let u = self.unit_mut(id).ok_or_else(|| format!("no Character `{id}` in the game"))?;
        if !matches!(u.location, Location::Space(_) | Location::Bench) {
            return Ok(());
        }
        if u.projectile.is_some() {
            // "Running Projectiles cannot receive nor be affected by States."
            self.emit(Event::Log { text: format!("{id} cannot receive States") });
            return Ok(());
        }
        // The different States it had, for the orange Objective cards.
        let mut before: Vec<Id> = u.tokens.iter().filter(|t| t.state != state).map(|t| t.state).collect();
        before.sort();
        before.dedup();
        if !stacking {
            // Re-imposed: the old token goes, a new one is placed red side up (`000 § States`).
            u.tokens.retain(|t| t.state != state);
        }
        u.tokens.push(Token { state: state.into(), side: TokenSide::Red, source: source.map(Id::from), choice: None });
        let owner = u.owner;
        self.emit(Event::StateImposed { character: id.into(), state: state.into() });
        self.objectives_state_imposed(state, source, &before);
        if state == "silenced" {
            self.choose_silenced(id, source);
        }
        if red_damage > 0 {
            self.inflict(id, red_damage, None);
        }
        let at = scenario::RuleCtx { state: Some(state.into()), ..scenario::RuleCtx::of(id, owner) };
        self.scenario_window(model::ScenarioWindow::StateImposed, at);
        Ok(())
    }

    /// Silenced: the imposing player chooses one Action (not Move, not an
    /// Attack) or Automatic Skill of the Target, which it cannot perform or apply
    /// while Silenced (`002 § Silenced`).
    pub(super) fn choose_silenced(&mut self, id: &str, source: Option<&str>) {
        let card = self.card(id);
        let options: Vec<Choice> = card
            .actions
            .iter()
            .filter(|a| !a.attack)
            .map(|a| Choice::Pick { id: a.id })
            .chain(card.automatic_skills.iter().map(|s| Choice::Pick { id: s.id }))
            .collect();
        if options.is_empty() {
            return;
        }
        let imposer =
            source.and_then(|s| self.unit(s)).or_else(|| self.state.active.as_deref().and_then(|a| self.unit(a)));
        let player = imposer.map_or(PlayerId::seat(0), |u| u.owner);
        if let Choice::Pick { id: chosen } =
            self.decide(player, DecisionKind::Choose, Some(id), "Silence which Action or Automatic Skill?", options)
        {
            if let Some(t) = self.unit_mut(id).and_then(|u| u.tokens.iter_mut().rev().find(|t| t.state == "silenced")) {
                t.choice = Some(chosen);
            }
            self.emit(Event::Log { text: format!("{id}'s {chosen} is Silenced") });
        }
    }

    /// Whether an Action or Automatic Skill of a Character is Silenced.
    pub(super) fn silenced(&self, id: &str, what: &str) -> bool {
        self.unit(id)
            .is_some_and(|u| u.tokens.iter().any(|t| t.state == "silenced" && t.choice.as_deref() == Some(what)))
    }

    /// Focused (`000 § Focused`): "Targets affected by this State may remove
    /// this State before making a Roll to add a Yellow die to that Roll": any
    /// Roll they make (an Action Roll, the Defender's Roll, either side of a
    /// Disengage Roll; docs/rulings.md R22), asked of their player when the
    /// Roll has room for another Yellow die (`000 § Dice`: three a Roll).
    pub(super) fn offer_focused(&mut self, id: &str, pool: &mut Pool) {
        if !self.has_state(id, "focused") {
            return;
        }
        let limit = self.content.dice.get("yellow").map_or(3, |d| d.value.max_per_roll as usize);
        if pool.dice.iter().filter(|d| *d == "yellow").count() >= limit {
            self.emit(Event::Log {
                text: format!("{id} keeps Focused: the Roll holds {limit} yellow dice already (000 § Dice)"),
            });
            return;
        }
        if self.optional(id, "Remove Focused to add a Yellow die?") {
            self.remove_token(id, "focused");
            pool.dice.push("yellow".into());
        }
    }

    pub(super) fn remove_token(&mut self, id: &str, state: &str) -> bool {
        let Some(u) = self.unit_mut(id) else { return false };
        let Some(i) = u.tokens.iter().position(|t| t.state == state) else { return false };
        u.tokens.remove(i);
        let left = u.tokens.iter().filter(|t| t.state == state).count().min(255) as u8;
        self.emit(Event::StateRemoved { character: id.into(), state: state.into(), left });
        true
    }

    /// States Step: remove blue tokens, flip red ones; a revealed blue side acts
    /// (`000 § States Step`; Poisoned `002 § Poisoned`; Burning `004 § Burning`).
    pub(super) fn states_step(&mut self, id: &str) {
        if self.table().prime_time() {
            // Damage of Poisoned and Burning goes to who imposed them (`001 § Frags and States`).
            let credit = self.state_frag_credit(id);
            let outer = self.state_credit.replace(credit);
            self.states_step_tokens(id);
            self.state_credit = outer;
        } else {
            self.states_step_tokens(id);
        }
    }

    fn states_step_tokens(&mut self, id: &str) {
        let Some(u) = self.unit(id) else { return };
        let blue: Vec<Id> = u.tokens.iter().filter(|t| t.side == TokenSide::Blue).map(|t| t.state).collect();
        for s in blue {
            self.remove_token(id, &s);
        }
        let red: Vec<Id> = self.unit(id).map(|u| u.tokens.iter().map(|t| t.state).collect()).unwrap_or_default();
        for s in red {
            if let Some(u) = self.unit_mut(id) {
                if let Some(t) = u.tokens.iter_mut().find(|t| t.state == s && t.side == TokenSide::Red) {
                    t.side = TokenSide::Blue;
                }
            }
            self.emit(Event::StateFlipped { character: id.into(), state: s });
            let side = self.content.states.get(&s).map(|st| st.value.blue_side.clone()).unwrap_or_default();
            if side.damage > 0 {
                self.inflict(id, side.damage, None);
            }
            if side.remove {
                self.remove_token(id, &s);
            }
            // What the revealed blue side does, in Lua (Burning's die: `004 § Burning`).
            if side.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some())
                && matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_)))
            {
                let text = side.effect.as_ref().map(|e| e.text.clone()).unwrap_or_default();
                self.run_effect(&format!("state:{s}"), "blue_side.effect", id, None, None, &text);
            }
            if self.unit(id).is_some_and(|u| u.location == Location::Infirmary)
                || (self.table().prime_time() && self.unit(id).is_some_and(|u| u.location == Location::Bench))
            {
                return;
            }
        }
    }

    /// Remove States (`001 § Remove States`): "At the beginning of their
    /// Character's Preparations Phase, a player may remove one State token
    /// from their Character card in exchange for imposing them with the -2
    /// Energy State and discarding one Tactic from their hand. They cannot
    /// do this if the Character has the -2 Energy State already or if they
    /// do not have any more Tactics in their hand." A Decision of the
    /// player: which token, or none; then the -2 Energy State (so this
    /// Activation has 2 Action Points fewer) and a Tactic of their choice
    /// discarded (docs/rulings.md R71).
    pub(super) fn remove_a_state(&mut self, id: &str, owner: PlayerId) {
        const MINUS_2_ENERGY: &str = "minus-2-energy";
        let Some(u) = self.unit(id) else { return };
        if !matches!(u.location, Location::Space(_))
            || u.tokens.iter().any(|t| t.state == MINUS_2_ENERGY)
            || self.state.players[owner].hand.is_empty()
            || !self.content.states.contains_key(MINUS_2_ENERGY)
        {
            return;
        }
        let mut options = vec![Choice::Done];
        for t in &u.tokens {
            let pick = Choice::Pick { id: t.state };
            if !options.contains(&pick) {
                options.push(pick);
            }
        }
        if options.len() == 1 {
            return;
        }
        let prompt = "Remove a State token for the -2 Energy State and a Tactic discarded?";
        let Choice::Pick { id: state } = self.decide(owner, DecisionKind::RemoveState, Some(id), prompt, options)
        else {
            return;
        };
        self.remove_token(id, &state);
        let _ = self.impose(id, MINUS_2_ENERGY, None);
        self.discard_tactics(owner, 1, false);
    }
}
