//! Setting up a game: Deployment, the Underdog, the first hands (`000 § Setup`).

use super::*;

impl<'a> Game<'a> {
    pub(super) fn setup_phase(&mut self) -> Result<()> {
        // Starting hands of four, one mulligan each (`000 § Setup`, Step 4).
        for p in self.table().seats() {
            self.draw(p, 4);
            let choice = self.decide(
                p,
                DecisionKind::Mulligan,
                None,
                "Mulligan: shuffle your hand back and draw four new Tactics?",
                vec![Choice::No, Choice::Yes],
            );
            if choice == Choice::Yes {
                let hand = std::mem::take(&mut self.state.players[p].hand);
                self.state.players[p].deck.extend(hand);
                let mut deck = std::mem::take(&mut self.state.players[p].deck);
                shuffle(&mut deck, &mut self.state.rng);
                self.state.players[p].deck = deck;
                self.draw(p, 4);
            }
        }
        // Underdog: the lower Initiative total; a tie is settled by the RNG (`000 § Setup`, Step 6).
        let totals: Vec<u32> = self
            .table()
            .seats()
            .map(|p| self.state.players[p].team.iter().map(|c| self.card(c).initiative as u32).sum())
            .collect();
        let (p1, p2) = (PlayerId::seat(0), PlayerId::seat(1));
        let (underdog, reason) = if totals[0] < totals[1] {
            (p1, format!("lower Initiative total, {} to {}", totals[0], totals[1]))
        } else if totals[1] < totals[0] {
            (p2, format!("lower Initiative total, {} to {}", totals[1], totals[0]))
        } else {
            (
                PlayerId::seat(self.state.rng.random_range(0..2usize)),
                format!("Initiative totals tied at {}: drawn at random", totals[0]),
            )
        };
        self.state.underdog = underdog;
        self.emit(Event::Underdog { player: underdog, reason });
        self.place_special_spaces();
        self.scenario_window(model::ScenarioWindow::BeforeDeployment, scenario::RuleCtx::default());
        // Deployment in or adjacent to each player's zone (REFERENCE-DATA § HexaDome).
        for p in self.table().seats() {
            let team = self.state.players[p].team.clone();
            let zone = self.state.players[p].zone.clone();
            for c in team {
                // Not onto a Special Space marker (rulings R18).
                let mut spaces = self.zone_and_adjacent_free(&zone);
                spaces.retain(|h| !self.state.special_spaces.iter().any(|m| m.space == *h));
                if spaces.is_empty() {
                    return Err(format!("no Free space left in or next to `{zone}` to deploy {c}"));
                }
                let options = spaces.into_iter().map(|s| Choice::Space { space: s }).collect();
                let Choice::Space { space } = self.decide(p, DecisionKind::Deploy, Some(&c), "Deploy where?", options)
                else {
                    unreachable!()
                };
                self.unit_mut(&c).expect("unit").location = Location::Space(space);
                self.emit(Event::Deployed { character: c, space });
            }
        }
        self.setup_projectiles();
        Ok(())
    }
}
