//! Aristeia! in the registry: [`AristeiaRules`] (its table, which names are
//! its setups, how a request becomes its games, its tally, readouts and
//! smoke games) and [`AristeiaSpec`], what one request plays. [`Named`] is
//! the one place that tells what a name stands for: a setup id, a Scenario
//! id, and the Scenario's default seat count.

use super::aristeia_game::{self, GameSummary, Teams};
use super::aristeia_text;
use super::policy::Policy;
use super::rules::{
    BatchTally, Played, ReportContext, Request, Rules, Smoke, SmokeTable, Spec, Summary, Text, WatchBatch,
};
use super::situation::{AristeiaSituation, SituationError, SituationFile};
use super::tally::Tally;
use crate::content::Content;
use crate::rules::game::{GameSetup, OptionalRule};
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::{self, AristeiaSetup, Engine, Player, Setup, Table};
use std::collections::BTreeSet;
use std::sync::Arc;

/// What an Aristeia! name stands for in the content (`arena sim NAME`, the
/// viewer's `setup=` and `scenario=`, `arena watch --sim`): a setup id
/// names itself and its Scenario; a Scenario id names itself and its first
/// ready-made setup, if it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The setup: the name, or the Scenario's first ready-made setup.
    pub setup: Option<String>,
    /// The Scenario: the name, or the setup's.
    pub scenario: Option<String>,
}

impl Named {
    /// What `name` stands for in `content`.
    pub fn of(content: &Content, name: &str) -> Named {
        let setup = if content.setups.contains_key(name) {
            Some(name.to_string())
        } else {
            content.setups.values().find(|s| s.value.scenario == name).map(|s| s.value.id.to_string())
        };
        let scenario = if content.scenarios.contains_key(name) {
            Some(name.to_string())
        } else {
            content.setups.get(name).map(|s| s.value.scenario.to_string())
        };
        Named { setup, scenario }
    }

    /// Whether the name is a setup or a Scenario.
    pub fn is_known(&self) -> bool {
        self.setup.is_some() || self.scenario.is_some()
    }

    /// How many seats a table of its Scenario has by default (2, or Prime
    /// Time's 3: `GameSetup::default_seats`); 2 without a loaded Scenario.
    pub fn default_seats(&self, content: &Content) -> usize {
        self.scenario
            .as_ref()
            .and_then(|s| content.scenarios.get(s.as_str()))
            .map_or(2, |s| GameSetup::default_seats(&s.value))
    }

    /// The seat counts its Scenario allows (`players`: min to max), if loaded.
    pub fn seat_range(&self, content: &Content) -> Option<(usize, usize)> {
        let sc = content.scenarios.get(self.scenario.as_deref()?)?;
        Some((sc.value.players.min as usize, sc.value.players.max as usize))
    }
}

/// What one Aristeia! request plays: a ready-made setup or random teams of
/// a Scenario, at a number of seats, with optional rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AristeiaSpec {
    /// The setup, as a replay file records it (`seats` always set).
    pub setup: AristeiaSetup,
    /// How many seats.
    pub seats: usize,
}

impl AristeiaSpec {
    /// The teams its games play.
    pub fn teams(&self) -> Teams {
        if self.setup.random_teams {
            Teams::Random(self.setup.name.clone())
        } else {
            Teams::Setup(self.setup.name.clone())
        }
    }

    /// The optional rules played.
    pub fn optional_rules(&self) -> &BTreeSet<OptionalRule> {
        &self.setup.optional_rules
    }

    /// The setup's name in a batch's first line and JSON: the setup id, or
    /// `<scenario> (random teams)`.
    pub fn title(&self) -> String {
        match self.teams() {
            Teams::Setup(s) => s,
            Teams::Random(s) => format!("{s} (random teams)"),
        }
    }

    fn game_setup(&self, content: &Content, seed: u64) -> Result<GameSetup, String> {
        self.teams().setup_with(content, seed, self.seats, &self.setup.optional_rules)
    }
}

