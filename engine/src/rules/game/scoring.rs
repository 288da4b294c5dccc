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
        let (p1, p2) = (PlayerId::seat(0), PlayerId::seat(1));
        let (a, b) = (self.in_zone(&zone, p1), self.in_zone(&zone, p2));
        let vp_of = |id: &str| scenario.rules.iter().find(|r| r.id == id).and_then(|r| r.vp).unwrap_or(0);
        let mut scored = Seated::splat(self.table(), 0u8);
        // Assault's three objectives (`000 § Phase 3: Objectives`).
        if a > 0 && b == 0 {
            scored[p1] = vp_of("only-player-in-scoring-zone");
        } else if b > 0 && a == 0 {
            scored[p2] = vp_of("only-player-in-scoring-zone");
        } else if a > 0 && b > 0 {
            if a > b {
                scored[p1] = vp_of("more-characters-in-scoring-zone");
            } else if b > a {
                scored[p2] = vp_of("more-characters-in-scoring-zone");
            } else {
                scored = Seated::splat(self.table(), vp_of("same-characters-in-scoring-zone"));
            }
        }
        let objective = |p: PlayerId| {
            if (a > 0) != (b > 0) {
                "only-player-in-scoring-zone"
            } else if a != b && scored[p] > 0 {
                "more-characters-in-scoring-zone"
            } else {
                "same-characters-in-scoring-zone"
            }
        };
        for p in self.table().seats() {
            if scored[p] > 0 {
                self.state.players[p].victory_points += scored[p] as u32;
                let total = self.state.players[p].victory_points;
                self.emit(Event::VictoryPoints { player: p, gained: scored[p], total, objective: objective(p).into() });
            }
        }
        self.scored_this_round = scored.clone();
        // End of game: 8 VP or the last Round; VP, then Frags (`000 § Phase 3`).
        let vp = Seated::from_fn(self.table(), |p| self.state.players[p].victory_points);
        let target = scenario.vp_to_win.map(u32::from).unwrap_or(u32::MAX);
        if vp.iter().any(|v| *v >= target) || self.state.round >= rounds {
            let frags = Seated::from_fn(self.table(), |p| self.state.players[p].frags);
            let winner = match vp[p1].cmp(&vp[p2]) {
                std::cmp::Ordering::Greater => Some(p1),
                std::cmp::Ordering::Less => Some(p2),
                std::cmp::Ordering::Equal if scenario.frags_break_ties => match frags[p1].cmp(&frags[p2]) {
                    std::cmp::Ordering::Greater => Some(p1),
                    std::cmp::Ordering::Less => Some(p2),
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
        let new = match vp[p1].cmp(&vp[p2]) {
            std::cmp::Ordering::Less => p1,
            std::cmp::Ordering::Greater => p2,
            std::cmp::Ordering::Equal => self.table().opponent(self.state.underdog),
        };
        let reason =
            if vp[p1] == vp[p2] { "tied on Victory Points: the token changes hands" } else { "fewest Victory Points" };
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
                .filter(|z| self.table().seats().map(|p| self.in_zone(z, p)).sum::<usize>() == 0)
                .collect();
            if !empty.is_empty() {
                let options = empty.into_iter().map(|z| Choice::Pick { id: z }).collect();
                if let Choice::Pick { id } = self.decide(
                    new,
                    DecisionKind::ScoringZone,
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
