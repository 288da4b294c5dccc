//! One replay file for every game (format 2): the game's registry name, the
//! format version, the content hash and packs it was played on, the game's
//! setup, the seed, every answer and every event; read, recorded and
//! verified through [`crate::table`] (the registry starts the game from its
//! setup and seed, [`Table::apply_all`] gives the answers, the events are
//! compared), so the same code serves Aristeia! and Invictus.
//!
//! [`read`] also reads the two formats of before: Aristeia!'s format 1 (a
//! setup id or `random-teams:<scenario>[@N]`, its events as JSON, its packs
//! as `id version`) and Invictus's files without a format (`game =
//! "invictus"`, the `InvictusSetup`, its narrative, no content hash), so
//! recordings made before still verify; `arena replay --upgrade` rewrites
//! them as format 2 ([`Recording::upgraded`]).
//!
//! The events are kept whole, as `Table::events_json` gives them (the JSON
//! `arena sim --format json` prints), not as a digest: a file that does not
//! verify then says at which event, and what was recorded there.
//!
//! This module sits above `table` and the registry of games
//! (`sim::registry`, and so above `rules` and `invictus`); nothing below it
//! imports it.

use crate::content::Content;
use crate::script::runtime::Runtime;
use crate::sim::{self as registry, Rules};
use crate::table::{self, AristeiaSetup, Engine, Table, TableError};
use serde::{Deserialize, Serialize};

/// The format version this arena writes.
pub const FORMAT: u32 = 2;

/// The formats [`read`] reads, for messages.
pub const READS: &str = "format 2 (every game), Aristeia!'s format 1, and Invictus's files without a format";

/// A replay file, format 2: enough to play a game of any registered game
/// again and check it went the same way.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplayFile {
    /// The game's name in the registry (`registry::GAMES`: `aristeia`, `invictus`).
    pub game: String,
    /// The format version ([`FORMAT`]).
    pub format: u32,
    /// `Loaded::content_hash` of the packs it was played on (hex BLAKE3).
    pub content_hash: String,
    /// The packs it was played on, `id@version` in load order, to say which
    /// to load when they are missing.
    pub packs: Vec<String>,
    /// The game's own setup, as its `Rules::start_recorded` reads it:
    /// Aristeia!'s [`AristeiaSetup`], Invictus's `InvictusSetup`.
    pub setup: serde_json::Value,
    /// The RNG seed.
    pub seed: u64,
    /// Every answer, in the order the Decisions were asked (an option's index, from 0).
    pub answers: Vec<usize>,
    /// Every event, as `Table::events_json` gives it, to compare against.
    pub events: Vec<serde_json::Value>,
}

impl ReplayFile {
    /// The file of a game played at `table` (any position; normally over),
    /// set up by `setup` (the game's own setup, as JSON) with `seed`.
    pub fn of_table(
        table: &dyn Table<'_>,
        setup: serde_json::Value,
        seed: u64,
        content_hash: String,
        packs: Vec<String>,
    ) -> ReplayFile {
        ReplayFile {
            game: table.game().to_string(),
            format: FORMAT,
            content_hash,
            packs,
            setup,
            seed,
            answers: table.answers(),
            events: table.events_json(),
        }
    }

