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

impl SituationError {
    /// A situation file that does not read as its game's TOML: at the span
    /// the parser names, in the words of a situation file rather than of
    /// Rust's types ([`plain_toml_message`]).
    pub fn of_toml(text: &str, e: &toml::de::Error) -> SituationError {
        SituationError {
            message: plain_toml_message(e.message()),
            at: e.span().map(|r| crate::diag::line_column(text, r.start)),
        }
    }
}

impl std::fmt::Display for SituationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A TOML reader's message as a situation file's author reads it: an
/// unknown key or name with the nearest known one (`unknown key `helth`
/// (did you mean `health`?)`), numbers by their range instead of Rust's
/// integer types (`expected u8` is `expected a whole number from 0 to
/// 255`), and `imposed_by`'s two forms instead of "untagged enum".
pub fn plain_toml_message(message: &str) -> String {
    let message = message.trim();
    let names = |list: &str| -> Vec<String> { list.split('`').skip(1).step_by(2).map(str::to_string).collect() };
    for (prefix, what) in [("unknown field `", "key"), ("unknown variant `", "value")] {
        let Some(rest) = message.strip_prefix(prefix) else { continue };
        let Some((name, rest)) = rest.split_once('`') else { continue };
        let known = rest.split_once("expected").map(|(_, l)| names(l)).unwrap_or_default();
        let hint = crate::rules::situation::mean(name, &known);
        return if known.is_empty() {
            format!("unknown {what} `{name}`: none is allowed here")
        } else {
            format!("unknown {what} `{name}`{hint}; the {what}s allowed here: {}", known.join(", "))
        };
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        return format!("missing key `{rest}");
    }
    if message.starts_with("invalid type: integer") && message.ends_with("expected any valid TOML value") {
        let n = message.split('`').nth(1).unwrap_or_default();
        return format!("`{n}` is too large: a TOML whole number is at most 9223372036854775807");
    }
    if message.contains("untagged enum ImposedBy") {
        return "each State of `imposed_by` takes one Character (`imposed_by = { burning = \"gata\" }`) or a list of who imposed how many of its tokens (`imposed_by = { burning = [{ by = \"gata\", tokens = 1 }, { by = \"mystr\", tokens = 1 }] }`)".into();
    }
    let ranges = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number from 0"),
        ("usize", "a whole number from 0"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i64", "a whole number"),
        ("i128", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
    ];
    let mut out = message.to_string();
    for (ty, words) in ranges {
        for (from, to) in
            [(format!("expected {ty}"), format!("expected {words}")), (format!(" as {ty}"), String::new())]
        {
            // Whole words only: `u8` but not `u8x`.
            let mut rebuilt = String::new();
            let mut rest = out.as_str();
            while let Some(i) = rest.find(&from) {
                let after = &rest[i + from.len()..];
                let whole = !after.starts_with(|c: char| c.is_ascii_alphanumeric());
                rebuilt.push_str(&rest[..i]);
                rebuilt.push_str(if whole { &to } else { &from });
                rest = after;
            }
            rebuilt.push_str(rest);
            out = rebuilt;
        }
    }
    out
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
