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
        self.no_to_hand();
        self.give_first_marker();
        if self.table().prime_time() {
            return self.prime_time_setup();
        }
        self.place_special_spaces();
        self.prepare_objectives_deck();
        self.scenario_window(model::ScenarioWindow::BeforeDeployment, scenario::RuleCtx::default());
        self.deploy_teams()?;
        self.setup_projectiles();
        Ok(())
    }

    /// The marker's first holder, once the teams are made. At 2 players the
    /// Underdog: "both players add up their Character's Initiative values.
    /// The player with the lowest total starts out as the Underdog"; "in
    /// case of a tie, the Underdog token is assigned at random" (`000 §
    /// Setup`, Step 6: the game's RNG).
    /// At 3-4 players Prime Time (`001 § Preparations`, 4. Team Creation):
    /// "the first player to choose a Character will be determined randomly"
    /// (the roll of 3 orange dice, [`Game::roll_for_the_first_pick`]), the picks go
    /// in snake order, and the marker goes to the last to pick: the first
    /// picker when teams are of two ("Prime Time is the first and last to
    /// pick"), the one to their right with teams of one (DeathMatch - Run 'N
    /// Shoot!: "The last player to pick a Character receives the Prime Time
    /// marker"); under `001 § Underdog` the Underdog marker by the lowest
    /// combined Initiatives instead (docs/rulings.md R70).
    fn give_first_marker(&mut self) {
        if self.table().prime_time() {
            if self.rule(OptionalRule::Underdog) {
                self.underdog_after_team_creation();
            } else {
                let picks: usize = self.state.players.iter().map(|p| p.team.len()).sum();
                let first = self.roll_for_the_first_pick();
                let last = self.snake_picks(first, picks).last().copied().unwrap_or(first);
                self.state.underdog = last;
                let reason = if last == first {
                    format!("{first} won the roll to pick first, and picked first and last")
                } else {
                    format!("{first} won the roll to pick first; {last} picked last")
                };
                self.emit(Event::PrimeTime { player: last, reason });
            }
            return;
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
    }

    /// Who picks first at Team Creation (`001 § Preparations`, 4. Team
    /// Creation): "Each player rolls 3 orange dice, and the one who obtains
    /// the most Successes will receive the Prime Time marker and choose
    /// first. In case of a draw, only the players whose results are the same
    /// will repeat the roll until establishing a single first player." Each
    /// player rolls in seat order (a situation's forced `dice` are used
    /// first), a line per roll; a Critical Success counts as one Success.
    fn roll_for_the_first_pick(&mut self) -> PlayerId {
        let mut rolling: Vec<PlayerId> = self.table().seats().collect();
        if !self.content.dice.contains_key("orange") {
            // No orange die loaded (a pack of its own dice): drawn at random.
            return rolling[self.state.rng.random_range(0..rolling.len())];
        }
        let pool = model::Pool { dice: vec![Id::from("orange"); 3], symbols: Vec::new() };
        // Each round of rolls leaves at least one player; a round where nobody
        // is left out is rolled again. A bounded number of rounds keeps a die
        // with no Success face (a mod's) from rolling for ever: the first
        // player of those still tied is then first.
        for _ in 0..64 {
            let mut best = 0;
            let mut results = Vec::with_capacity(rolling.len());
            for p in &rolling {
                let faces = self.roll_dice(&pool);
                let successes = faces
                    .iter()
                    .flat_map(|(_, f)| f)
                    .filter(|x| matches!(x, Symbol::Success | Symbol::CriticalSuccess))
                    .count();
                self.emit(Event::Log {
                    text: format!(
                        "{p} rolls 3 orange dice to pick first: {successes} Success{}",
                        if successes == 1 { "" } else { "es" }
                    ),
                });
                best = best.max(successes);
                results.push((*p, successes));
            }
            rolling = results.into_iter().filter(|(_, n)| *n == best).map(|(p, _)| p).collect();
            if rolling.len() == 1 || self.state.over {
                break;
            }
        }
        rolling[0]
    }

    /// Team Creation and the marker's first holder: a situation's `phase =
    /// "team-creation"`. The Draft when the game plays it (`001 § Draft`,
    /// [`Game::draft`]), then the marker ([`Game::give_first_marker`]: the
    /// Underdog at 2 players, `000 § Setup`, Step 6; Prime Time at 3-4,
    /// `001 § Preparations`, 4. Team Creation). Nothing else of the Setup
    /// is played: no hands, no Special Spaces, no Deployment.
    ///
    /// # Errors
    /// The Draft cannot be played (too few Characters), or a player has no
    /// Character.
    pub fn run_team_creation(&mut self) -> Result<()> {
        if self.rule(OptionalRule::Draft) {
            self.draft()?;
        }
        if let Some(p) = self.state.players.iter().position(|p| p.team.is_empty()) {
            return Err(format!("player {} has no Character", p + 1));
        }
        self.give_first_marker();
        Ok(())
    }

    /// Deployment (`000 § Setup`): each player in turn deploys each of its
    /// Characters not yet in the HexaDome in (or, by default, adjacent to)
    /// its zone: the Scenario's `deploy_in`.
    fn deploy_teams(&mut self) -> Result<()> {
        for p in self.table().seats() {
            let team = self.state.players[p].team.clone();
            let zone = self.state.players[p].zone;
            for c in team {
                if self.unit(&c).is_some_and(|u| matches!(u.location, Location::Space(_))) {
                    continue;
                }
                // Not onto a Special Space marker (rulings R18).
                let mut spaces = self.own_zone_spaces(p);
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
        Ok(())
    }

    /// The Team Deployment of a situation (`phase = "deployment"`): every
    /// Character not in the HexaDome is deployed as the game's Setup deploys
    /// it (`000 § Setup`; `001 § Preparations`, 8. Team Deployment).
    ///
    /// # Errors
    /// No Free space is left to deploy a Character.
    pub fn run_deployment(&mut self) -> Result<()> {
        if self.table().prime_time() { self.prime_time_deployment() } else { self.deploy_teams() }
    }

    /// The order of `picks` picks in snake order from `first` (`001 §
    /// Preparations`, 4. Team Creation and 8. Team Deployment).
    fn snake_picks(&self, first: PlayerId, picks: usize) -> Vec<PlayerId> {
        let snake = self.table().snake_from(first);
        (0..picks).map(|k| snake[k % snake.len()]).collect()
    }

    /// Prime Time's preparations after the marker ([`Game::give_first_marker`];
    /// `001 § Preparations`): the hidden objectives' deal, 7. Artifact
    /// Deployment (Special Spaces, the Scenario's `before-deployment` rules)
    /// and 8. Team Deployment, in snake order from Prime Time, in any Free
    /// space of a Deployment Zone that is neither the Central Zone nor a
    /// Scoring Zone; or, when the Scenario lists `deployment_zones` (one per
    /// player, in seat order), each player in their own zone by its
    /// `deploy_in`, as at a 2-player table (docs/rulings.md R46).
    fn prime_time_setup(&mut self) -> Result<()> {
        // Hidden objectives are dealt once the Teams are created (`001 §
        // Objective Cards (Additional Rule)`: "before advancing to step 5").
        if self.hidden_objectives() {
            self.deal_hidden_objectives();
        }
        // 7. Artifact Deployment comes before 8. Team Deployment (`001 §
        // Preparations`): Special Spaces, then Running Projectiles; the
        // Objectives Deck's first 4 cards are drawn "before deploying".
        self.place_special_spaces();
        self.setup_projectiles();
        self.prepare_objectives_deck();
        self.scenario_window(model::ScenarioWindow::BeforeDeployment, scenario::RuleCtx::default());
        self.prime_time_deployment()
    }

    /// `001 § Preparations`, 8. Team Deployment: in snake order from Prime
    /// Time, each player deploys a Character not yet in the HexaDome.
    fn prime_time_deployment(&mut self) -> Result<()> {
        let picks: usize = self.state.players.iter().map(|p| p.team.len()).sum();
        let rule = self.scenario().team_deployment.clone().unwrap_or_default();
        let barred = self.barred_zones();
        let central_counts = rule.zones == model::DeploymentZones::NotScoring;
        let zones: Vec<Id> = self
            .board
            .zones
            .iter()
            .filter(|(z, (kind, _))| {
                (*kind == model::ZoneKind::Deployment || (central_counts && *kind == model::ZoneKind::Central))
                    && !self.state.scoring_zones.contains(z)
                    && !barred.contains(z)
            })
            .map(|(z, _)| *z)
            .collect();
        let own_zones = self.own_deployment_zones()?;
        let mut deployed: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| u.minion.is_none() && u.projectile.is_none() && matches!(u.location, Location::Space(_)))
            .map(|u| u.id)
            .collect();
        let first = match rule.first {
            model::FirstToDeploy::PrimeTime => self.state.underdog,
            model::FirstToDeploy::ChosenByPrimeTime => self.first_to_deploy(),
        };
        for p in self.snake_picks(first, picks) {
            let Some(c) = self.state.players[p].team.iter().find(|c| !deployed.contains(c)).cloned() else {
                continue;
            };
            deployed.push(c);
            // "Players must deploy both their Characters in the same
            // Deployment Zone": the zone of one already deployed.
            let mine: Vec<&Id> = if rule.same_zone { self.zones_of_team(p, &zones) } else { Vec::new() };
            let allowed: Vec<&Id> = if mine.is_empty() { zones.iter().collect() } else { mine };
            let mut spaces: Vec<Hex> = if own_zones {
                self.own_zone_spaces(p)
            } else if rule.central_space {
                allowed.iter().filter_map(|z| self.central_space(z)).filter(|h| self.is_free(*h)).collect()
            } else {
                allowed.iter().flat_map(|z| self.zone_spaces(z).iter().copied()).filter(|h| self.is_free(*h)).collect()
            };
            spaces.retain(|h| !self.state.special_spaces.iter().any(|m| m.space == *h));
            spaces.sort();
            spaces.dedup();
            if spaces.is_empty() && own_zones {
                let zone = &self.state.players[p].zone;
                return Err(format!("no Free space left in or next to `{zone}` to deploy {c}"));
            }
            if spaces.is_empty() {
                return Err(format!("no Free space left in a Deployment Zone to deploy {c}"));
            }
            let options = spaces.into_iter().map(|s| Choice::Space { space: s }).collect();
            let Choice::Space { space } = self.decide(p, DecisionKind::Deploy, Some(&c), "Deploy where?", options)
            else {
                unreachable!()
            };
            self.unit_mut(&c).expect("unit").location = Location::Space(space);
            self.emit(Event::Deployed { character: c, space });
        }
        Ok(())
    }

    /// "Prime Time decides which player deploys one of their Characters
    /// first" (`001 § DeathMatch - Ballroom Dancing`): Prime Time's answer,
    /// any player (itself included).
    fn first_to_deploy(&mut self) -> PlayerId {
        let prime_time = self.state.underdog;
        let seats: Vec<PlayerId> = self.table().order_from(prime_time);
        let options = seats.iter().map(|p| Choice::Pick { id: p.to_string().into() }).collect();
        let Choice::Pick { id } =
            self.decide(prime_time, DecisionKind::Deploy, None, "Which player deploys first?", options)
        else {
            unreachable!()
        };
        seats.into_iter().find(|p| p.to_string() == id).unwrap_or(prime_time)
    }

    /// The zones of `zones` where player `p` already has a Character.
    fn zones_of_team<'z>(&self, p: PlayerId, zones: &'z [Id]) -> Vec<&'z Id> {
        let spaces: Vec<Hex> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == p && u.minion.is_none() && u.projectile.is_none())
            .filter_map(|u| match u.location {
                Location::Space(h) => Some(h),
                _ => None,
            })
            .collect();
        zones.iter().filter(|z| self.zone_spaces(z).iter().any(|h| spaces.contains(h))).collect()
    }

    /// A zone's central space: the one with the least total distance to the
    /// zone's others (the lowest such space on a tie).
    fn central_space(&self, zone: &str) -> Option<Hex> {
        let spaces = self.zone_spaces(zone);
        spaces.iter().copied().min_by_key(|h| (spaces.iter().map(|o| h.distance(*o)).sum::<u32>(), *h))
    }

    /// The Free spaces a player deploys on in their own Deployment Zone: the
    /// zone, or (by default) the zone and the spaces next to it (the
    /// Scenario's `deploy_in`).
    fn own_zone_spaces(&self, p: PlayerId) -> Vec<Hex> {
        let zone = &self.state.players[p].zone;
        match self.scenario().deploy_in {
            model::DeployIn::ZoneOrAdjacent => self.zone_and_adjacent_free(zone),
            model::DeployIn::Zone => self.zone_spaces(zone).iter().copied().filter(|h| self.is_free(*h)).collect(),
        }
    }

    /// Whether each player deploys in their own zone at this Prime Time
    /// table: the Scenario lists `deployment_zones`, one per player. A list
    /// with fewer zones than players is refused (`arena check` says so
    /// first): it cannot say where the others deploy (docs/rulings.md R46).
    fn own_deployment_zones(&self) -> Result<bool> {
        let listed = &self.scenario().deployment_zones;
        let seats = self.table().len();
        if listed.is_empty() {
            return Ok(false);
        }
        if listed.len() < seats {
            return Err(format!(
                "Scenario `{}` lists {} deployment_zones for {seats} players: one per player, or none for 001's deployment in any Deployment Zone (docs/rulings.md R46)",
                self.scenario().id,
                listed.len()
            ));
        }
        Ok(true)
    }

    /// The Underdog instead of Prime Time (`001 § Underdog`): "Once all
    /// Teams have been created, the player with the lowest combined
    /// Initiatives receives the Underdog marker. In case two or more players
    /// are tied, choose the Underdog randomly" (the game's RNG stands for
    /// the roll of 3 orange dice).
    fn underdog_after_team_creation(&mut self) {
        let total = |g: &Self, p: PlayerId| -> u32 {
            g.state.players[p].team.iter().map(|c| g.card(c).initiative as u32).sum()
        };
        let totals: Vec<(PlayerId, u32)> = self.table().seats().map(|p| (p, total(self, p))).collect();
        let lowest = totals.iter().map(|(_, t)| *t).min().unwrap_or(0);
        let tied: Vec<PlayerId> = totals.iter().filter(|(_, t)| *t == lowest).map(|(p, _)| *p).collect();
        let (underdog, reason) = if tied.len() == 1 {
            (tied[0], format!("the lowest combined Initiatives, {lowest}"))
        } else {
            let i = self.state.rng.random_range(0..tied.len());
            (
                tied[i],
                format!("{} players tied on the lowest combined Initiatives, {lowest}: drawn at random", tied.len()),
            )
        };
        self.state.underdog = underdog;
        self.emit(Event::Underdog { player: underdog, reason });
    }
}