    /// The file of a game of `game` set up by `setup` with `seed` and
    /// answered by `answers` (as a game played by the game's own
    /// controllers recorded them): the game is played again through its
    /// table (the registry's `start_recorded`, then `apply_all`), so the
    /// file holds what `arena replay` will compare.
    ///
    /// # Errors
    /// `game` is not registered, the setup does not start, or the answers
    /// do not play.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        game: &str,
        content: &Content,
        runtime: &Runtime,
        setup: serde_json::Value,
        seed: u64,
        answers: &[usize],
        content_hash: String,
        packs: Vec<String>,
    ) -> Result<ReplayFile, String> {
        let rules = registry::find(game).ok_or_else(|| unknown_game(game).to_string())?;
        let mut t = rules.start_recorded(content, runtime, &setup, seed)?;
        t.apply_all(answers).map_err(|e| format!("the game does not play again from its answers: {e}"))?;
        Ok(ReplayFile::of_table(&*t, setup, seed, content_hash, packs))
    }

    /// [`ReplayFile::record`] of an Aristeia! game.
    ///
    /// # Errors
    /// As [`ReplayFile::record`].
    pub fn record_aristeia(
        content: &Content,
        runtime: &Runtime,
        setup: &AristeiaSetup,
        seed: u64,
        answers: &[usize],
        loaded: &crate::loaded::Loaded,
    ) -> Result<ReplayFile, String> {
        let setup = serde_json::to_value(setup).map_err(|e| e.to_string())?;
        let game = <table::Aristeia<'_> as Engine<'_>>::NAME;
        ReplayFile::record(game, content, runtime, setup, seed, answers, loaded.content_hash(), packs_of(loaded))
    }

    /// [`ReplayFile::record`] of an Invictus game.
    ///
    /// # Errors
    /// As [`ReplayFile::record`].
    pub fn record_invictus(
        content: &Content,
        runtime: &Runtime,
        setup: &crate::invictus::InvictusSetup,
        seed: u64,
        answers: &[usize],
        loaded: &crate::loaded::Loaded,
    ) -> Result<ReplayFile, String> {
        let setup = serde_json::to_value(setup).map_err(|e| e.to_string())?;
        let game = <table::Invictus<'_> as Engine<'_>>::NAME;
        ReplayFile::record(game, content, runtime, setup, seed, answers, loaded.content_hash(), packs_of(loaded))
    }
}

/// The packs of a load, as a replay file names them (`id@version`, in load order).
pub fn packs_of(loaded: &crate::loaded::Loaded) -> Vec<String> {
    loaded.packs.iter().map(|p| format!("{}@{}", p.manifest.id, p.manifest.version)).collect()
}

/// Aristeia!'s replay file of before format 2 (`format = 1`).
#[derive(Deserialize)]
struct FormatOne {
    content_hash: String,
    /// A setup id, or `random-teams:<scenario>[@N]`.
    setup: String,
    seed: u64,
    answers: Vec<usize>,
    events: Vec<serde_json::Value>,
    /// `id version`; absent in the first files.
    #[serde(default)]
    packs: Vec<String>,
    #[serde(default)]
    optional_rules: std::collections::BTreeSet<crate::rules::game::OptionalRule>,
}

/// How format 1 named a game with random teams: `random-teams:<scenario>`.
const RANDOM_TEAMS: &str = "random-teams:";

/// Invictus's replay file of before format 2 (`game = "invictus"`, no format).
#[derive(Deserialize)]
struct InvictusUnversioned {
    setup: crate::invictus::InvictusSetup,
    seed: u64,
    answers: Vec<usize>,
    /// `id@version`.
    packs: Vec<String>,
    /// Every event's narrative line.
    narrative: Vec<String>,
}

/// Which format a file was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Format 2.
    Current,
    /// Aristeia!'s format 1.
    AristeiaFormat1,
    /// Invictus's file without a format (and without a content hash).
    InvictusUnversioned,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Origin::Current => "format 2",
            Origin::AristeiaFormat1 => "Aristeia! format 1",
            Origin::InvictusUnversioned => "Invictus, without a format",
        })
    }
}

/// What a file recorded of the game, to compare against.
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// Every event as JSON (format 2, Aristeia! format 1).
    Events(Vec<serde_json::Value>),
    /// Every event as its narrative line (Invictus's old files).
    Narrative(Vec<String>),
}

impl Recorded {
    fn len(&self) -> usize {
        match self {
            Recorded::Events(e) => e.len(),
            Recorded::Narrative(n) => n.len(),
        }
    }
}

/// A replay file of any format, as read: the game to play again and what to compare.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The format it was read from.
    pub origin: Origin,
    /// The game, by its registry name.
    pub game: &'static str,
    /// The content hash it was recorded on; `None` in Invictus's old files.
    pub content_hash: Option<String>,
    /// The packs it was played on, `id@version`.
    pub packs: Vec<String>,
    /// The game's own setup, as JSON ([`ReplayFile::setup`]).
    pub setup: serde_json::Value,
    /// The RNG seed.
    pub seed: u64,
    /// Every answer.
    pub answers: Vec<usize>,
    /// What it recorded.
    pub recorded: Recorded,
}

