//! The Objectives Phase: Check Objectives, Check End-Game, the Underdog token (`000 § Objectives Phase`, `000 § Phase 3: Objectives`; `001 § Objectives Phase`). The objectives themselves are the Scenario's rules (`scenario.rs`).

use super::*;
use model::ScenarioWindow;

impl<'a> Game<'a> {
    pub(super) fn objectives_phase(&mut self, rounds: u8) {
        self.open_window(model::Window::ObjectivesPhase, None);
        // 1. Check Objectives: the Scenario's objectives, in its order.
        self.scenario_window(ScenarioWindow::CheckObjectives, scenario::RuleCtx::default());
        // The Objective cards (`001 § Claiming Objective Cards`).
        self.objectives_check();
        if self.state.over {
            return;
        }
        // 2. Check End-Game: the Scenario's Victory Points or its last Round.
        let target = self.scenario().vp_to_win.map(u32::from).unwrap_or(u32::MAX);
        let vp = Seated::from_fn(self.table(), |p| self.state.players[p].victory_points);
        if vp.iter().any(|v| *v >= target) || self.state.round >= rounds {
            self.end_game();
            return;
        }
        self.scenario_window(ScenarioWindow::EndGameChecked, scenario::RuleCtx::default());
        if self.state.over {
            return;
        }
        if self.table().prime_time() {
            // The marker's holder discards Objective cards, then hands the
            // marker over. With the optional rule `underdog` only the name
            // and the hand-over change (`001 § Underdog`: "Whenever the rules
            // make reference to "Prime Time", replace it for "Underdog""), so
            // the Objective discard and the hidden objectives' end-of-Round
            // discard are played as without it.
            self.prime_time_objective_discard();
            if self.rule(OptionalRule::Underdog) {
                self.hand_over_underdog(&vp);
            } else {
                self.hand_over_prime_time(&vp);
            }
            self.scenario_window(ScenarioWindow::ObjectivesPhaseEnd, scenario::RuleCtx::default());
            self.hidden_objectives_round_end();
            return;
        }
        // 3. Assign Underdog Status: fewest VP; on a tie it changes hands (`000 § Objectives Phase`).
        let (p1, p2) = (PlayerId::seat(0), PlayerId::seat(1));
        let new = match vp[p1].cmp(&vp[p2]) {
            std::cmp::Ordering::Less => p1,
            std::cmp::Ordering::Greater => p2,
            std::cmp::Ordering::Equal => self.table().opponent(self.state.underdog),
        };
        let reason =
            if vp[p1] == vp[p2] { "tied on Victory Points: the token changes hands" } else { "fewest Victory Points" };
        self.state.underdog = new;
        self.emit(Event::Underdog { player: new, reason: reason.into() });
        // Then what the Scenario does at the end of the phase (Assault: the
        // Underdog chooses the next Scoring Zone).
        self.scenario_window(ScenarioWindow::ObjectivesPhaseEnd, scenario::RuleCtx::default());
    }

    /// Hand over the Prime Time marker (`001 § Round`, 3. Objectives Phase):
    /// to the player to the left at the end of the first 3 Rounds (also in
    /// 3-player matches, `001 § 3 Player Matches`); from Round 4 to the
    /// player with the least Victory Points, then the least Frags, then at
    /// random (the game's RNG stands for the roll of 3 orange dice).
    fn hand_over_prime_time(&mut self, vp: &Seated<u32>) {
        let pt = self.state.underdog;
        let (new, reason) = if self.state.round <= 3 {
            (self.table().next_clockwise(pt), "handed to the left".to_string())
        } else {
            self.least_victory_points(vp, None)
        };
        self.state.underdog = new;
        self.emit(Event::PrimeTime { player: new, reason });
    }

    /// Hand over the Underdog marker (`001 § Underdog`, Objectives Phase):
    /// "At the end of each Round, the player with the least Victory Points
    /// receives the Underdog marker. In case there is a tie among several
    /// players, choose the one who does not have it. If there is still a tie,
    /// choose the player with the least Frags. If the tie persists, the
    /// Underdog marker will be raffled randomly among the tied players."
    /// "The one who does not have it": the holder leaves a tie; if several
    /// others remain, the Frags decide among them (docs/rulings.md R70).
    fn hand_over_underdog(&mut self, vp: &Seated<u32>) {
        let (new, reason) = self.least_victory_points(vp, Some(self.state.underdog));
        self.state.underdog = new;
        self.emit(Event::Underdog { player: new, reason });
    }

    /// Who has the least Victory Points, and why: on a tie, not `holder`
    /// (the Underdog's rule, when given), then the least Frags, then at random
    /// (the game's RNG stands for the roll of 3 orange dice). Shared by the
    /// Prime Time marker from Round 4 and the Underdog marker (`001 § Round`,
    /// `001 § Underdog`).
    fn least_victory_points(&mut self, vp: &Seated<u32>, holder: Option<PlayerId>) -> (PlayerId, String) {
        let least = vp.iter().copied().min().unwrap_or(0);
        let mut tied: Vec<PlayerId> = self.table().seats().filter(|p| vp[*p] == least).collect();
        let mut reason = "the least Victory Points".to_string();
        if let Some(h) = holder.filter(|h| tied.len() > 1 && tied.contains(h)) {
            tied.retain(|p| *p != h);
            reason = "tied on the least Victory Points: not the holder".to_string();
        }
        if tied.len() > 1 {
            let frags = |g: &Self, p: PlayerId| g.state.players[p].frags;
            let fewest = tied.iter().map(|p| frags(self, *p)).min().unwrap_or(0);
            tied.retain(|p| frags(self, *p) == fewest);
            reason = if holder.is_some() {
                "tied on the least Victory Points: the least Frags".to_string()
            } else {
                "the least Victory Points and Frags".to_string()
            };
        }
        if tied.len() > 1 {
            let i = self.state.rng.random_range(0..tied.len());
            reason = format!("tied on the least Victory Points and Frags: drawn at random among {}", tied.len());
            tied = vec![tied[i]];
        }
        (tied[0], reason)
    }
}
