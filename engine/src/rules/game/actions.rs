//! Actions: which are legal, their conditions, performing one, an Attack's end (`000 § Actions`, `000 § Attacks`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    /// Every Action the Character can perform now, with its Targets.
    pub(super) fn legal_actions(&mut self, id: &str) -> Vec<Choice> {
        // Room for a usual Actions Step's options (Move, the Attacks on each
        // Target, six spaces, the Tactics, Done) without growing.
        let mut out = Vec::with_capacity(24);
        let Some(u) = self.unit(id) else { return out };
        if !matches!(u.location, Location::Space(_)) {
            return out;
        }
        let (ap, movement_points, location) = (u.action_points, u.movement_points, u.location);
        // Move (`000 § Move`): 2 Action Points.
        if ap >= 2 {
            out.push(Choice::Perform { action: "move".into(), target: None, cost: 2 });
        }
        for (action, target, cost) in self.action_options(id, ap) {
            if self.condition_holds(id, &action, target.as_deref()) {
                out.push(Choice::Perform { action, target, cost });
            }
        }
        // The Controller's Minions: one of their card's Actions each time, paid
        // with the Controller's Action Points; removing one costs nothing
        // (`002 § Controller`; docs/rulings.md R11).
        for m in self.minions_of(id) {
            for (action, target, cost) in self.action_options(&m, ap) {
                if self.condition_holds(&m, &action, target.as_deref()) {
                    out.push(Choice::MinionAction { minion: m, action, target, cost });
                }
            }
        }
        for m in self.minions_of(id) {
            out.push(Choice::RemoveMinion { minion: m });
        }
        // Movement Points: one space at a time, unless Immobilized (`000 § Movement Points`, `§ Immobilized`).
        if movement_points > 0 && !self.has_state(id, "immobilized") {
            if let Location::Space(h) = location {
                for n in h.neighbours() {
                    if self.is_free(n) {
                        out.push(Choice::MoveTo { space: n });
                    }
                }
            }
        }
        out
    }

    /// The Actions `actor` can perform with `ap` Action Points, with their
    /// Targets: its card's (and the Contender Attack, for a Character).
    pub(super) fn action_options(&self, actor: &str, ap: u8) -> Vec<(Id, Option<Id>, u8)> {
        let mut out = Vec::new();
        let Some(u) = self.unit(actor) else { return out };
        let card = self.card(actor);
        let contender = contender();
        let taunter: Option<Id> = u
            .tokens
            .iter()
            .find(|t| t.state == "taunted")
            .and_then(|t| t.source)
            .filter(|s| self.space_of(s).is_some());
        // Minions are not Characters: no Contender Attack (`000 § Contender`).
        let implicit = if u.minion.is_none() { Some(contender) } else { None };
        // The Scenario's Actions, for Characters (Crow Accumulator's capsules).
        let scenario: &[Action] = if u.minion.is_none() { &self.scenario().actions } else { &[] };
        let scenario = scenario.iter().filter(|s| !card.actions.iter().any(|a| a.id == s.id));
        for action in card.actions.iter().chain(scenario).chain(implicit) {
            if action.cost > ap || !self.runnable(action) || self.silenced(actor, &action.id) {
                continue;
            }
            if action.movement_cost > u.movement_points {
                continue;
            }
            match &action.range {
                None => out.push((action.id, None, action.cost)),
                Some(range) => {
                    for t in &self.state.units {
                        if !matches!(t.location, Location::Space(_)) {
                            continue;
                        }
                        let ally = t.owner == u.owner && t.projectile.is_none();
                        // Allies cannot be Attacked (`000 § Allies`); Taunted Attacks only its source (`000 § Taunted`).
                        if action.attack && (ally || taunter.as_ref().is_some_and(|s| *s != t.id)) {
                            continue;
                        }
                        if self.in_range(actor, &t.id, range) {
                            out.push((action.id, Some(t.id), action.cost));
                        }
                    }
                    if action.obstacle_targets && !action.attack {
                        // One name buffer for every Barrier; an id only for those in Range.
                        let mut id = String::new();
                        for b in &self.board.barriers {
                            use std::fmt::Write;
                            id.clear();
                            let _ = write!(id, "barrier@{},{}", b.q, b.r);
                            if self.in_range(actor, &id, range) {
                                out.push((action.id, Some(Id::from(id.as_str())), action.cost));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the engine can run an Action: every effect it would apply has Lua,
    /// or it is an Attack whose Damage the engine applies itself.
    pub(super) fn runnable(&self, action: &Action) -> bool {
        action.attack || action.effects.iter().any(|e| e.lua.is_some() || e.script.is_some())
    }

    /// The options of a choice of the Actions Step: the legal Actions, the
    /// Actions Step Tactics whose condition holds, and Done.
    pub(super) fn actions_step_options(&mut self, id: &str, owner: PlayerId) -> Vec<Choice> {
        let mut options = self.legal_actions(id);
        for t in self.playable(owner, model::Window::ActionsStep, Some(id)) {
            if self.tactic_condition(&t, id) {
                options.push(Choice::Play { tactic: t });
            }
        }
        options.push(Choice::Done);
        options
    }

    /// One choice of the Actions Step among `options`
    /// ([`Game::actions_step_options`]); false when the Activation ends.
    pub(super) fn actions_step_choice(&mut self, id: &str, owner: PlayerId, options: Vec<Choice>) -> Result<bool> {
        match self.decide(owner, DecisionKind::Action, Some(id), "What next?", options) {
            Choice::Done => Ok(false),
            Choice::Play { tactic } => {
                self.play_tactic(owner, &tactic, id, None);
                Ok(true)
            }
            Choice::MoveTo { space } => {
                self.move_one(id, space);
                Ok(true)
            }
            Choice::Perform { action, target, cost } => {
                self.perform(id, &action, target.as_deref(), cost)?;
                Ok(true)
            }
            Choice::MinionAction { minion, action, target, cost } => {
                self.perform(&minion, &action, target.as_deref(), cost)?;
                Ok(true)
            }
            Choice::RemoveMinion { minion } => {
                self.remove_minion(&minion, "removed");
                Ok(true)
            }
            other => Err(format!("unexpected choice {other}")),
        }
    }

    /// The Move Action: gain Movement Points equal to Speed (`000 § Move`).
    fn gain_speed(&mut self, id: &str) {
        let speed = self.attribute(id, self.card(id).speed, |m| m.speed);
        let u = self.unit_mut(id).expect("unit");
        u.movement_points = u.movement_points.saturating_add(speed);
        let total = u.movement_points;
        self.emit(Event::MovementPoints { character: id.into(), gained: speed, total });
    }

    pub(super) fn perform(&mut self, id: &str, action_id: &str, target: Option<&str>, cost: u8) -> Result<()> {
        {
            let payer = Id::from(self.acting_character(id));
            let u = self.unit_mut(&payer).ok_or("no active unit")?;
            u.action_points = u.action_points.saturating_sub(cost);
        }
        self.emit(Event::Action { character: id.into(), action: action_id.into(), target: target.map(Id::from), cost });
        if action_id == "move" {
            self.gain_speed(id);
            return Ok(());
        }
        let card = self.card(id);
        let contender = contender();
        let scenario = self.scenario();
        let action = card.actions.iter().chain(&scenario.actions).find(|a| a.id == action_id).unwrap_or(contender);
        if action.movement_cost > 0 {
            let u = self.unit_mut(id).expect("unit");
            u.movement_points = u.movement_points.saturating_sub(action.movement_cost);
            u.movement_spent = u.movement_spent.saturating_add(action.movement_cost);
            let left = u.movement_points;
            self.emit(Event::Log {
                text: format!(
                    "{id} spends {} ({left} left)",
                    crate::rules::event::count(action.movement_cost as u32, "Movement Point")
                ),
            });
        }
        if action.movement_points > 0 {
            let u = self.unit_mut(id).expect("unit");
            u.movement_points = u.movement_points.saturating_add(action.movement_points);
        }
        let action_index = card
            .actions
            .iter()
            .position(|a| a.id == action_id)
            .or_else(|| scenario.actions.iter().position(|a| a.id == action_id));
        // "When an Enemy declares an Attack" (Implacable).
        if action.attack {
            let owner = self.unit(id).map(|u| u.owner);
            self.skills_of_units(model::Window::AttackDeclared, |u| Some(u.owner) != owner, Some(id));
            // What that set off may have taken the Target, or the Attacker, out
            // of the HexaDome: "Characters in the Infirmary ... cannot be the
            // Target of any Effect" (`000 § Infirmary`), so the Attack ends (R14).
            let gone = |g: &Self, u: &str| !matches!(g.unit(u).map(|x| x.location), Some(Location::Space(_)));
            if gone(self, id) || target.is_some_and(|t| gone(self, t)) {
                self.emit(Event::Log { text: format!("{action_id} ends: it has no Target in the HexaDome any more") });
                return Ok(());
            }
        }
        // Line of Sight for the Defender's Damage is fixed at the Declaration (`000 § Attacks`).
        let defender_sees = target.is_some_and(|t| self.sight(t, id).has_line_of_sight());
        let mut successes = 0;
        let mut inflicted: Option<u8> = None;
        let mut attack_target: Option<String> = None;
        if let Some(pool) = &action.roll {
            let mut pool = pool.clone();
            self.next_roll_dice(id, &mut pool);
            self.offer_focused(id, &mut pool);
            if action.attack {
                let t = target.ok_or("an Attack needs a Target")?.to_string();
                let outer_attacker = self.roll_frame.attacker.replace(id.into());
                let mut defense = self.card(&t).defense.clone();
                // The Defender's Roll is a Roll of its own (R22).
                self.offer_focused(&t, &mut defense);
                let check = self.check_cover(id, &t, action);
                if let Some(die) = check.attacker {
                    self.add_die_within_limit(id, &mut pool, &die);
                }
                if check.target {
                    self.add_die_within_limit(&t, &mut defense, "black");
                }
                let pools = self.own_roll_skills(id, Side::Active, Some(&t), [pool, defense]);
                let pools = self.own_roll_skills(&t, Side::Opponent, Some(id), pools);
                let [pool, defense] = self.before_roll_effects(id, Some(&t), action, pools);
                let [pool, defense] = self.team_before_roll_skills(id, &t, [pool, defense]);
                let [pool, defense] = self.roll_tactics(id, Some(&t), RollKind::Attack, [pool, defense]);
                let before_switches: Vec<(String, String)> = action
                    .effects
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.timing == Some(model::Window::BeforeSwitches))
                    .map(|(i, e)| (format!("actions[id={}].effects[{i}]", action.id), e.text.clone()))
                    .collect();
                let r = self.face_to_face(id, &pool, &t, &defense, &action.switches, true, &before_switches);
                self.roll_frame.attacker = outer_attacker;
                successes = r.active_successes;
                let before = self.unit(&t).map_or(0, |u| u.damage);
                let hp = self.card(&t).hit_points;
                self.inflict(&t, r.active_successes.min(255) as u8, Some(id));
                inflicted = Some(match self.unit(&t).map(|u| u.location) {
                    Some(Location::Infirmary) => hp.saturating_sub(before),
                    _ => self.unit(&t).map_or(0, |u| u.damage).saturating_sub(before),
                });
                attack_target = Some(t.clone());
                let far = self.distance(id, &t) > 1;
                let dazzled_far =
                    far && (self.has_state(&t, "dazzled") || self.space_of(&t).is_some_and(|h| self.in_smoke(h)));
                // A Running Projectile only defends itself (an Obstacle with a Defense, R20).
                if defender_sees && !dazzled_far && !self.is_projectile(&t) {
                    self.inflict(id, r.opponent_successes.min(255) as u8, Some(&t));
                } else if r.opponent_successes > 0 {
                    // Say why the Defender's Successes do nothing (`000 § Attacks`, `§ Dazzled`).
                    let why = if self.is_projectile(&t) {
                        "is a Running Projectile, which only defends itself"
                    } else if !defender_sees {
                        "has no Line of Sight to the Attacker"
                    } else {
                        "is Dazzled or in Smoke, beyond Range 1"
                    };
                    self.emit(Event::Log { text: format!("{t} inflicts no Damage: it {why}") });
                }
            } else {
                let pools = self.own_roll_skills(id, Side::Active, target, [pool, Pool::default()]);
                let pools = self.before_roll_effects(id, target, action, pools);
                let [pool, _] = self.roll_tactics(id, target, RollKind::Simple, pools);
                successes = self.simple_roll(id, &pool, target, &action.switches);
            }
        }
        // Effects: automatic always, optional with at least one Success (`000 § Actions`, step 4).
        let Some(index) = action_index else {
            self.after_attack(id, attack_target.as_deref(), inflicted);
            self.end_of_attack(id, action.attack);
            return Ok(());
        };
        for (i, effect) in action.effects.iter().enumerate() {
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Infirmary)) {
                break;
            }
            if matches!(effect.timing, Some(model::Window::BeforeRoll | model::Window::BeforeSwitches))
                && action.roll.is_some()
            {
                continue; // ran during the Roll
            }
            if effect.optional && (action.roll.is_some() && successes == 0 || !self.optional(id, effect.text.clone())) {
                continue;
            }
            let path = format!("actions[id={}].effects[{i}]", action.id);
            let _ = index;
            self.run_card_effect(id, &path, id, target, Some(successes as i64), &effect.text);
        }
        self.after_attack(id, attack_target.as_deref(), inflicted);
        self.end_of_attack(id, action.attack);
        Ok(())
    }

    /// After an Attack: the attacker's `attack-resolved` Automatic Skills (with
    /// ctx.successes = the Damage it inflicted), then Hidden is removed
    /// "immediately after performing an Attack, after the end of the Action"
    /// (`002 § Hidden`).
    pub(super) fn after_attack(&mut self, id: &str, target: Option<&str>, inflicted: Option<u8>) {
        if let Some(n) = inflicted {
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) {
                self.automatic_skills(id, model::Window::AttackResolved, target, Some(n as i64));
            }
        }
    }

    pub(super) fn end_of_attack(&mut self, id: &str, attack: bool) {
        if attack && self.has_state(id, "hidden") {
            self.remove_token(id, "hidden");
        }
    }

    pub(super) fn optional(&mut self, id: &str, prompt: impl Into<std::borrow::Cow<'static, str>>) -> bool {
        let owner = self.unit(id).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
        self.decide(owner, DecisionKind::OptionalEffect, Some(id), prompt, vec![Choice::Yes, Choice::No]) == Choice::Yes
    }
}