/// Why a text is not a replay file this arena reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// Not JSON, or not the shape of any replay format.
    #[error("not a replay file: {0}")]
    NotAReplay(String),
    /// A format version this arena does not read (a newer arena's).
    #[error("replay format {found} is not one this arena reads: it reads {READS}")]
    UnknownFormat {
        /// The version found.
        found: String,
    },
    /// A game not in the registry.
    #[error("`{game}` is not a game this arena knows: it knows {known}")]
    UnknownGame {
        /// The game named.
        game: String,
        /// The registry's games, comma-separated.
        known: String,
    },
}

fn unknown_game(game: &str) -> FormatError {
    let known: Vec<&str> = registry::GAMES.iter().map(|g| g.name()).collect();
    FormatError::UnknownGame { game: game.to_string(), known: known.join(", ") }
}

fn registered(game: &str) -> Result<&'static str, FormatError> {
    registry::find(game).map(|r| r.name()).ok_or_else(|| unknown_game(game))
}

/// Read a replay file's text, of any format this arena reads ([`READS`]).
///
/// # Errors
/// The text is not JSON, not a replay, of a newer format, or of a game not
/// registered.
pub fn read(text: &str) -> Result<Recording, FormatError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| FormatError::NotAReplay(e.to_string()))?;
    let Some(object) = value.as_object() else {
        return Err(FormatError::NotAReplay("a replay file is a JSON object".into()));
    };
    let shape = |e: serde_json::Error| FormatError::NotAReplay(e.to_string());
    match (object.get("format"), object.get("game").and_then(|g| g.as_str())) {
        (Some(f), game) if f.as_u64() == Some(u64::from(FORMAT)) => {
            let Some(game) = game else {
                return Err(FormatError::NotAReplay("a format 2 replay names its `game`".into()));
            };
            registered(game)?;
            let file: ReplayFile = serde_json::from_value(value).map_err(shape)?;
            Recording::try_from(file)
        }
        (Some(f), _) if f.as_u64() == Some(1) => {
            let old: FormatOne = serde_json::from_value(value).map_err(shape)?;
            let setup = match old.setup.strip_prefix(RANDOM_TEAMS) {
                Some(rest) => {
                    let (name, seats) = match rest.rsplit_once('@') {
                        Some((name, n)) => (
                            name,
                            Some(n.parse::<usize>().map_err(|_| {
                                FormatError::NotAReplay(format!("`{}`: `{n}` is not a number of players", old.setup))
                            })?),
                        ),
                        None => (rest, None),
                    };
                    AristeiaSetup {
                        name: name.to_string(),
                        random_teams: true,
                        seats,
                        optional_rules: old.optional_rules,
                    }
                }
                None => AristeiaSetup {
                    name: old.setup,
                    random_teams: false,
                    seats: None,
                    optional_rules: old.optional_rules,
                },
            };
            Ok(Recording {
                origin: Origin::AristeiaFormat1,
                game: <table::Aristeia<'_> as Engine<'_>>::NAME,
                content_hash: Some(old.content_hash),
                // Format 1 named its packs `id version`.
                packs: old.packs.iter().map(|p| p.split_whitespace().collect::<Vec<_>>().join("@")).collect(),
                setup: serde_json::to_value(&setup).map_err(shape)?,
                seed: old.seed,
                answers: old.answers,
                recorded: Recorded::Events(old.events),
            })
        }
        (None, Some(game)) if game == <table::Invictus<'_> as Engine<'_>>::NAME => {
            let old: InvictusUnversioned = serde_json::from_value(value).map_err(shape)?;
            Ok(Recording {
                origin: Origin::InvictusUnversioned,
                game: <table::Invictus<'_> as Engine<'_>>::NAME,
                content_hash: None,
                packs: old.packs,
                setup: serde_json::to_value(&old.setup).map_err(shape)?,
                seed: old.seed,
                answers: old.answers,
                recorded: Recorded::Narrative(old.narrative),
            })
        }
        (None, Some(game)) => Err(unknown_game(game)),
        (Some(f), _) => Err(FormatError::UnknownFormat { found: f.to_string() }),
        (None, None) => Err(FormatError::NotAReplay("it has no `format` (and no `game`)".into())),
    }
}

