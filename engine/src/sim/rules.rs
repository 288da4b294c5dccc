//! What a game supplies to the tools and the one batch runner: its
//! [`Rules`] (after OpenSpiel's `Game`: its seat counts, its Lua VM, a
//! table of a new game, [`Rules::start`], or from a replay file's setup,
//! [`Rules::start_recorded`]; which names are its setups; how a
//! [`Request`] becomes its games, a [`Spec`]; its batches' exact counts,
//! a [`BatchTally`], and readouts; the smoke games of `arena check --sims`,
//! [`Smoke`]; its situation files; its `arena watch --sim` lines), and
//! what those hand back: a [`Summary`] per game of a batch, a [`Played`]
//! game. The runner (`batch.rs`), shards, `arena sim merge` and `arena
//! check --sims` are written once against these; a game's own types come
//! back only inside its own tally and readouts (through `Any`). The games
//! themselves are listed in `registry.rs`.

use super::policy::Policy;
use super::situation::{SituationError, SituationFile};
use crate::content::Content;
use crate::script::runtime::{Runtime, ScriptSet};
use crate::table::{Player, Setup, Table};
use std::any::Any;
use std::ops::Range;
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
    /// The god of each seat, in seat order (`--gods`, Invictus), instead
    /// of dealing two to each seat and choosing one (`003 § Setup`); empty:
    /// dealt.
    pub gods: Vec<String>,
    /// Invictus: deal the gods as the rulebook does, two to each seat and
    /// one chosen (`--deal rulebook`), instead of one to each seat, every
    /// god equally often over a batch (`invictus::GodDeal`).
    pub rulebook_deal: bool,
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
    fn situation(&self, text: &str) -> Result<Box<dyn SituationFile>, SituationError>;

    /// `arena watch --sim`'s readout of a batch, beside the previous one's
    /// (of the content before the change) when there is one.
    fn watch_text(&self, now: &WatchBatch, before: Option<&WatchBatch>) -> Text;

    /// The half-width, in percentage points, of the widest 95% interval of
    /// the paired differences [`Rules::watch_text`] prints for `now` against
    /// `before` (Aristeia!: every seat and every Character the change
    /// touched), when the two batches are paired game for game (the same
    /// seeds and the same setups); `None` when they are not, or when the
    /// game prints no paired difference. `arena watch --sim --games auto`
    /// plays until it is narrow enough.
    fn watch_paired_half_width(&self, now: &WatchBatch, before: &WatchBatch) -> Option<f64> {
        let _ = (now, before);
        None
    }
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

/// What one request plays ([`Rules::resolve`]): its game, seats and setup,
/// how one seeded game of a batch is played and summed up, and how one game
/// is played whole with any players (a person included).
pub trait Spec: Send + Sync + Any {
    /// Its game.
    fn rules(&self) -> &'static dyn Rules;

    /// The side (0 or 1) of each seat when two players share the table
    /// (`sim::ladder`): alternate seats by default; Invictus, its two teams.
    fn sides(&self) -> Vec<usize> {
        (0..self.seats()).map(|s| s % 2).collect()
    }

    /// How many seats every game has.
    fn seats(&self) -> usize;

    /// The head of the batch's JSON, after `kind` and before `seeds`:
    /// `setup` (Aristeia!: the setup's name, `assault (random teams)`;
    /// Invictus: its setup), then the game's own keys, which a shard's
    /// file must repeat for `arena sim merge` (Aristeia!'s `optional_rules`,
    /// when some are played). Keys `players`, `content_hash`, `shard`,
    /// `report`, `tally` and `games` are the runner's.
    fn head(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Play the game seeded `seed` with a player of each `players[seat]`
    /// policy, and sum it up; an engine error is the summary's.
    fn summary(&self, content: &Content, runtime: &Runtime, seed: u64, players: &[Policy]) -> Box<dyn Summary>;

    /// The summary of a game that could not be played at all (its VM could not start).
    fn failed(&self, seed: u64, error: String) -> Box<dyn Summary>;

    /// Play the game seeded `seed` whole, `players[seat]` at each seat
    /// (`arena sim NAME` without `--games`: a person may sit there).
    ///
    /// # Errors
    /// The game cannot be set up or stops on an engine error.
    fn play(
        &self,
        content: &Content,
        runtime: &Runtime,
        seed: u64,
        players: &mut [Box<dyn Player>],
    ) -> Result<Box<dyn Played>, String>;

    /// The game's own setup as a replay file records it (`Rules::start_recorded` reads it).
    fn recorded(&self) -> serde_json::Value;

    /// The spec as `Any`, for the commands that only one game has (Aristeia!'s `--compare`).
    fn as_any(&self) -> &dyn Any;
}

/// One game of a batch, summed up by its game: what its tally counts,
/// what `--format json` lists under `games`, and what `arena check
/// --sims` says about it.
pub trait Summary: Send + Any {
    /// Its seed.
    fn seed(&self) -> u64;

    /// The scripted effects that ran (indices of the batch's `ScriptSet`).
    fn effects_run(&self) -> &[usize];

    /// Its entry in the batch JSON's `games`.
    fn to_json(&self) -> serde_json::Value;

    /// The seats (from 0) that won: one in Aristeia!, a team's every seat
    /// in Invictus; empty for a draw, a game without a winner or an error.
    fn winning_seats(&self) -> Vec<usize>;

