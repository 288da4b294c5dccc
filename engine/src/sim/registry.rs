//! The games by name: [`GAMES`] lists every game's [`Rules`] once, and the
//! lookups find one: by its name ([`find`]), by a name `arena sim NAME`
//! gives ([`game_of_setup`]: Aristeia!'s setup and Scenario ids are
//! Aristeia!'s, `invictus` is Invictus), by the `kind` of a batch's JSON
//! ([`game_of_batch`]) and by a situation file's `game` key
//! ([`game_of_situation`]). The tools never compare game names themselves.
//!
//! A game's [`Rules`] is everything the tools and the one batch runner
//! ([`super::batch`]) need of it, after OpenSpiel's `Game`: its seat counts,
//! its Lua VM, a table of a new game ([`Rules::start`], from a replay
//! file's setup: [`Rules::start_recorded`]), which names are its setups,
//! how a request becomes its games ([`Rules::resolve`], a [`Spec`]), its
//! batches' exact counts ([`BatchTally`]) and readouts, the smoke games of
//! `arena check --sims` ([`Rules::smoke`]) and its situation files. It
//! lives here, above the tables and the batches, because it names both; the
//! games' own modules (`rules`, `invictus`) know nothing of it.

use super::batch::{BatchTally, Spec, Summary, Text};
use super::check::Smoke;
use crate::content::Content;
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::{Setup, Table};
use std::sync::Arc;

/// What a command asks to play, in the terms of `arena sim`'s options:
/// each game reads what applies to it and refuses what does not
/// ([`Rules::resolve`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// What was named: Aristeia!'s setup or Scenario id, or a game's own
    /// name (`invictus`).
    pub name: String,
    /// How many seats (`--seats`); `None`: the game's default for `name`.
    pub seats: Option<usize>,
    /// How many controllers `--players` named (0 or 1: one for every seat).
    pub players: usize,
    /// Random teams drawn per seed (`--random-teams`, Aristeia!).
    pub random_teams: bool,
    /// Optional rules by their kebab-case names (`--optional-rule`, Aristeia!'s `001 § Additional Rules`).
    pub optional_rules: Vec<String>,
    /// How the teams sit, by name (`--seating`, Invictus's `003 § Team Assignment`).
    pub seating: Option<String>,
    /// A paired comparison is asked for (`--compare`).
    pub compare: bool,
}

/// What a context hands a game's readouts ([`BatchTally::text`]): the content
/// played, the packs under test (the loaded packs that are not bundled,
/// whose rows come first) and whether every failure is to be listed.
pub struct ReportContext<'c> {
    /// The content the batch played.
    pub content: &'c Content,
    /// The ids of the packs under test.
    pub under_test: Vec<String>,
    /// `-v`: list every failed game, not the first five.
    pub verbose: bool,
}

/// A game in the registry: how to start a table of it, what a command's
/// request means for it, and what its batches count (OpenSpiel's `Game`,
/// with the readouts of a balance tool). A new game implements it and adds
/// itself to [`GAMES`]; nothing else in `sim` or `tools` changes.
pub trait Rules: Sync {
    /// The name tools use (`aristeia`, `invictus`), the table's `Table::game`.
    fn name(&self) -> &'static str;

    /// The seat counts it plays at.
    fn seat_counts(&self) -> &'static [usize];

    /// A Lua VM with this game's API over `scripts`.
    ///
    /// # Errors
    /// The VM could not be made.
    fn runtime(&self, content: Arc<Content>, scripts: Arc<ScriptSet>) -> Result<Runtime, String>;

