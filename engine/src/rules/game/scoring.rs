//! The Objectives Phase: Check Objectives, Check End-Game, the Underdog token (`000 § Objectives Phase`, `000 § Phase 3: Objectives`; `001 § Objectives Phase`). The objectives themselves are the Scenario's rules (`scenario.rs`).

use super::*;
use model::ScenarioWindow;

impl<'a> Game<'a> {
    pub(super) fn objectives_phase(&mut self, rounds: u8) {
        self.open_window(model::Window::ObjectivesPhase, None);
        // 1. Check Objectives: the Scenario's objectives, in its order.
        self.scenario_window(ScenarioWindow::CheckObjectives, scenario::RuleCtx::default());
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
}