impl Spec for AristeiaSpec {
    fn rules(&self) -> &'static dyn Rules {
        &AristeiaRules
    }

    fn seats(&self) -> usize {
        self.seats
    }

    fn head(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut head = serde_json::Map::new();
        head.insert("setup".into(), self.title().into());
        if !self.setup.optional_rules.is_empty() {
            head.insert("optional_rules".into(), serde_json::to_value(&self.setup.optional_rules).unwrap_or_default());
        }
        head
    }

    fn summary(&self, content: &Content, runtime: &Runtime, seed: u64, players: &[Policy]) -> Box<dyn Summary> {
        Box::new(aristeia_game::summarize(content, runtime, self.game_setup(content, seed), seed, players))
    }

    fn failed(&self, seed: u64, error: String) -> Box<dyn Summary> {
        Box::new(GameSummary::of(seed, Err(error)))
    }

    fn play(
        &self,
        content: &Content,
        runtime: &Runtime,
        seed: u64,
        players: &mut [Box<dyn Player>],
    ) -> Result<Box<dyn Played>, String> {
        let setup = self.game_setup(content, seed)?;
        if super::at_table::any_searches(players) {
            return Ok(Box::new(aristeia_game::play_at_table(content, runtime, &setup, players)?));
        }
        let seats = players.iter_mut().map(|p| p as &mut dyn crate::rules::decision::Controller).collect();
        Ok(Box::new(aristeia_game::play(content, runtime, &setup, seats)?))
    }

    fn recorded(&self) -> serde_json::Value {
        serde_json::to_value(&self.setup).unwrap_or_default()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Aristeia! (`000`-`004`): 2 seats, 3-4 in Prime Time's Scenarios.
pub struct AristeiaRules;

impl AristeiaRules {
    /// How many players sit at the table of `request` for `named`:
    /// `--seats`, else one per `--players` value, else the setup's teams,
    /// else the Scenario's default (2, or Prime Time's 3).
    fn seat_count(content: &Content, request: &Request, named: &Named, setup: &str) -> Result<usize, String> {
        let setup_seats =
            (!request.random_teams).then(|| content.setups.get(setup).map(|s| s.value.teams.len())).flatten();
        let n_seats = match (request.seats, request.players) {
            (Some(n), k) if k > 1 && k != n => {
                return Err(format!(
                    "--seats {n} but --players names {k} controllers: give one per seat, or one for all"
                ));
            }
            (Some(n), _) => n,
            (None, k) if k > 1 => k,
            (None, _) => setup_seats.unwrap_or_else(|| named.default_seats(content)),
        };
        if !(2..=4).contains(&n_seats) {
            return Err(format!("{n_seats} players: a game has 2 to 4 (--players names one controller per seat)"));
        }
        if let (Some((min, max)), Some(scenario)) = (named.seat_range(content), &named.scenario) {
            if !(min..=max).contains(&n_seats) {
                return Err(format!(
                    "`{scenario}` is a {min}-{max} player Scenario, not for {n_seats} (use --seats N or one --players value per seat)"
                ));
            }
        }
        if let Some(k) = setup_seats.filter(|k| *k != n_seats) {
            return Err(format!(
                "setup `{setup}` seats {k} players, not {n_seats} (add --random-teams for other tables)"
            ));
        }
        Ok(n_seats)
    }
}

impl Rules for AristeiaRules {
    fn name(&self) -> &'static str {
        <table::Aristeia<'_> as Engine<'_>>::NAME
    }

    fn seat_counts(&self) -> &'static [usize] {
        &[2, 3, 4]
    }

    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String> {
        aristeia_game::runtime(content, scripts)
    }

    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let game = if content.setups.contains_key(setup.name.as_str()) {
            let g = GameSetup::from_content(content, &setup.name, setup.seed)?;
            let n = g.teams.table().len();
            if setup.seats.is_some_and(|s| s != n) {
                return Err(format!("setup `{}` is for {n} players", setup.name));
            }
            g
        } else if let Some(sc) = content.scenarios.get(setup.name.as_str()) {
            let seats = setup.seats.unwrap_or_else(|| GameSetup::default_seats(&sc.value));
            GameSetup::random(content, &setup.name, seats, setup.seed)?
        } else {
            return Err(format!("no setup or Scenario `{}` is loaded", setup.name));
        };
        Ok(Box::new(table::start_aristeia(content, runtime, &game)?))
    }

    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let setup: AristeiaSetup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("not an Aristeia! setup: {e}"))?;
        Ok(Box::new(table::start_aristeia(content, runtime, &setup.game_setup(content, seed)?)?))
    }

    fn owns(&self, content: &Content, name: &str) -> bool {
        Named::of(content, name).is_known()
    }

    fn names(&self, content: &Content) -> Vec<String> {
        content.setups.keys().chain(content.scenarios.keys()).map(|k| k.to_string()).collect()
    }

    fn resolve(&self, content: &Content, request: &Request) -> Result<Box<dyn Spec>, String> {
        if request.rulebook_deal {
            return Err("--deal is for Invictus (`arena sim invictus --deal rulebook`): an Aristeia! table has Characters, not gods".into());
        }
        if !request.gods.is_empty() {
            return Err("--gods is for Invictus (`arena sim invictus --gods athena,zeus,...`): an Aristeia! table has Characters, not gods".into());
        }
        if request.seating.is_some() {
            return Err("--seating is for Invictus (`arena sim invictus --seating ...`); an Aristeia! table seats its players clockwise in the order of --players".into());
        }
        let name = &request.name;
        let named = Named::of(content, name);
        let scenario = content.scenarios.get(name.as_str());
        let mut random_teams = request.random_teams;
        let setup_id = match (&named.setup, scenario) {
            (Some(s), _) => s.clone(),
            // Random teams need only the Scenario.
            (None, Some(_)) if random_teams => String::new(),
            // A Prime Time Scenario (3-4 players) without a ready-made setup:
            // its teams are picked at the table (`001 § Preparations`), so
            // random teams, as --random-teams would draw them.
            (None, Some(sc)) if sc.value.players.min > 2 => {
                random_teams = true;
                String::new()
            }
            (None, sc) => {
                let hint = if sc.is_some() { " (it has no ready-made setup: add --random-teams)" } else { "" };
                return Err(format!("no setup, and no Scenario with a ready-made setup, is called `{name}`{hint}"));
            }
        };
        let request = Request { random_teams, ..request.clone() };
        let seats = Self::seat_count(content, &request, &named, &setup_id)?;
        // The optional rules (`001 § Additional Rules`): a rule 001 gives only
        // for Prime Time tables is a usage error at another table.
        let rules: BTreeSet<OptionalRule> =
            request.optional_rules.iter().map(|r| r.parse::<OptionalRule>()).collect::<Result<_, _>>()?;
        if let Some(why) = OptionalRule::refuse_any(&rules, seats) {
            let prime_time_scenario = named
                .scenario
                .as_ref()
                .and_then(|s| content.scenarios.get(s.as_str()))
                .is_some_and(|sc| sc.value.players.max > 2);
            let hint = if seats == 2 && prime_time_scenario {
                " (--seats 3 or 4 plays Prime Time; with --random-teams for a 2-player setup)"
            } else {
                ""
            };
            return Err(format!("{why}{hint}"));
        }
        let name = if random_teams { named.scenario.clone().unwrap_or_default() } else { setup_id };
        let setup = AristeiaSetup { name, random_teams, seats: Some(seats), optional_rules: rules };
        Ok(Box::new(AristeiaSpec { setup, seats }))
    }

    fn batch_kind(&self) -> &'static str {
        "sim-batch"
    }

    fn tally(&self, games: &[Box<dyn Summary>]) -> Box<dyn BatchTally> {
        Box::new(Tally::of(aristeia_text::summaries(games)))
    }

    fn read_tally(&self, tally: &serde_json::Value) -> Result<Box<dyn BatchTally>, String> {
        Ok(Box::new(serde_json::from_value::<Tally>(tally.clone()).map_err(|e| e.to_string())?))
    }

    fn heading(&self, head: &serde_json::Value, games: u64) -> String {
        aristeia_text::heading(head, games)
    }

    fn smoke(&self, content: &Content, n: u64) -> Option<Smoke> {
        let spec = |setup: AristeiaSetup, seats| Box::new(AristeiaSpec { setup, seats }) as Box<dyn Spec>;
        let plain = |name: &str, random_teams, seats| AristeiaSetup {
            name: name.to_string(),
            random_teams,
            seats: Some(seats),
            optional_rules: BTreeSet::new(),
        };
        let mut tables = Vec::new();
        // Every ready-made setup, by Scenario.
        for sc in content.scenarios.keys() {
            for s in content.setups.values().filter(|s| s.value.scenario == *sc) {
                let seats = s.value.teams.len();
                tables.push(SmokeTable::mixed(
                    s.value.id.to_string(),
                    spec(plain(&s.value.id, false, seats), seats),
                    n,
                ));
            }
        }
        // Random teams for every Scenario too, so every loaded Character plays:
        // each number of players it allows (Prime Time's 3 and 4).
        for (scenario, sc) in content.scenarios.iter() {
            let players = &sc.value.players;
            for seats in (players.min.max(2) as usize)..=(players.max.min(4) as usize) {
                let what = if seats == GameSetup::default_seats(&sc.value) {
                    format!("{scenario} --random-teams")
                } else {
                    format!("{scenario} --random-teams --seats {seats}")
                };
                tables.push(SmokeTable::mixed(what, spec(plain(scenario, true, seats), seats), n));
            }
        }
        let count: usize =
            content.scenarios.values().map(|s| (s.value.players.min.max(2)..=s.value.players.max.min(4)).count()).sum();
        let said = format!(
            "{n} seeded games of each of {} Scenario(s) at each number of players they allow ({count} tables), with their setups and with random teams",
            content.scenarios.len()
        );
        Some(Smoke { tables, said })
    }

    fn situation(&self, text: &str) -> Result<Box<dyn SituationFile>, SituationError> {
        let situation = toml::from_str(text).map_err(|e: toml::de::Error| SituationError::of_toml(text, &e))?;
        Ok(Box::new(AristeiaSituation { situation, text: text.to_string() }))
    }

    fn watch_text(&self, now: &WatchBatch, before: Option<&WatchBatch>) -> Text {
        aristeia_text::watch_text(now, before, &|b| {
            b.spec.as_any().downcast_ref::<AristeiaSpec>().map(AristeiaSpec::teams)
        })
    }

    fn watch_paired_half_width(&self, now: &WatchBatch, before: &WatchBatch) -> Option<f64> {
        aristeia_text::paired_half_width(now, before, &|b| {
            b.spec.as_any().downcast_ref::<AristeiaSpec>().map(AristeiaSpec::teams)
        })
    }
}

/// Aristeia!'s tally as the runner and `arena sim merge` see it.
impl BatchTally for Tally {
    fn merge(&mut self, other: &dyn BatchTally) -> Result<(), String> {
        let other = other.as_any().downcast_ref::<Tally>().ok_or("the tallies are of two different games")?;
        Tally::merge(self, other)
    }

    fn check(&self, seeds: std::ops::Range<u64>, seats: usize) -> Result<(), String> {
        Tally::check(self, seeds, seats)
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn report_json(&self) -> serde_json::Value {
        serde_json::to_value(self.report()).unwrap_or_default()
    }

    fn clean(&self) -> bool {
        self.errors + self.games_with_effect_failures == 0
    }

    fn text(&self, games: &[Box<dyn Summary>], players: &[Policy], context: &ReportContext<'_>) -> Text {
        aristeia_text::batch_text(self, games, players, context)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}
