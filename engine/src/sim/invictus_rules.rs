//! Invictus in the registry: [`InvictusRules`] (its table, how a request
//! becomes its games, its tally, readouts and smoke games) and
//! [`InvictusSpec`], what one request plays: the default batch of `arena
//! sim invictus` and `arena watch --sim invictus` is four players in two
//! teams, standard seating (`003 § Team Assignment`).

use super::batch::{cycle, failures_warning};
use super::invictus::{self as isim, GameSummary, InvictusPlayed, InvictusTally};
use super::policy::Policy;
use super::rules::{BatchTally, Mix, Played, Request, Rules, Smoke, SmokeTable, Spec, Summary, Text, WatchBatch};
use super::situation::{InvictusSituation, SituationError, SituationFile};
use crate::content::Content;
use crate::invictus::{GodDeal, InvictusSetup, Seating};
use crate::rules::game::OptionalRule;
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::{self, Engine, Player, Setup, Table};
use std::fmt::Write as _;
use std::sync::Arc;

/// The seats of an Invictus request without `--seats`.
pub const DEFAULT_SEATS: usize = 4;

/// The seating a name gives (`003 § Team Assignment`): `standard` (or
/// `teams`, or empty), `every-other`, `random`, `free-for-all`.
///
/// # Errors
/// Any other name.
pub fn seating(name: &str) -> Result<Seating, String> {
    Ok(match name {
        "" | "teams" | "standard" => Seating::Standard,
        "every-other" => Seating::EveryOther,
        "random" => Seating::Random,
        "free-for-all" => Seating::FreeForAll,
        other => return Err(format!("`{other}` is no Invictus seating: teams, every-other, random or free-for-all")),
    })
}

/// What one Invictus request plays: its setup.
#[derive(Debug, Clone)]
pub struct InvictusSpec {
    /// The setup of every game.
    pub setup: InvictusSetup,
}

impl Spec for InvictusSpec {
    /// The two teams of the seating; a free-for-all or a random seating
    /// (drawn at the game's start), alternate seats.
    fn sides(&self) -> Vec<usize> {
        use crate::invictus::Seating;
        match self.setup.seating {
            Seating::Standard | Seating::EveryOther => self.setup.teams_by_seat(None),
            Seating::FreeForAll | Seating::Random => (0..self.setup.players).map(|s| s % 2).collect(),
        }
    }