    /// The engine's error, when one stopped the game.
    fn error(&self) -> Option<&str>;

    /// `arena check --sims`: each problem of this game (an engine error,
    /// a game that did not end, each failed effect at its script line), as
    /// `note(key, diagnostic)`; the same key is one problem counted in many
    /// games. `what` (the `arena sim` arguments of its table, of `seats`
    /// seats) names the game; `repro` is the help that plays it again
    /// (`reproduce with ...`).
    fn problems(&self, what: &str, seats: usize, repro: &str, note: &mut dyn FnMut(String, crate::diag::Diagnostic));

    /// The summary as `Any`, for its game's tally.
    fn as_any(&self) -> &dyn Any;

    /// The summary as `Any`, owned.
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// One game played whole ([`Spec::play`]).
pub trait Played {
    /// Every answer, in order (with the seed and setup, a replay).
    fn answers(&self) -> &[usize];

    /// The narrative, one event a line.
    fn narrative(&self) -> String;

    /// The `--format json` document after its `version`: `kind`
    /// (`sim-game`, `invictus-sim-game`) and the game's record.
    fn to_json(&self) -> serde_json::Value;

    /// Effects that failed and were undone (`arena sim` exits 1 when some did).
    fn effect_failures(&self) -> usize;

    /// A short hash of everything the game did (`arena sim --digest`):
    /// two games with the same digest told the same story with the same answers.
    fn digest(&self) -> String;
}

/// What a readout prints: on stdout, and on stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Text {
    /// For stdout.
    pub out: String,
    /// For stderr.
    pub err: String,
}

/// The exact counts of a batch of one game ([`Rules::tally`]), from which
/// its report is computed: integer sums, so the tallies of a batch's
/// disjoint shards [`merge`](BatchTally::merge) into the whole batch's,
/// and its report is the one the unsharded batch gives, bit for bit.
pub trait BatchTally: Send + Any {
    /// Add the counts of another, disjoint set of games of the same batch,
    /// which comes after these in seed order.
    ///
    /// # Errors
    /// `other` is another game's, counts another table, or a sum would overflow.
    fn merge(&mut self, other: &dyn BatchTally) -> Result<(), String>;

    /// Whether these counts can be those of the games of `seeds` at a table
    /// of `seats` (a shard's tally read back from a file is not trusted).
    ///
    /// # Errors
    /// The first count that cannot be, named by its key.
    fn check(&self, seeds: Range<u64>, seats: usize) -> Result<(), String>;

    /// The counts as the batch JSON's `tally` holds them.
    fn to_json(&self) -> serde_json::Value;

    /// The rates and means, as the batch JSON's `report` holds them.
    fn report_json(&self) -> serde_json::Value;

    /// Whether every game played as written: none stopped on an engine
    /// error, no effect failed (else `arena sim` exits 1).
    fn clean(&self) -> bool;

    /// The readout under the batch's first line (`games`: the batch's games
    /// in seed order, none for a merge of shards).
    fn text(&self, games: &[Box<dyn Summary>], players: &[Policy], context: &ReportContext<'_>) -> Text;

    /// The tally as `Any`, for [`BatchTally::merge`] and its game's readouts.
    fn as_any(&self) -> &dyn Any;
}

/// The smoke games of one game ([`super::Rules::smoke`]): its tables, and
/// what `arena check`'s summary says was played (`3 seeded games of each of
/// 10 Scenario(s) ...`).
pub struct Smoke {
    /// Each table played.
    pub tables: Vec<SmokeTable>,
    /// The summary's words for them.
    pub said: String,
}

/// One table of smoke games: what plays it, and the mixes of players.
pub struct SmokeTable {
    /// The `arena sim` arguments that play it (`assault --random-teams`,
    /// `invictus --seats 4`), for the reproduction command and messages.
    pub what: String,
    /// What it plays.
    pub spec: Box<dyn Spec>,
    /// The mixes of players, each over its own seeds.
    pub mixes: Vec<Mix>,
}

/// Players that use their cards, over some of the seeds.
pub struct Mix {
    /// The policy of each seat.
    pub players: Vec<Policy>,
    /// The seeds it plays.
    pub seeds: std::ops::Range<u64>,
    /// As `--players` names them in the reproduction command.
    pub named: String,
}

impl SmokeTable {
    /// A table whose `n` games are a greedy seat against random ones, the
    /// greedy seat first for the first half of the seeds (from 1), last for
    /// the rest, so effects tied to Rolls and Tactics run as well as odd
    /// choices.
    pub fn mixed(what: String, spec: Box<dyn Spec>, n: u64) -> SmokeTable {
        let half = n.div_ceil(2);
        let seats = spec.seats();
        let first: Vec<Policy> = (0..seats).map(|i| if i == 0 { Policy::Greedy } else { Policy::Random }).collect();
        let last: Vec<Policy> = first.iter().rev().copied().collect();
        let name = |ps: &[Policy]| ps.iter().map(|p| p.name()).collect::<Vec<_>>().join(",");
        let mixes = vec![
            Mix { named: name(&first), players: first, seeds: 1..half + 1 },
            Mix { named: name(&last), players: last, seeds: half + 1..n + 1 },
        ];
        SmokeTable { what, spec, mixes }
    }
}