    /// A table of a new game, at its first Decision.
    ///
    /// # Errors
    /// The setup names nothing loaded, or cannot be played at that many seats.
    fn start<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &Setup,
    ) -> Result<Box<dyn Table<'a> + 'a>, String>;

    /// A table of a new game from a recorded setup (a replay file's
    /// `setup`: `table::AristeiaSetup` for Aristeia!, `InvictusSetup` for
    /// Invictus, as JSON) and seed, at its first Decision.
    ///
    /// # Errors
    /// `setup` is not this game's setup, or [`Rules::start`]'s.
    fn start_recorded<'a>(
        &self,
        content: &'a Content,
        runtime: &'a Runtime,
        setup: &serde_json::Value,
        seed: u64,
    ) -> Result<Box<dyn Table<'a> + 'a>, String>;

    /// Whether `name` (as `arena sim NAME`, `arena watch --sim NAME` take
    /// it) names games of this game in `content`. By default the game's own
    /// name; Aristeia! also takes every setup and Scenario id.
    fn owns(&self, content: &Content, name: &str) -> bool {
        let _ = content;
        name == self.name()
    }

    /// Every name [`Rules::owns`] takes in `content`, for "did you mean".
    fn names(&self, content: &Content) -> Vec<String> {
        let _ = content;
        vec![self.name().to_string()]
    }

    /// The games `request` asks for, checked against `content`: how many
    /// seats, which setup, the options that apply (domain rules such as a
    /// Scenario's seat counts or an Invictus seating live here, not in the
    /// tools).
    ///
    /// # Errors
    /// A usage error, said as `arena sim` prints it after `error: `.
    fn resolve(&self, content: &Content, request: &Request) -> Result<Box<dyn Spec>, String>;

    /// The `kind` of its batches' JSON (`sim-batch` for Aristeia!,
    /// `invictus-sim-batch`): what `arena sim merge` finds the game of a
    /// shard by.
    fn batch_kind(&self) -> &'static str;

    /// The exact counts of a batch's `games` (this game's [`Summary`]s, in
    /// seed order), which add up across shards.
    fn tally(&self, games: &[Box<dyn Summary>]) -> Box<dyn BatchTally>;

    /// A tally as a shard's JSON holds it (its `tally`).
    ///
    /// # Errors
    /// It is not this game's tally.
    fn read_tally(&self, tally: &serde_json::Value) -> Result<Box<dyn BatchTally>, String>;

    /// The start of a batch's first line: `12 games of assault (random
    /// teams)`, `12 Invictus games, 4 players`. `head` is the batch's JSON
    /// head (its `setup`, `players` and the game's own keys, as
    /// [`Spec::head`] gives them or a shard's file holds them).
    fn heading(&self, head: &serde_json::Value, games: u64) -> String;

    /// The smoke games of `arena check --sims n` on `content` (none when
    /// there is nothing of this game to play).
    fn smoke(&self, content: &Content, n: u64) -> Option<Smoke>;

    /// Play a situation file of this game (`arena run FILE`, docs/situations.md).
    fn situation(&self, text: &str) -> Result<Box<dyn super::situation::SituationFile>, String>;

    /// `arena watch --sim`'s readout of a batch, beside the previous one's
    /// (of the content before the change) when there is one.
    fn watch_text(&self, now: &WatchBatch, before: Option<&WatchBatch>) -> Text;
}

/// A batch `arena watch --sim` played on one snapshot of the content.
pub struct WatchBatch {
    /// The snapshot's generation.
    pub generation: u64,
    /// Its content.
    pub content: Arc<Content>,
    /// What was played.
    pub spec: Box<dyn Spec>,
    /// How long the batch took, in seconds.
    pub seconds: f64,
    /// The seeds.
    pub seeds: std::ops::Range<u64>,
    /// Every game, in seed order.
    pub games: Vec<Box<dyn Summary>>,
    /// Their counts.
    pub tally: Box<dyn BatchTally>,
}

/// Every game, by name; the first is the default of a situation file
/// without a `game`.
pub static GAMES: &[&dyn Rules] = &[&super::AristeiaRules, &super::InvictusRules];

/// The game called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// The game whose games `name` names in `content` (`arena sim NAME`): a
/// game's own name first, then the first game that [`Rules::owns`] it.
pub fn game_of_setup(content: &Content, name: &str) -> Option<&'static dyn Rules> {
    find(name).or_else(|| GAMES.iter().copied().find(|g| g.owns(content, name)))
}

/// Every name [`game_of_setup`] finds in `content`, for "did you mean".
pub fn setup_names(content: &Content) -> Vec<String> {
    GAMES.iter().flat_map(|g| g.names(content)).collect()
}

/// The game whose batch JSON is of this `kind` ([`Rules::batch_kind`]).
pub fn game_of_batch(kind: &str) -> Option<&'static dyn Rules> {
    GAMES.iter().copied().find(|g| g.batch_kind() == kind)
}

/// The game of a situation file: its `game` key, the first game of
/// [`GAMES`] when it has none (or the text is not TOML: that game's reader
/// says why).
///
/// # Errors
/// The `game` key names no registered game (the message lists them).
pub fn game_of_situation(text: &str) -> Result<&'static dyn Rules, String> {
    let game = toml::from_str::<toml::Table>(text).ok().and_then(|t| t.get("game")?.as_str().map(str::to_string));
    match game {
        None => Ok(GAMES[0]),
        Some(name) => find(&name).ok_or_else(|| {
            let known: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
            format!("`game = \"{name}\"` is no game arena plays: {}", known.join(", "))
        }),
    }
}
