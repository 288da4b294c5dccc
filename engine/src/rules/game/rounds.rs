//! The Round: Planning Phase, Turns, Activations, the Bench, Recovery Phase (`000 § Rounds`, `000 § Activations`, `000 § Bench`, `000 § Recovery Phase`).

use super::*;

impl<'a> Game<'a> {
    pub(super) fn planning_phase(&mut self) {
        self.state.turn = 0;
        self.open_window(model::Window::PlanningPhase, None);
        if self.table().prime_time() {
            self.prime_time_planning();
            return;
        }
        for p in self.table().seats() {
            let team = self.state.players[p].team.clone();
            let options: Vec<Choice> = permutations(&team).map(|ids| Choice::Order { ids }).collect();
            let Choice::Order { ids } =
                self.decide(p, DecisionKind::RunningOrder, None, "Running Order for this Round?", options)
            else {
                unreachable!()
            };
            self.state.players[p].running_order = ids.clone();
            self.emit(Event::RunningOrder { player: p, order: ids.to_vec() });
        }
    }

    /// How many Turns this Round has: one per Running Order position (`000
    /// § Rounds`; Prime Time: "as many Turns as there are players", `001 § Round`).
    pub(super) fn turns(&self) -> u8 {
        if self.table().prime_time() {
            return self.table().len().min(255) as u8;
        }
        self.state.players.iter().map(|p| p.running_order.len()).max().unwrap_or(0).min(255) as u8
    }

    /// Prime Time's Planning Phase (`001 § Round`, 1. Planning Phase): the
    /// Initiative cards go one at a time into the free positions of the two
    /// Running Orders, in snake order from Prime Time ("The last player will
    /// place both their Initiative cards at the same time": two placements in
    /// a row). With one Character per player (DeathMatch - Run 'N Shoot!)
    /// there are no Running Orders: "From the left to the right and starting
    /// with Prime Time, each player will activate their Character" (`001 §
    /// Game Round`; docs/rulings.md R46).
    fn prime_time_planning(&mut self) {
        let table = self.table();
        let n = table.len();
        for p in table.seats() {
            self.state.players[p].running_order.clear();
        }
        if self.state.players.iter().all(|p| p.team.len() <= 1) {
            self.state.running_orders.clear();
            for p in table.order_from(self.state.underdog) {
                let team = self.state.players[p].team.clone();
                self.state.players[p].running_order = team;
            }
            return;
        }
        self.state.running_orders = vec![vec![None; n]; 2];
        let picks: usize = self.state.players.iter().map(|p| p.team.len()).sum();
        let snake = table.snake_from(self.state.underdog);
        let mut placed: Vec<Id> = Vec::new();
        for k in 0..picks.min(2 * n) {
            let p = snake[k % snake.len()];
            let mut options: Vec<Choice> = Vec::new();
            for c in self.state.players[p].team.iter().filter(|c| !placed.contains(c)) {
                for (o, order) in self.state.running_orders.iter().enumerate() {
                    for (i, slot) in order.iter().enumerate() {
                        if slot.is_none() {
                            options.push(Choice::Slot { character: *c, order: o as u8 + 1, position: i as u8 + 1 });
                        }
                    }
                }
            }
            self.restrict_running_order(p, &mut options);
            if options.is_empty() {
                continue;
            }
            let Choice::Slot { character, order, position } = self.decide(
                p,
                DecisionKind::RunningOrder,
                None,
                "Place an Initiative card in a Running Order?",
                options,
            ) else {
                unreachable!()
            };
            self.state.running_orders[order as usize - 1][position as usize - 1] = Some(character);
            placed.push(character);
            self.emit(Event::InitiativePlaced { player: p, character, order, position });
        }
        // Each player's Characters in the order they will activate.
        for i in 0..n {
            for o in 0..2 {
                if let Some(c) = self.state.running_orders[o][i] {
                    if let Some(owner) = self.unit(&c).map(|u| u.owner) {
                        self.state.players[owner].running_order.push(c);
                    }
                }
            }
        }
    }

