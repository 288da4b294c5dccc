//! What the table, the simulator and situations drive and read from outside
//! a game's own Round loop: one step at a time (an Activation, a Planning
//! Phase, a Round's start or end), the position where a controller gave up,
//! the umpire's look at every Decision, a reseed, and a seat's view.

use super::*;

impl<'a> Game<'a> {
    /// Play the active Character's Activation; when it was given Action Points,
    /// from its Actions Step (the Preparation Step is skipped).
    pub fn run_activation(&mut self, skip_preparation: bool) -> Result<()> {
        let id = self.state.active.ok_or("no active Character")?;
        if skip_preparation {
            let owner = self.unit(&id).map(|u| u.owner).unwrap_or(PlayerId::seat(0));
            let ap = self.unit(&id).map(|u| u.action_points).unwrap_or(0);
            self.emit(Event::ActivationStarted { character: id, action_points: ap });
            self.actions_and_states(&id, owner)
        } else {
            self.activation(&id)
        }
    }

    /// The Planning Phase of the current Round (a situation's `phase =
    /// "planning"`): the Running Orders placed (`000 § Planning Phase`).
    pub fn run_planning(&mut self) {
        self.planning_phase();
    }

    /// Start the next Round: its number, then the Scenario's `round-start`
    /// rules (situations; the Planning Phase is not played).
    pub fn run_round_start(&mut self) {
        self.state.round += 1;
        let round = self.state.round;
        self.emit(Event::RoundStarted { round });
        self.state.scored.push(Seated::splat(self.table(), 0));
        self.scenario_window(model::ScenarioWindow::RoundStart, scenario::RuleCtx::default());
    }

    /// Play the end of the Round: Objectives Phase, then Recovery Phase unless the game ended.
    pub fn run_end_of_round(&mut self) {
        let rounds = self.content.scenarios[&self.state.scenario].value.rounds;
        // The end of the Turns Phase: the Running Projectiles in play act first.
        self.projectiles_phase();
        self.objectives_phase(rounds);
        if !self.state.over {
            self.recovery_phase();
        }
    }

    /// A player's hidden Objective cards (`001 § Objective Cards (Additional
    /// Rule)`), for that player's eyes (and tests); no other player's
    /// controller is given them.
    pub fn hidden_objectives_of(&self, p: PlayerId) -> &[Id] {
        self.state.objectives.as_ref().and_then(|o| o.hidden.get(p.index())).map_or(&[], |h| h.as_slice())
    }

    /// The events before a controller gave up, if one did (situations).
    pub fn halted(&self) -> Option<usize> {
        self.halted
    }

    /// Keep the position where a controller first gives up (answers
    /// `usize::MAX`): the Decision, the whole state and the events, for
    /// [`Game::take_halted_at`]. The table uses it to capture a position
    /// without handing the whole state to a controller.
    pub fn capture_halt(&mut self) {
        self.capture_halt = true;
    }

    /// Call `observer` at every Decision answered, with the Decision, the
    /// whole state when it was asked and the answer: the umpire's record (a
    /// test's, a tool's), never a player's (players see only their `View`).
    pub fn observe(&mut self, observer: Observer<'a>) {
        self.observer = Some(observer);
    }

    /// Reseed the game's RNG with `seed` when it asks its Decision number
    /// `at` (counted from the game's start, as `answers`): the dice and
    /// draws from there on change, nothing before (a table's determinization).
    pub fn reseed_at(&mut self, at: usize, seed: u64) {
        self.reseed = Some((at, seed));
    }

    /// The position [`Game::capture_halt`] kept, once.
    pub fn take_halted_at(&mut self) -> Option<(Decision, GameState, Vec<Event>)> {
        self.halted_at.take().map(|b| *b)
    }

    /// What seat `seat` may know of the game now ([`View`]): the umpire
    /// (the simulator, a renderer of a situation) hands it to whoever may see it.
    pub fn view(&self, seat: PlayerId) -> View<'_> {
        View::new(seat, &self.state, &self.events, self.content, &self.board)
    }

    /// Forced dice faces not rolled (situations).
    pub fn unused_dice(&self) -> usize {
        self.forced.faces.len()
    }

    /// A forced face its die did not have, if any (situations).
    pub fn fault(&self) -> Option<&str> {
        self.forced.fault.as_deref()
    }
}
