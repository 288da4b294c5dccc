//! Scoring: Scoring Zone occupancy and the Objectives Phase (`000 § Scenarios`, `000 § Objectives Phase`).

use super::*;

impl<'a> Game<'a> {
    /// How many of `p`'s Characters are in a zone (Minions are not Characters,
    /// `002 § Minion`).
    pub(super) fn in_zone(&self, zone: &str, p: PlayerId) -> usize {
        let spaces = self.zone_spaces(zone);
        self.state
            .units
            .iter()
            .filter(|u| {
                u.owner == p
                    && u.minion.is_none()
                    && u.projectile.is_none()
                    && matches!(u.location, Location::Space(h) if spaces.contains(&h))
            })
            .count()
    }

    pub(super) fn objectives_phase(&mut self, rounds: u8) {
        self.open_window(model::Window::ObjectivesPhase, None);
        let scenario = &self.content.scenarios[&self.state.scenario].value;
        let zone = self.state.scoring_zone.clone();
        let (a, b) = (self.in_zone(&zone, 0), self.in_zone(&zone, 1));
        let vp_of = |id: &str| scenario.rules.iter().find(|r| r.id == id).and_then(|r| r.vp).unwrap_or(0);
        let mut scored = [0u8; 2];
        // Assault's three objectives (`000 § Phase 3: Objectives`).
        if a > 0 && b == 0 {
            scored[0] = vp_of("only-player-in-scoring-zone");
        } else if b > 0 && a == 0 {
            scored[1] = vp_of("only-player-in-scoring-zone");
        } else if a > 0 && b > 0 {
            if a > b {
                scored[0] = vp_of("more-characters-in-scoring-zone");
            } else if b > a {
                scored[1] = vp_of("more-characters-in-scoring-zone");
            } else {
                scored = [vp_of("same-characters-in-scoring-zone"); 2];
            }
        }
        let objective = |p: usize| {
            if (a > 0) != (b > 0) {
                "only-player-in-scoring-zone"
            } else if a != b && scored[p] > 0 {
                "more-characters-in-scoring-zone"
            } else {
                "same-characters-in-scoring-zone"
            }
        };
        for p in 0..2 {
            if scored[p] > 0 {
                self.state.players[p].victory_points += scored[p] as u32;
                let total = self.state.players[p].victory_points;
                self.emit(Event::VictoryPoints { player: p, gained: scored[p], total, objective: objective(p).into() });
            }
        }
        self.scored_this_round = scored;
        // End of game: 8 VP or the last Round; VP, then Frags (`000 § Phase 3`).
        let vp = [self.state.players[0].victory_points, self.state.players[1].victory_points];
        let target = scenario.vp_to_win.map(u32::from).unwrap_or(u32::MAX);
        if vp[0] >= target || vp[1] >= target || self.state.round >= rounds {
            let frags = [self.state.players[0].frags, self.state.players[1].frags];
            let winner = match vp[0].cmp(&vp[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal if scenario.frags_break_ties => match frags[0].cmp(&frags[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                },
                std::cmp::Ordering::Equal => None,
            };
            self.state.over = true;
            let rounds = self.state.round;
            self.emit(Event::GameEnded { winner, victory_points: vp, frags, rounds });
            return;
        }
        // Underdog: fewest VP; on a tie it changes hands (`000 § Objectives Phase`).
        let new = match vp[0].cmp(&vp[1]) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 1 - self.state.underdog,
        };
        let reason =
            if vp[0] == vp[1] { "tied on Victory Points: the token changes hands" } else { "fewest Victory Points" };
        self.state.underdog = new;
        self.emit(Event::Underdog { player: new, reason: reason.into() });
        // Assault's `move-scoring-zone` rule: if anyone scored, the Underdog
        // picks an empty Deployment Zone as the new Scoring Zone
        // (REFERENCE-DATA.md § HexaDome; `000 § Phase 3`). Without it the
        // Scoring Zone stays.
        let moves = scenario.rules.iter().any(|r| r.id == "move-scoring-zone");
        if moves && scored.iter().any(|s| *s > 0) {
            let empty: Vec<Id> = self
                .board
                .zones
                .iter()
                .filter(|(_, (kind, _))| *kind == model::ZoneKind::Deployment)
                .map(|(id, _)| id.clone())
                .filter(|z| self.in_zone(z, 0) + self.in_zone(z, 1) == 0)
                .collect();
            if !empty.is_empty() {
                let options = empty.into_iter().map(|z| Choice::Pick { id: z }).collect();
                if let Choice::Pick { id } = self.decide(
                    new,
                    Kind::ScoringZone,
                    None,
                    "Which Deployment Zone becomes the Scoring Zone?",
                    options,
                ) {
                    self.state.scoring_zone = id.clone();
                    self.emit(Event::ScoringZone { zone: id });
                }
            }
        }
    }
}