    /// Who activates in a Prime Time Turn (`001 § Round`, 2. Turn Phase):
    /// the two Characters in this position of both Running Orders; the
    /// player of the higher Initiative decides which activates first, Prime
    /// Time on a tie, and "if both Characters belong to the same player, they
    /// themself will decide".
    fn prime_time_turn_order(&mut self, turn: u8) -> Vec<Id> {
        let i = (turn - 1) as usize;
        if self.state.running_orders.is_empty() {
            // One Character per player: one Activation per Turn, from Prime Time.
            let p = self.table().order_from(self.state.underdog)[i % self.table().len()];
            return self.state.players[p].team.to_vec();
        }
        let (a, b) = (self.state.running_orders[0][i], self.state.running_orders[1][i]);
        let (a, b) = match (a, b) {
            (Some(a), Some(b)) => (a, b),
            (Some(one), None) | (None, Some(one)) => return vec![one],
            (None, None) => return vec![],
        };
        let owner = |g: &Self, c: &str| g.unit(c).map_or(g.state.underdog, |u| u.owner);
        let (oa, ob) = (owner(self, &a), owner(self, &b));
        let (ia, ib) = (self.initiative(&a), self.initiative(&b));
        // The same player's two Characters: that player decides.
        let decider = if oa == ob || ia > ib {
            oa
        } else if ib > ia {
            ob
        } else {
            self.state.underdog
        };
        self.pair_order(turn, decider, a, b)
    }

    /// A Turn: its Activations, in order ([`Game::turn_order`]).
    pub(super) fn turn(&mut self, turn: u8) -> Result<()> {
        for id in self.turn_order(turn) {
            self.activation(&id)?;
        }
        Ok(())
    }

    /// Who activates in Turn `turn` (from 1), in order: the Characters in
    /// this position of the Running Orders, the first as its decider chooses
    /// (`000 § Turns Phase`; Prime Time's, `001 § Round`); nobody once the
    /// game is over. The Turn is then their Activations, one after the other.
    pub fn turn_order(&mut self, turn: u8) -> Vec<Id> {
        if self.state.over {
            return vec![];
        }
        // Step 1, Initiative: this Turn's position of the Running Orders is revealed.
        self.state.turn = turn;
        if self.table().prime_time() {
            return self.prime_time_turn_order(turn);
        }
        let i = (turn - 1) as usize;
        let (a, b) = match (
            self.state.players[PlayerId::seat(0)].running_order.get(i).cloned(),
            self.state.players[PlayerId::seat(1)].running_order.get(i).cloned(),
        ) {
            (Some(a), Some(b)) => (a, b),
            // Teams of different sizes: the one Character of this slot activates alone.
            (Some(one), None) | (None, Some(one)) => return vec![one],
            (None, None) => return vec![],
        };
        let (ia, ib) = (self.initiative(&a), self.initiative(&b));
        // Higher Initiative decides; the Underdog on a tie (`000 § Turns Phase`).
        let decider = if ia > ib {
            PlayerId::seat(0)
        } else if ib > ia {
            PlayerId::seat(1)
        } else {
            self.state.underdog
        };
        self.pair_order(turn, decider, a, b)
    }

    /// The two Characters of a Turn: `decider` chooses which activates first
    /// (`000 § Turns Phase`; `001 § Game Round`); both activate, in that order.
    fn pair_order(&mut self, turn: u8, decider: PlayerId, a: Id, b: Id) -> Vec<Id> {
        let options = vec![Choice::First { character: a }, Choice::First { character: b }];
        let first = match self.decide(
            decider,
            DecisionKind::FirstActivation,
            None,
            "Which Character activates first?",
            options,
        ) {
            Choice::First { character } => character,
            _ => unreachable!(),
        };
        let second = if first == a { b } else { a };
        self.emit(Event::Initiative { turn, first, second });
        vec![first, second]
    }

