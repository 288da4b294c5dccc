//! The Scenario's rules at play: each rule performed at its window, by its
//! declarative keys or its Lua (`000 § Scenarios`, `000 § Phase 3:
//! Objectives`; `001 § Scenarios`). What a Scenario does is its data: no
//! Scenario or rule id appears here. How to write one: docs/scenarios.md.

use super::*;
use crate::model::Id;
use model::ScenarioWindow;

/// The Scenario's rules to perform at each window, by the window's index.
pub(super) fn hooks(scenario: &model::Scenario) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); ScenarioWindow::ALL.len()];
    for (i, rule) in scenario.rules.iter().enumerate() {
        if let Some(w) = rule.window() {
            out[w.index()].push(i);
        }
    }
    out
}

/// Who and what a Scenario rule is performed for (its `ctx`).
#[derive(Debug, Clone, Default)]
pub(super) struct RuleCtx {
    /// The Character concerned (`ctx.self`).
    pub(super) character: Option<Id>,
    /// The player concerned (`ctx.player`).
    pub(super) player: Option<PlayerId>,
    /// The zone entered (`ctx.zone`).
    pub(super) zone: Option<Id>,
    /// The State imposed (`ctx.state`).
    pub(super) state: Option<Id>,
}

impl RuleCtx {
    /// For a Character and its player.
    pub(super) fn of(character: &str, player: PlayerId) -> RuleCtx {
        RuleCtx { character: Some(character.into()), player: Some(player), ..RuleCtx::default() }
    }
}