impl TryFrom<ReplayFile> for Recording {
    type Error = FormatError;

    /// The recording of a format 2 file (as [`read`] reads it).
    fn try_from(file: ReplayFile) -> Result<Recording, FormatError> {
        if file.format != FORMAT {
            return Err(FormatError::UnknownFormat { found: file.format.to_string() });
        }
        Ok(Recording {
            origin: Origin::Current,
            game: registered(&file.game)?,
            content_hash: Some(file.content_hash),
            packs: file.packs,
            setup: file.setup,
            seed: file.seed,
            answers: file.answers,
            recorded: Recorded::Events(file.events),
        })
    }
}

/// Why a recording does not verify.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// The game cannot be set up from the file's setup (a setup or Scenario
    /// not loaded, a setup not of this game).
    #[error("the game cannot be set up: {0}")]
    Setup(String),
    /// An answer is not an option of the Decision it met.
    #[error(
        "answer {index} (from 0) is {answer}, but the Decision it met has {options} options (0 to {}): {decision}",
        options.saturating_sub(1)
    )]
    BadAnswer {
        /// Which answer, from 0.
        index: usize,
        /// Its value.
        answer: usize,
        /// How many options the Decision had.
        options: usize,
        /// The Decision: `player 1: Move where?`.
        decision: String,
    },
    /// The game ended before every answer was used.
    #[error("the game ended after {used} of the file's {answers} answers")]
    EndedEarly {
        /// Answers used.
        used: usize,
        /// Answers in the file.
        answers: usize,
    },
    /// The answers ran out before the game ended.
    #[error("the file's {answers} answers run out before the game ends, at a Decision: {decision}")]
    CutShort {
        /// Answers in the file.
        answers: usize,
        /// The Decision left unanswered.
        decision: String,
    },
    /// The first event that differs (index from 0; `None` past the end).
    #[error(
        "the game went another way at event {index} (from 0): recorded {}, replayed {}{}",
        recorded.as_deref().unwrap_or("(none)"),
        replayed.as_deref().unwrap_or("(none)"),
        answer.as_deref().map(|a| format!("; then {a}")).unwrap_or_default()
    )]
    Differs {
        /// The event's index, from 0.
        index: usize,
        /// What the file recorded there.
        recorded: Option<String>,
        /// What the game plays there now.
        replayed: Option<String>,
        /// What went wrong with the answers after it, if anything did.
        answer: Option<String>,
    },
    /// The engine could not play on (a defect).
    #[error("the engine could not play the game: {0}")]
    Engine(String),
}

fn decision_text(table: &dyn Table<'_>) -> String {
    table.decision().map_or_else(|| "(none)".into(), |d| format!("{}: {}", d.player, d.prompt))
}

/// Play `answers` at `table` from its start; where they do not play (an
/// answer out of range, the game over first), the table is left at that
/// point and the reason returned.
fn give(table: &mut dyn Table<'_>, answers: &[usize]) -> Result<Option<Mismatch>, Mismatch> {
    match table.apply_all(answers) {
        Ok(()) => return Ok(None),
        Err(TableError::Engine(e)) => return Err(Mismatch::Engine(e)),
        Err(_) => {}
    }
    // Find the answer that does not play, one at a time.
    for (index, &answer) in answers.iter().enumerate() {
        if table.is_over() {
            return Ok(Some(Mismatch::EndedEarly { used: index, answers: answers.len() }));
        }
        let options = table.options();
        if answer >= options {
            return Ok(Some(Mismatch::BadAnswer { index, answer, options, decision: decision_text(table) }));
        }
        table.apply(answer).map_err(|e| Mismatch::Engine(e.to_string()))?;
    }
    Err(Mismatch::Engine("the answers play one by one but not all at once".into()))
}