    pub(super) fn activation(&mut self, id: &str) -> Result<()> {
        if self.unit(id).is_none() {
            return Ok(());
        }
        // Smoke goes at the start of its deployer's next Activation, or when it
        // would have taken place (`004 § Smoke`).
        let mine: Vec<Hex> = self.state.smoke.iter().filter(|(_, c)| c == id).map(|(h, _)| *h).collect();
        if !mine.is_empty() {
            self.state.smoke.retain(|(_, c)| c != id);
            for space in mine {
                self.emit(Event::SmokeRemoved { character: id.into(), space });
            }
        }
        let Some(unit) = self.unit(id) else { return Ok(()) };
        if unit.location == Location::Infirmary {
            self.emit(Event::ActivationSkipped { character: id.into() });
            return Ok(());
        }
        let owner = unit.owner;
        // Preparation Step (`000 § Preparation Step`).
        self.state.active = Some(id.into());
        if self.rule(OptionalRule::RemoveStates) {
            self.remove_a_state(id, owner);
        }
        let energy = self.attribute(id, self.card(id).energy, |m| m.energy);
        {
            let u = self.unit_mut(id).expect("unit");
            u.action_points = energy;
            u.movement_points = 0;
            u.movement_spent = 0;
            u.next_roll.clear();
        }
        self.emit(Event::ActivationStarted { character: id.into(), action_points: energy });
        self.open_window(model::Window::ActivationStart, Some(id));
        if self.unit(id).map(|u| u.location) == Some(Location::Bench) {
            self.return_from_bench(id, owner);
            if self.unit(id).map(|u| u.location) == Some(Location::Bench) {
                // No Free space to return to: it stays on the Bench, where it
                // can do nothing ("Benched Characters are not in Range"; R21).
                self.emit(Event::Log { text: format!("{id} finds no Free space to return to and stays on the Bench") });
                self.states_step(id);
                self.state.active = None;
                return Ok(());
            }
        }
        self.actions_and_states(id, owner)
    }

    pub(super) fn actions_and_states(&mut self, id: &str, owner: PlayerId) -> Result<()> {
        // "At the beginning of the Actions Step of an Ally" (Fairy Dust).
        self.skills_of_units(model::Window::AllyActionsStepStart, |u| u.owner == owner, Some(id));
        // Actions Step, ended if an effect keeps it going (MAX_ACTIONS_PER_ACTIVATION).
        self.effect_frame.granted_points = None;
        self.actions_step_from(id, owner, 0, None)
    }