    fn rules(&self) -> &'static dyn Rules {
        &InvictusRules
    }

    fn seats(&self) -> usize {
        self.setup.players
    }

    fn head(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut head = serde_json::Map::new();
        head.insert("setup".into(), serde_json::to_value(&self.setup).unwrap_or_default());
        head
    }

    fn summary(&self, content: &Content, runtime: &Runtime, seed: u64, players: &[Policy]) -> Box<dyn Summary> {
        Box::new(isim::batch_game(content, runtime, &self.setup, seed, players))
    }

    fn failed(&self, seed: u64, error: String) -> Box<dyn Summary> {
        Box::new(GameSummary::failed(seed, error))
    }

    fn play(
        &self,
        content: &Content,
        runtime: &Runtime,
        seed: u64,
        players: &mut [Box<dyn Player>],
    ) -> Result<Box<dyn Played>, String> {
        if super::at_table::any_searches(players) {
            let record = isim::play_at_table(content, runtime, &self.setup, seed, players)?;
            return Ok(Box::new(InvictusPlayed { setup: self.setup.clone(), record }));
        }
        let controllers =
            players.iter_mut().map(|p| Box::new(p) as Box<dyn crate::invictus::Controller + '_>).collect();
        let record = isim::play_with(content, runtime, &self.setup, seed, controllers)?;
        Ok(Box::new(InvictusPlayed { setup: self.setup.clone(), record }))
    }

    fn recorded(&self) -> serde_json::Value {
        serde_json::to_value(&self.setup).unwrap_or_default()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Invictus (`003`): 2, 4 or 6 seats in two teams, or 3 to 6 in a free-for-all.
pub struct InvictusRules;

impl Rules for InvictusRules {
    fn name(&self) -> &'static str {
        <table::Invictus<'_> as Engine<'_>>::NAME
    }

    fn seat_counts(&self) -> &'static [usize] {
        &[2, 3, 4, 5, 6]
    }

    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String> {
        isim::runtime(content, scripts)
    }

    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let game = InvictusSetup { seating: seating(&setup.name)?, ..InvictusSetup::teams(setup.seats.unwrap_or(2)) };
        Ok(Box::new(table::start_invictus(content, runtime, &game, setup.seed)?))
    }

    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String> {
        let setup: InvictusSetup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("not an Invictus setup: {e}"))?;
        Ok(Box::new(table::start_invictus(content, runtime, &setup, seed)?))
    }

    fn resolve(&self, content: &Content, request: &Request) -> Result<Box<dyn Spec>, String> {
        if request.compare {
            return Err("--compare is for Aristeia! batches; Invictus batches cannot be compared yet".into());
        }
        if request.random_teams {
            return Err("--random-teams draws Aristeia! teams; Invictus deals one god to each seat (`--deal even`, the default, or `--deal rulebook`, or `--gods`)".into());
        }
        if let Some(r) = request.optional_rules.first() {
            let section = r.parse::<OptionalRule>().map(|r| r.section().to_string()).unwrap_or_else(|e| e);
            return Err(format!("--optional-rule {r} is an Aristeia! Prime Time rule ({section}); Invictus has none"));
        }
        if content.gods.is_empty() {
            return Err("no Invictus god is loaded: add --pack content/invictus".into());
        }
        let seating = seating(request.seating.as_deref().unwrap_or_default())?;
        let mut setup = InvictusSetup { seating, ..InvictusSetup::teams(request.seats.unwrap_or(DEFAULT_SEATS)) };
        // A balance readout deals every god equally often; the rulebook's
        // deal lets the players' choice decide which gods play.
        setup.deal = if request.rulebook_deal { GodDeal::Rulebook } else { GodDeal::Even };
        if !request.gods.is_empty() {
            if request.rulebook_deal {
                return Err(
                    "--gods seats these gods; --deal rulebook deals two to each seat: give one or the other".into()
                );
            }
            let known: Vec<String> = content.gods.keys().map(ToString::to_string).collect();
            for g in &request.gods {
                if !content.gods.contains_key(g.as_str()) {
                    let hint =
                        crate::load::suggest(g, &known).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default();
                    return Err(format!("--gods: no god `{g}` is loaded{hint}; loaded: {}", known.join(", ")));
                }
            }
            if request.gods.len() != setup.players {
                return Err(format!(
                    "--gods names {} gods for {} seats: one per seat, in seat order",
                    request.gods.len(),
                    setup.players
                ));
            }
            setup.gods = request.gods.clone();
        }
        Ok(Box::new(InvictusSpec { setup }))
    }

    fn batch_kind(&self) -> &'static str {
        "invictus-sim-batch"
    }

    fn tally(&self, games: &[Box<dyn Summary>]) -> Box<dyn BatchTally> {
        Box::new(InvictusTally::of(games.iter().filter_map(|g| g.as_any().downcast_ref::<GameSummary>())))
    }

    fn read_tally(&self, tally: &serde_json::Value) -> Result<Box<dyn BatchTally>, String> {
        Ok(Box::new(serde_json::from_value::<InvictusTally>(tally.clone()).map_err(|e| e.to_string())?))
    }

    fn heading(&self, head: &serde_json::Value, games: u64) -> String {
        let s = if games == 1 { "" } else { "s" };
        format!("{games} Invictus game{s}, {} players", head["setup"]["players"])
    }

    /// Team games of 4 and of 6 players (when that many gods are loaded): a
    /// greedy seat beside a random one around the table, then the other way round.
    fn smoke(&self, content: &Content, n: u64) -> Option<Smoke> {
        if content.gods.len() < 4 {
            return None;
        }
        let half = n.div_ceil(2);
        let mut tables = Vec::new();
        for players in [4usize, 6].into_iter().filter(|p| content.gods.len() >= *p) {
            let mix = |kinds: [Policy; 2], seeds, named: &str| Mix {
                players: cycle(&kinds, players),
                seeds,
                named: named.to_string(),
            };
            tables.push(SmokeTable {
                what: format!("invictus --seats {players}"),
                spec: Box::new(InvictusSpec { setup: InvictusSetup::teams(players) }),
                mixes: vec![
                    mix([Policy::Greedy, Policy::Random], 1..half + 1, "greedy,random"),
                    mix([Policy::Random, Policy::Greedy], half + 1..n + 1, "random,greedy"),
                ],
            });
        }
        Some(Smoke { tables, said: format!("{n} 4- and 6-player Invictus games") })
    }

    fn situation(&self, text: &str) -> Result<Box<dyn SituationFile>, SituationError> {
        let situation = toml::from_str::<crate::invictus::situation::Situation>(text)
            .map_err(|e| SituationError::of_toml(text, &e))?;
        Ok(Box::new(InvictusSituation { situation, text: text.to_string() }))
    }

    /// The batch's turns and failures, each god's win rate beside the last batch's.
    fn watch_text(&self, now: &WatchBatch, before: Option<&WatchBatch>) -> Text {
        fn of(b: &WatchBatch) -> Option<&InvictusTally> {
            b.tally.as_any().downcast_ref::<InvictusTally>()
        }
        let Some(tally) = of(now) else { return Text::default() };
        let r = tally.report();
        let was = before.and_then(of).map(InvictusTally::report);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "  sim invictus: {}, {}; mean {:.1} turns; {} engine errors, {} effect failures",
            super::games_text(r.games as u64),
            super::seeds_text(&now.seeds),
            r.mean_turns,
            r.errors,
            r.effect_failures
        );
        let failed = tally.games_with_effect_failures as usize;
        if let Some(line) = failures_warning(r.games, failed, r.errors) {
            let _ = writeln!(out, "  {line}");
        }
        for (god, line) in &r.gods {
            let was = was.as_ref().and_then(|p| p.gods.get(god));
            let _ = writeln!(
                out,
                "  {god:<12} {:5.1}%{}",
                line.rate.rate * 100.0,
                was.map(|w| format!(" (was {:5.1}%)", w.rate.rate * 100.0)).unwrap_or_default()
            );
        }
        Text { out, err: String::new() }
    }
}