impl Recording {
    /// The game's rules in the registry (`None` only for a recording made
    /// by hand with a game not registered; [`read`] refuses those).
    pub fn rules(&self) -> Option<&'static dyn Rules> {
        registry::find(self.game)
    }

    /// How many events it recorded.
    pub fn recorded_events(&self) -> usize {
        self.recorded.len()
    }

    /// Play the recording again through its game's table (the registry
    /// starts it from the setup and seed, `apply_all` gives the answers) and
    /// compare every event; the table at the game's end when they are all
    /// the same. `runtime` is a VM of the game's own API (`Rules::runtime`).
    ///
    /// # Errors
    /// The first reason it does not verify ([`Mismatch`]): a changed event is
    /// named before an answer that no longer fits.
    pub fn verify<'a>(&self, content: &'a Content, runtime: &'a Runtime) -> Result<Box<dyn Table<'a> + 'a>, Mismatch> {
        let rules = self.rules().ok_or_else(|| Mismatch::Setup(unknown_game(self.game).to_string()))?;
        let mut table = rules.start_recorded(content, runtime, &self.setup, self.seed).map_err(Mismatch::Setup)?;
        let mut problem = give(&mut *table, &self.answers)?;
        if problem.is_none() && !table.is_over() {
            problem = Some(Mismatch::CutShort { answers: self.answers.len(), decision: decision_text(&*table) });
        }
        // Stopped early, the table has a prefix of the game: compare that much.
        let replayed: Vec<String> = match &self.recorded {
            Recorded::Events(_) => table.events_json().iter().map(ToString::to_string).collect(),
            Recorded::Narrative(_) => table.narrative(0),
        };
        let recorded: Vec<String> = match &self.recorded {
            Recorded::Events(e) => e.iter().map(ToString::to_string).collect(),
            Recorded::Narrative(n) => n.clone(),
        };
        let end =
            if problem.is_some() { replayed.len().min(recorded.len()) } else { replayed.len().max(recorded.len()) };
        if let Some(index) = (0..end).find(|i| replayed.get(*i) != recorded.get(*i)) {
            return Err(Mismatch::Differs {
                index,
                recorded: recorded.get(index).cloned(),
                replayed: replayed.get(index).cloned(),
                answer: problem.map(|p| p.to_string()),
            });
        }
        match problem {
            Some(p) => Err(p),
            None => Ok(table),
        }
    }

    /// The format 2 file of this recording, verified at `table` (what
    /// [`Recording::verify`] returned) on content hashed `content_hash`,
    /// loaded from `packs`: the same game, setup, seed and answers, the
    /// events as the table gives them.
    pub fn upgraded(&self, table: &dyn Table<'_>, content_hash: String, packs: Vec<String>) -> ReplayFile {
        ReplayFile::of_table(table, self.setup.clone(), self.seed, content_hash, packs)
    }

    /// An Aristeia! recording's events, typed, as the game plays now (what
    /// `arena render replay` and the viewer draw): played through its
    /// table; an answer out of range is answered with the first option, and
    /// answers that run out with the first option to the game's end, so an
    /// edited file still draws ([`Recording::verify`] says whether it is
    /// the recorded game).
    ///
    /// # Errors
    /// Not an Aristeia! recording, or the game cannot be set up or played.
    pub fn aristeia_events(
        &self,
        content: &Content,
        runtime: &Runtime,
    ) -> Result<Vec<crate::rules::event::Event>, String> {
        if self.game != <table::Aristeia<'_> as Engine<'_>>::NAME {
            return Err(format!("a replay of {}: only Aristeia! replays are drawn", self.game));
        }
        let setup: AristeiaSetup =
            serde_json::from_value(self.setup.clone()).map_err(|e| format!("not an Aristeia! setup: {e}"))?;
        let mut t = table::start_aristeia(content, runtime, &setup.game_setup(content, self.seed)?)?;
        if t.apply_all(&self.answers).is_err() {
            let mut answers = self.answers.iter();
            while !t.is_over() {
                let options = t.options();
                let answer = answers.next().copied().filter(|a| *a < options).unwrap_or(0);
                t.apply(answer).map_err(|e| e.to_string())?;
            }
        }
        while !t.is_over() {
            t.apply(0).map_err(|e| e.to_string())?;
        }
        Ok(t.events().cloned().collect())
    }
}