    /// The Actions Step from its `choices`-th choice (from 0) on, then the
    /// rest of the Activation: the States Step and what ends it. With
    /// `options`, the `choices`-th choice's options are those (its
    /// question is asked at once: a game resumed there,
    /// [`Game::resume_actions_step`]). Each choice, once its options are
    /// known, is a quiet point inside the Activation
    /// ([`Game::keep_actions_points`]).
    pub(super) fn actions_step_from(
        &mut self,
        id: &str,
        owner: PlayerId,
        mut choices: usize,
        mut options: Option<Vec<Choice>>,
    ) -> Result<()> {
        while !self.state.over {
            let options = match options.take() {
                Some(options) => options,
                None => {
                    choices += 1;
                    if choices > MAX_ACTIONS_PER_ACTIVATION {
                        self.runaway(format!(
                            "{id}'s Activation went past {MAX_ACTIONS_PER_ACTIVATION} Actions: it is ended (an effect keeps giving Action or Movement Points)"
                        ));
                        break;
                    }
                    let options = self.actions_step_options(id, owner);
                    self.at_actions_step_choice(id, owner, choices, &options);
                    options
                }
            };
            if !self.actions_step_choice(id, owner, options)? {
                break;
            }
            if matches!(self.unit(id).map(|u| u.location), Some(Location::Infirmary) | None) {
                break;
            }
        }
        if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) && !self.state.over {
            self.open_window(model::Window::ActionsStepEnd, Some(id));
        }
        // States Step (`000 § States Step`).
        if matches!(self.unit(id).map(|u| u.location), Some(Location::Space(_))) && !self.state.over {
            self.open_window(model::Window::StatesStep, Some(id));
        }
        let mut unused = IdList::new();
        if let Some(u) = self.unit_mut(id) {
            u.action_points = 0;
            u.movement_points = 0;
            unused = std::mem::take(&mut u.next_roll); // "in this Activation"
        }
        for die in unused {
            self.emit(Event::Log {
                text: format!("{id} made no Roll: the {die} die promised to its next Roll is lost"),
            });
        }
        for u in self.state.units.iter_mut() {
            u.until_end_of_activation.clear();
        }
        self.states_step(id);
        // "During the Controller's States Step, all blue-side up State tokens on
        // their Minions cards are removed, and then all red-side up State tokens
        // are flipped" (`002 § Minion`).
        for m in self.minions_of(id) {
            self.states_step(&m);
        }
        self.state.active = None;
        self.scenario_window(model::ScenarioWindow::ActivationEnd, scenario::RuleCtx::of(id, owner));
        self.objectives_after_activation();
        Ok(())
    }

    pub(super) fn return_from_bench(&mut self, id: &str, owner: PlayerId) {
        // A Free space in a Deployment Zone that is not the Scoring Zone (`000
        // § Bench`), or in the player's own, as the Scenario says.
        let to = self.content.scenarios[&self.state.scenario].value.bench_return_to;
        let own = to == model::BenchReturn::OwnDeploymentZone;
        // Short Distance: "any Deployment Zone except the Central Zone" (rulings R44).
        let central = to != model::BenchReturn::AnyDeploymentZoneExceptCentral;
        let own_zone = self.state.players[owner].zone;
        // Not a Deployment Zone shown on an available Objective card (`001 §
        // Controlling a Deployment Zone`).
        let barred = self.barred_zones();
        let zones: Vec<Id> = self
            .board
            .zones
            .iter()
            .filter(|(zid, (kind, _))| {
                // The Central Zone is a Deployment Zone too (docs/rulings.md R26).
                (*kind == model::ZoneKind::Deployment || (central && *kind == model::ZoneKind::Central))
                    && !self.state.scoring_zones.contains(zid)
                    && (!own || **zid == own_zone)
                    && !barred.contains(zid)
            })
            .map(|(zid, _)| *zid)
            .collect();
        let mut spaces: Vec<Hex> =
            zones.iter().flat_map(|z| self.zone_spaces(z).iter().copied()).filter(|h| self.is_free(*h)).collect();
        spaces.sort();
        spaces.dedup();
        if spaces.is_empty() {
            return;
        }
        let options = spaces.into_iter().map(|s| Choice::Space { space: s }).collect();
        if let Choice::Space { space } =
            self.decide(owner, DecisionKind::BenchReturn, Some(id), "Return from the Bench where?", options)
        {
            self.unit_mut(id).expect("unit").location = Location::Space(space);
            self.emit(Event::ReturnedFromBench { character: id.into(), space });
        }
    }

    pub(super) fn recovery_phase(&mut self) {
        self.open_window(model::Window::RecoveryPhase, None);
        self.terminate_round_effects();
        // Nanotherapy: Infirmary to Bench with -2 Energy (`000 § Recovery Phase`).
        let infirmary: Vec<Id> =
            self.state.units.iter().filter(|u| u.location == Location::Infirmary).map(|u| u.id).collect();
        for id in infirmary {
            self.unit_mut(&id).expect("unit").location = Location::Bench;
            self.emit(Event::Benched { character: id });
            if self.content.states.contains_key("minus-2-energy") {
                let _ = self.impose(&id, "minus-2-energy", None);
            }
            let owner = self.unit(&id).map_or(PlayerId::seat(0), |u| u.owner);
            let at = scenario::RuleCtx { player: self.frag_credit(owner), ..scenario::RuleCtx::of(&id, owner) };
            self.scenario_window(model::ScenarioWindow::SentToBench, at);
        }
        self.scenario_window(model::ScenarioWindow::RecoveryPhase, scenario::RuleCtx::default());
        // Draw one, plus one for scoring this Round; in Prime Time, plus one
        // for a Frag earned this Round (`001 § Round`, 4. Recovery Phase).
        let round = self.state.round as i64;
        let prime_time = self.table().prime_time();
        for p in self.table().seats() {
            let mut n = 1 + u8::from(self.scored_in(p, round) > 0);
            if prime_time {
                n += u8::from(self.frags_in(p, round) > 0);
            }
            self.draw(p, n);
        }
    }

    /// The Running Order restriction of 3-player matches (`001 § Running
    /// Order (Additional Rule)`): "No one, excepting Prime Time, may place
    /// both their Initiative cards in the same position in both Running
    /// Orders": a player other than Prime Time who has a card in position
    /// `i` of one Running Order is not offered position `i` of the other.
    /// At a table of three it never leaves a player without a position (the
    /// rule forbids one free position at most; R74).
    fn restrict_running_order(&self, p: PlayerId, options: &mut Vec<Choice>) {
        if !self.rule(OptionalRule::RunningOrderRestriction) || p == self.state.underdog {
            return;
        }
        let mine = |c: &Option<Id>| c.as_ref().is_some_and(|c| self.unit(c).is_some_and(|u| u.owner == p));
        let allowed: Vec<Choice> = options
            .iter()
            .filter(|o| match o {
                Choice::Slot { order, position, .. } => {
                    let other = if *order == 1 { 1 } else { 0 };
                    !self.state.running_orders[other].get(*position as usize - 1).is_some_and(mine)
                }
                _ => true,
            })
            .cloned()
            .collect();
        if !allowed.is_empty() {
            *options = allowed;
        }
    }
}