impl<'a> Game<'a> {
    /// The Scenario being played.
    pub(super) fn scenario(&self) -> &'a model::Scenario {
        let content: &'a Content = self.content;
        &content.scenarios[&self.state.scenario].value
    }

    /// Whether the Scenario has rules at a window.
    pub(super) fn has_scenario_rules(&self, w: ScenarioWindow) -> bool {
        !self.scenario_hooks[w.index()].is_empty()
    }

    /// Perform the Scenario's rules of a window, in the order the Scenario
    /// lists them. Set off while an effect runs, they wait until it has run
    /// (effects do not run inside effects, rulings R19).
    pub(super) fn scenario_window(&mut self, w: ScenarioWindow, at: RuleCtx) {
        if !self.has_scenario_rules(w) || self.state.over {
            return;
        }
        if self.in_effect() {
            self.effect_frame.after_effect.push_back(AfterEffect::Scenario(w, at));
            return;
        }
        // The hooks never change during a game: shared, not copied.
        let hooks = self.scenario_hooks.clone();
        for &i in &hooks[w.index()] {
            if self.state.over {
                break;
            }
            self.perform_rule(i, w, &at);
        }
    }

    fn perform_rule(&mut self, i: usize, w: ScenarioWindow, at: &RuleCtx) {
        let rule = &self.scenario().rules[i];
        if let Some(objective) = &rule.objective {
            self.score_zone_objective(rule, objective);
        }
        if let Some(m) = &rule.move_scoring_zone {
            self.move_scoring_zone(m, w);
        }
        if !rule.rewards.is_empty() {
            self.reward(rule, at);
        }
        if rule.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some()) {
            self.run_rule_effect(i, at);
        }
    }

    /// The spaces of a zone, or of every current Scoring Zone for
    /// [`model::SCORING_ZONE`].
    pub(super) fn zone_or_scoring_spaces(&self, zone: &str) -> Vec<Hex> {
        if zone == model::SCORING_ZONE {
            let mut all: Vec<Hex> =
                self.state.scoring_zones.iter().flat_map(|z| self.zone_spaces(z).iter().copied()).collect();
            all.sort();
            all.dedup();
            all
        } else {
            self.zone_spaces(zone).to_vec()
        }
    }

    /// The Characters in some spaces (not Minions, not Running Projectiles:
    /// `002 § Minion`, `001 § Running Projectiles`), of one player or all.
    pub(super) fn characters_in(&self, spaces: &[Hex], player: Option<PlayerId>) -> Vec<Id> {
        self.state
            .units
            .iter()
            .filter(|u| player.is_none_or(|p| u.owner == p) && u.minion.is_none() && u.projectile.is_none())
            .filter(|u| matches!(u.location, Location::Space(h) if spaces.contains(&h)))
            .map(|u| u.id)
            .collect()
    }

    /// A player scores Victory Points for an objective (`000 § Victory Points`).
    pub(super) fn gain_victory_points(&mut self, p: PlayerId, amount: u8, objective: &str) {
        // Once the game has ended (`game:end_game` earlier in the same
        // effect), the result stands: nothing more is scored (rulings R45).
        if amount == 0 || self.state.over {
            return;
        }
        let round = self.state.round.max(1) as usize;
        while self.state.scored.len() < round {
            self.state.scored.push(Seated::splat(self.table(), 0));
        }
        // Saturating: Victory Points never wrap round to a small number
        // (which would make the leader lose).
        let scored = &mut self.state.scored[round - 1][p];
        *scored = scored.saturating_add(u32::from(amount));
        let total = &mut self.state.players[p].victory_points;
        *total = total.saturating_add(u32::from(amount));
        let total = self.state.players[p].victory_points;
        self.emit(Event::VictoryPoints { player: p, gained: amount, total, objective: objective.into() });
    }

    /// The Victory Points a player gained in a Round (0 for one not played).
    pub(super) fn scored_in(&self, p: PlayerId, round: i64) -> u32 {
        usize::try_from(round - 1).ok().and_then(|r| self.state.scored.get(r)).map_or(0, |s| s[p])
    }

    /// A Frag a player earned this Round, for `game:frags_earned`.
    pub(super) fn count_frag(&mut self, p: PlayerId) {
        let round = self.state.round.max(1) as usize;
        while self.state.fragged.len() < round {
            self.state.fragged.push(Seated::splat(self.table(), 0));
        }
        let earned = &mut self.state.fragged[round - 1][p];
        *earned = earned.saturating_add(1);
    }

    /// The Frags a player earned in a Round (0 for one not played).
    pub(super) fn frags_in(&self, p: PlayerId, round: i64) -> u32 {
        usize::try_from(round - 1).ok().and_then(|r| self.state.fragged.get(r)).map_or(0, |s| s[p])
    }

    /// A Scoring Zone objective (`000 § Phase 3: Objectives`).
    fn score_zone_objective(&mut self, rule: &model::ScenarioRule, o: &model::ZoneObjective) {
        let spaces = self.zone_or_scoring_spaces(&o.zone);
        let seats: Vec<PlayerId> = self.table().seats().collect();
        let counts: Vec<usize> = seats.iter().map(|p| self.characters_in(&spaces, Some(*p)).len()).collect();
        let scored = o.scores.scorers(u32::from(rule.vp.unwrap_or(0)), &counts);
        let scorers = seats.into_iter().zip(scored).filter(|(_, vp)| *vp > 0);
        for (p, amount) in scorers {
            self.gain_victory_points(p, amount.min(255) as u8, &rule.id);
        }
    }

    /// The Scoring Zone moves: the chooser picks among the allowed zones
    /// (`000 § Phase 3: Objectives`; `001 § Wanted`). Nothing happens when no
    /// zone is allowed.
    fn move_scoring_zone(&mut self, m: &model::MoveScoringZone, w: ScenarioWindow) {
        if m.only_if_scored {
            // In the Objectives and Recovery Phases, this Round; earlier in a
            // Round, the previous one.
            let this_round = w >= ScenarioWindow::CheckObjectives;
            let round = self.state.round as i64 - i64::from(!this_round);
            if self.table().seats().all(|p| self.scored_in(p, round) == 0) {
                return;
            }
        }
        let chooser = self.chooser(m.chosen_by);
        let near: BTreeSet<&str> = match m.to {
            model::ZoneChoice::EmptyDeploymentZone => BTreeSet::new(),
            model::ZoneChoice::AdjacentEmptyDeploymentZone => {
                let map = &self.content.maps[&self.scenario().map].value;
                map.zones
                    .iter()
                    .filter(|z| self.state.scoring_zones.contains(&z.id))
                    .flat_map(|z| z.adjacent.iter().map(Id::as_str))
                    .collect()
            }
        };
        let adjacent_only = m.to == model::ZoneChoice::AdjacentEmptyDeploymentZone;
        let candidates: Vec<Id> = self
            .board
            .zones
            .iter()
            // Adjacent zones are the map's list, the Central Zone included
            // ("the Central Deployment Zone", `001 § Wanted`).
            .filter(
                |(id, (kind, _))| {
                    if adjacent_only { near.contains(id.as_str()) } else { *kind == model::ZoneKind::Deployment }
                },
            )
            .filter(|(_, (_, spaces))| self.characters_in(spaces, None).is_empty())
            .map(|(id, _)| *id)
            .collect();
        if candidates.is_empty() {
            return;
        }
        let options = candidates.into_iter().map(|z| Choice::Pick { id: z }).collect();
        if let Choice::Pick { id } = self.decide(
            chooser,
            DecisionKind::ScoringZone,
            None,
            "Which Deployment Zone becomes the Scoring Zone?",
            options,
        ) {
            self.set_scoring_zones(vec![id]);
        }
    }

    /// The Scoring Zones are now these; the narrative says so.
    pub(super) fn set_scoring_zones(&mut self, zones: Vec<Id>) {
        self.state.scoring_zones = zones.as_slice().into();
        match <[Id; 1]>::try_from(zones) {
            Ok([zone]) => self.emit(Event::ScoringZone { zone }),
            Err(zones) => self.emit(Event::ScoringZones { zones }),
        }
    }

    /// The player a rule names.
    pub(super) fn chooser(&self, c: model::Chooser) -> PlayerId {
        match c {
            // No Prime Time marker in a game of the Underdog token: the
            // Underdog has its role (rulings R30).
            model::Chooser::Underdog | model::Chooser::PrimeTime => self.state.underdog,
        }
    }

    /// A reward table: the player credited with the Frag scores the row of the
    /// Character sent (`001 § Wanted`, Additional Scoring).
    fn reward(&mut self, rule: &model::ScenarioRule, at: &RuleCtx) {
        let (Some(character), Some(player)) = (&at.character, at.player) else { return };
        let Some(row) = rule.rewards.iter().find(|r| r.character == *character) else { return };
        self.gain_victory_points(player, row.vp, &rule.id);
        if row.tactic {
            // "the possibility of drawing 1 Tactic": a Tactic is always worth
            // having, so it is drawn (rulings R30).
            self.draw(player, 1);
        }
    }

    /// The player credited with a Character's Frag: the opponent of its
    /// player in a 2-player game (`000 § Frags`).
    pub(super) fn frag_credit(&self, owner: PlayerId) -> Option<PlayerId> {
        // Prime Time credits each Frag as the Character goes to the Bench
        // (`damage.rs`, `send_to_bench`); this is for 2-player games.
        (self.table().len() == 2).then(|| self.table().opponent(owner))
    }

    /// Run a Scenario rule's Lua, as the rule's player when it has one.
    fn run_rule_effect(&mut self, i: usize, at: &RuleCtx) {
        let rule = &self.scenario().rules[i];
        let card = format!("scenario:{}", self.state.scenario);
        let path = format!("rules[id={}].effect", rule.id);
        let Some(script) = self.runtime.scripts().find(&card, &path) else { return };
        let ctx = Ctx {
            self_id: at.character,
            player: at.player.map(|p| p.number() as i64),
            zone: at.zone,
            state: at.state,
            ..Ctx::default()
        };
        let outer_rule = self.effect_frame.scenario_rule.replace(i);
        let outer_player = std::mem::replace(&mut self.effect_frame.effect_player, at.player);
        self.call_effect(script, &card, &path, &ctx, None);
        self.effect_frame.effect_player = outer_player;
        self.effect_frame.scenario_rule = outer_rule;
    }

    /// A Character entered a space: the Scenario's `space-entered` rules, and
    /// `zone-entered` for each zone it was not in before.
    pub(super) fn scenario_entered(&mut self, id: &str, from: Option<Hex>, space: Hex) {
        let Some(owner) = self.unit(id).map(|u| u.owner) else { return };
        self.scenario_window(ScenarioWindow::SpaceEntered, RuleCtx::of(id, owner));
        if !self.has_scenario_rules(ScenarioWindow::ZoneEntered) {
            return;
        }
        let entered: Vec<Id> = self
            .board
            .zones
            .iter()
            .filter(|(_, (_, spaces))| spaces.contains(&space) && from.is_none_or(|f| !spaces.contains(&f)))
            .map(|(z, _)| *z)
            .collect();
        for zone in entered {
            if self.space_of(id) != Some(space) {
                return;
            }
            let at = RuleCtx { zone: Some(zone), ..RuleCtx::of(id, owner) };
            self.scenario_window(ScenarioWindow::ZoneEntered, at);
        }
    }

    /// The game ends now: the most Victory Points wins, then the most Frags
    /// if the Scenario says so; otherwise a draw (`000 § Phase 3: Objectives`).
    pub(super) fn end_game(&mut self) {
        // A game ends once (a second `game:end_game` changes nothing).
        if self.state.over {
            return;
        }
        let vp = Seated::from_fn(self.table(), |p| self.state.players[p].victory_points);
        let frags = Seated::from_fn(self.table(), |p| self.state.players[p].frags);
        let best = vp.iter().copied().max().unwrap_or(0);
        let mut tied: Vec<PlayerId> = self.table().seats().filter(|p| vp[*p] == best).collect();
        if tied.len() > 1 && self.scenario().frags_break_ties {
            let most = tied.iter().map(|p| frags[*p]).max().unwrap_or(0);
            tied.retain(|p| frags[*p] == most);
        }
        let winner = (tied.len() == 1).then(|| tied[0]);
        self.state.over = true;
        let rounds = self.state.round;
        self.emit(Event::GameEnded { winner, victory_points: vp, frags, rounds });
    }
}
