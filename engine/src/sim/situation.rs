//! `arena run FILE` for every game: a situation file read by its game
//! ([`super::Rules::situation`], found by the file's `game` key:
//! [`super::game_of_situation`]) and played, with what it gave in terms
//! every game shares ([`SituationRun`]). Aristeia!'s situations are
//! `rules::situation`'s, Invictus's `invictus::situation`'s (docs/situations.md).

use crate::content::Content;
use crate::script::runtime::Runtime;

/// A situation file, read.
pub trait SituationFile {
    /// Its own `packs` key (paths relative to the file), for when no
    /// `--pack` is given.
    fn packs(&self) -> &[std::path::PathBuf];

    /// Play it on `content` with `runtime` (its game's VM: `Rules::runtime`).
    ///
    /// # Errors
    /// The situation cannot be set up on this content.
    fn play(&self, content: &Content, runtime: &Runtime) -> Result<SituationRun, SituationError>;
}

/// What playing a situation gave.
#[derive(Debug, Clone)]
pub struct SituationRun {
    /// Every event, as JSON.
    pub events: Vec<serde_json::Value>,
    /// Every event, one line each, as people read them.
    pub lines: Vec<String>,
    /// The state after, as JSON.
    pub state: serde_json::Value,
    /// The state after, as lines (`arena run --state`).
    pub state_lines: Vec<String>,
    /// Each problem, as a sentence (empty: the situation passed).
    pub problems: Vec<String>,
    /// How many `expect` lines there were.
    pub expected: usize,
    /// Whether every `expect` line was met (for the closing note).
    pub expected_met: bool,
}

/// Why a situation cannot be set up, and the line and column of the key
/// concerned when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SituationError {
    /// What is wrong.
    pub message: String,
    /// `(line, column)` of the key concerned, from 1.
    pub at: Option<(usize, usize)>,
}

/// An Aristeia! situation file (`rules::situation::Situation`).
pub(super) struct AristeiaSituation {
    pub(super) situation: crate::rules::situation::Situation,
    pub(super) text: String,
}

impl SituationFile for AristeiaSituation {
    fn packs(&self) -> &[std::path::PathBuf] {
        &self.situation.packs
    }

    fn play(&self, content: &Content, runtime: &Runtime) -> Result<SituationRun, SituationError> {
        let played = self.situation.play(content, runtime).map_err(|e| SituationError {
            at: e.locate(&self.text).map(|(_, line, column)| (line, column)),
            message: e.to_string(),
        })?;
        Ok(SituationRun {
            events: played.events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect(),
            lines: played.events.iter().map(ToString::to_string).collect(),
            state: serde_json::to_value(&played.state).unwrap_or_default(),
            state_lines: played.state.summary(),
            expected_met: !played.problems.iter().any(|p| p.message.starts_with("expected ")),
            problems: played.problems.into_iter().map(|p| p.message).collect(),
            expected: played.expected,
        })
    }
}

/// An Invictus situation file (`invictus::situation::Situation`).
pub(super) struct InvictusSituation {
    pub(super) situation: crate::invictus::situation::Situation,
    pub(super) text: String,
}

impl SituationFile for InvictusSituation {
    fn packs(&self) -> &[std::path::PathBuf] {
        &self.situation.packs
    }

    fn play(&self, content: &Content, runtime: &Runtime) -> Result<SituationRun, SituationError> {
        let played = self.situation.play(content, Some(runtime)).map_err(|e| SituationError {
            at: e.locate(&self.text).map(|(_, line, column)| (line, column)),
            message: e.message,
        })?;
        Ok(SituationRun {
            events: played.events.iter().map(|e| serde_json::to_value(e).unwrap_or_default()).collect(),
            lines: played.events.iter().map(ToString::to_string).collect(),
            state: serde_json::to_value(&played.state).unwrap_or_default(),
            state_lines: played.state.summary(),
            expected_met: played.problems.is_empty(),
            problems: played.problems,
            expected: played.expected,
        })
    }
}
