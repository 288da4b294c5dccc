//! Diagnostics: one type for every problem the platform reports, and its renderers.
//!
//! A [`Diagnostic`] has a stable kebab-case [`Code`], a severity, a terse message,
//! an optional location (file, byte span, 1-based line and column), the content
//! path of the offending value (`character:valkyrie actions[id=frostbite].cost`),
//! notes and a help line. Renderers are separate functions, one per format:
//! [`render_human`], [`render_json`], [`render_github`], [`render_sarif`].
//!
//! This module does not read files: the human renderer is given the sources it
//! needs through a [`SourceMap`] the loader filled.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How serious a diagnostic is. Errors make `arena check` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Content that cannot be used.
    Error,
    /// Content that loads but is probably wrong.
    Warning,
    /// Information, such as provisional content under `--strict`.
    Note,
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $doc:literal;)*) => {
        /// The stable code of a diagnostic. The kebab-case names are part of the
        /// public interface (`--format json` and docs/diagnostics.md); never rename one.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $(#[doc = $doc] $variant,)* }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
            /// The kebab-case name (`unknown-field`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }
            /// One line on what the code means.
            pub fn description(self) -> &'static str {
                match self { $(Code::$variant => $doc,)* }
            }
        }
    };
}

codes! {
    Io = "io-error", "A file or folder could not be read.";
    NotAPack = "not-a-pack", "A path given to check holds no pack.toml, directly or one level down.";
    FileTooLarge = "file-too-large", "A content file is larger than the loader accepts.";
    NotUtf8 = "not-utf8", "A content file is not valid UTF-8.";
    TomlSyntax = "toml-syntax", "A file is not valid TOML.";
    WrongType = "wrong-type", "A value has the wrong type for its key.";
    UnknownField = "unknown-field", "A key the format does not define; it would otherwise be ignored.";
    MissingField = "missing-field", "A required key is absent.";
    InvalidValue = "invalid-value", "A value is of the right type but not allowed (range, enum, pattern, length).";
    InvalidId = "invalid-id", "An id is not kebab-case.";
    DuplicateId = "duplicate-id", "Two entries of one kind share an id.";
    DanglingReference = "dangling-reference", "A reference names an entry that no loaded pack defines.";
    DicePoolLimit = "dice-pool-limit", "A Roll holds more dice of one colour than the rules allow.";
    InvalidVersion = "invalid-version", "A version or version requirement is not valid semver.";
    DuplicatePack = "duplicate-pack", "Two packs share an id.";
    MissingDependency = "missing-dependency", "A pack depends on a pack that is not loaded.";
    VersionMismatch = "version-mismatch", "A dependency is loaded at a version its requirement does not allow.";
    DependencyCycle = "dependency-cycle", "Packs depend on each other in a cycle.";
    IncompatiblePacks = "incompatible-packs", "Two loaded packs declare themselves incompatible.";
    PathEscapesPack = "path-escapes-pack", "A path leads outside its pack folder (`..`, absolute, or a symlink).";
    ScriptNotFound = "script-not-found", "A script file named by an effect does not exist in the pack.";
    ScriptCompile = "script-compile", "A Lua script does not compile.";
    ScriptBytecode = "script-bytecode", "A Lua script is precompiled bytecode; only source is accepted.";
    ScriptError = "script-error", "A script raised a Lua error or called the API with a wrong argument.";
    ScriptBudget = "script-budget-exhausted", "A script used up its instruction budget (an endless loop).";
    ScriptMemory = "script-memory-exhausted", "A script reached the VM's memory limit.";
    ScriptUnknownFunction = "script-unknown-function", "A script calls a `game:` function that the Lua API of its game does not have.";
    ScriptNeverEnds = "script-never-ends", "A loop in a script can never end: its condition never changes and nothing in it leaves it.";
    ScriptTestFailed = "script-test-failed", "A pack's own Lua test of its effects failed.";
    SituationFailed = "situation-failed", "A situation of a pack's `situations/` folder did not play as written.";
    TimingNotPlayed = "timing-not-played", "A Tactic or Automatic Skill has a timing at which the engine never plays that kind of card.";
    EffectSource = "effect-source", "An effect gives both inline Lua and a script file.";
    UnsupportedEffect = "unsupported-effect", "An effect has printed text but no Lua yet: the engine cannot run it.";
    ScenarioRuleTextOnly = "scenario-rule-text-only", "A Scenario rule is text the engine cannot perform: no declarative key, no Lua, no `performed_by` (listed with `--strict`).";
    ObjectiveNeverScored = "objective-never-scored", "A Scenario rule gives Victory Points that nothing can award, or names a key the Scenario does not set.";
    ScenarioRulePerformedTwice = "scenario-rule-performed-twice", "A Scenario rule has `performed_by` and also a declarative key or Lua that performs it.";
    PatchTargetMissing = "patch-target-missing", "A patch names an entry that no pack it depends on defines.";
    PatchKeyNotFound = "patch-key-not-found", "A patch path names a key or list item the entry does not have.";
    PatchGuardFailed = "patch-guard-failed", "A patch's `expect` guard does not match: the card changed since the patch was written.";
    PatchIndexPath = "patch-index-path", "A patch path selects a list item by index alone; a reordered list would retarget it.";
    PatchConflict = "patch-conflict", "Two packs write the same field and neither is ordered after the other.";
    PatchInvalid = "patch-invalid", "A patch would make its entry invalid; it is not applied.";
    PatchFailed = "patch-failed", "A patch operation cannot be applied (RFC 6902 rules).";
    LockMismatch = "lock-mismatch", "`arena check --locked`: the packs differ from `arena.lock` (added, removed, another version, other content).";
    SimFailed = "sim-failed", "A simulated game (`arena check --sims`) stopped on an engine error or did not end.";
    EffectNotExercised = "effect-not-exercised", "A scripted effect never ran in the smoke games of `arena check --sims` (listed with `--strict`).";
    PatchUnguarded = "patch-unguarded", "A patch replaces printed text or numbers without an `expect` guard (listed with `--strict`).";
    CaseConflict = "case-conflict", "Two files of a pack have names that differ only in case: the pack breaks on Windows and macOS.";
    Provisional = "provisional", "An entry stands in for data the rulebooks print as a picture.";
    MarkersMissing = "markers-missing", "A Scenario places Special Space markers or Running Projectiles that no loaded pack has (enough of).";
    ContentGap = "content-gap", "Something the rulebooks name is not in the pack (its text is not printed); the pack's manifest says so.";
}

impl Code {
    /// What to do about a diagnostic of this code, in one or two sentences: the
    /// rule's help in SARIF and its "What to do" in docs/diagnostics.md.
    pub fn fix(self) -> &'static str {
        match self {
            Code::Io => "Check that the path exists and is readable; give a pack folder or a folder of packs.",
            Code::NotAPack => {
                "Give the folder that holds `pack.toml` (or a folder of such folders); `arena new pack NAME` makes one."
            }
            Code::FileTooLarge => {
                "Split the file, or raise the limit with `--max-file-size BYTES` if it is meant to be this large."
            }
            Code::NotUtf8 => "Save the file as UTF-8 (without another encoding's byte-order mark).",
            Code::TomlSyntax => "Fix the TOML at the caret: a missing quote, bracket or `=` is the usual cause.",
            Code::WrongType => {
                "Write the value with the type the key takes (the schema in `schemas/` lists each key's type)."
            }
            Code::UnknownField => "Correct the key's spelling (the hint names the nearest known key), or remove it.",
            Code::MissingField => "Add the key; docs/packs.md lists the required keys of each kind of entry.",
            Code::InvalidValue => {
                "Use one of the allowed values, or a value in the allowed range; the message names them."
            }
            Code::InvalidId => {
                "Write the id in kebab-case: lower-case letters, digits and single hyphens (`major-lunah`)."
            }
            Code::DuplicateId => {
                "Give one of the entries another id, or patch the existing entry instead of defining it again."
            }
            Code::DanglingReference => {
                "Correct the id (the hint names the nearest one), or load the pack that defines it (add it to `dependencies`)."
            }
            Code::DicePoolLimit => "Lower the number of dice of that colour to the rules' limit.",
            Code::InvalidVersion => "Write a semver version (`1.2.0`) or requirement (`^1.0`).",
            Code::DuplicatePack => "Give one of the packs another id, or load only one of them.",
            Code::MissingDependency => "Load the pack it depends on (pass its folder too), or remove the dependency.",
            Code::VersionMismatch => {
                "Load a version of the dependency that matches the requirement, or change the requirement."
            }
            Code::DependencyCycle => "Remove one of the dependencies so that the packs form no cycle.",
            Code::IncompatiblePacks => "Load only one of the two packs.",
            Code::PathEscapesPack => {
                "Keep every path inside the pack folder: no `..`, no absolute path, no symlink out."
            }
            Code::ScriptNotFound => "Correct the script's path (relative to the pack root), or add the file.",
            Code::ScriptCompile => "Fix the Lua syntax at the line shown (`arena script FILE` runs it alone).",
            Code::ScriptBytecode => "Ship the Lua source instead of compiled bytecode.",
            Code::ScriptError => {
                "Fix the script at the line shown; docs/lua-api.md gives each API function's arguments."
            }
            Code::ScriptBudget => "Make the loop end; an effect has a fixed instruction budget.",
            Code::ScriptMemory => "Build smaller tables; an effect has a fixed memory limit.",
            Code::ScriptUnknownFunction => {
                "Correct the name (the hint names the nearest one); docs/lua-api.md (Aristeia!) and docs/invictus-lua-api.md (Invictus) list each game's functions."
            }
            Code::ScriptNeverEnds => {
                "Give the loop a condition that can become false, or a `break`, `return` or `error(...)` inside it."
            }
            Code::ScriptTestFailed => {
                "Fix the effect or its test (`*.test.lua` beside it); the message gives the failed assertion."
            }
            Code::SituationFailed => {
                "Fix the content or the situation's `expect`; `arena run FILE` shows what happened."
            }
            Code::TimingNotPlayed => "Use a timing the engine plays that kind of card at (docs/windows.md lists them).",
            Code::EffectSource => "Keep either the inline `lua` or the `script` file, not both.",
            Code::UnsupportedEffect => "Write the effect's Lua (`lua` or `script`) so the engine can run it.",
            Code::ScenarioRuleTextOnly => {
                "Give the rule an `objective`, `move_scoring_zone`, `rewards`, an `effect` with Lua, or `performed_by` (docs/scenarios.md)."
            }
            Code::ObjectiveNeverScored => {
                "Give the rule an `objective`, `rewards` or an `effect` that calls `game:gain_victory_points`, or set the key it names."
            }
            Code::ScenarioRulePerformedTwice => {
                "Remove `performed_by`: the rule's `objective`, `move_scoring_zone`, `rewards` or `effect` performs it."
            }
            Code::PatchTargetMissing => "Correct the patched entry's reference, or depend on the pack that defines it.",
            Code::PatchKeyNotFound => "Correct the patch path; `arena show KIND:ID --fields` lists the entry's fields.",
            Code::PatchGuardFailed => "Read the entry's current value and update the patch (and its `expect`) to it.",
            Code::PatchIndexPath => "Select the list item by its id (`actions[id=frostbite]`) instead of its index.",
            Code::PatchConflict => {
                "Order the packs: make one depend on the other (or `load_after` it), or patch different fields."
            }
            Code::PatchInvalid => {
                "Change the patch so that the entry it makes is valid; the note gives the entry's error."
            }
            Code::PatchFailed => {
                "Correct the operation (RFC 6902: the path must exist for `replace`, `remove`, `test`)."
            }
            Code::LockMismatch => {
                "If the change is intended, run `arena lock` with the same paths and commit the lockfile."
            }
            Code::SimFailed => {
                "Reproduce the game with the `arena sim` command in the message and fix the effect or content at fault."
            }
            Code::EffectNotExercised => {
                "Play more games (`--sims N`), add a situation that makes it run, or give a ready-made setup with its Character."
            }
            Code::PatchUnguarded => {
                "Add `expect = ...` with the value the patch was written against, so a changed base fails loudly."
            }
            Code::CaseConflict => "Rename one of the files so that no two names differ only in case.",
            Code::Provisional => "Replace the stand-in data with the rulebook's, then remove `provisional`.",
            Code::MarkersMissing => "Load a pack that has the markers (or enough of them), or place fewer.",
            Code::ContentGap => "Nothing to do until the text is known; the manifest's `gaps` documents it.",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A position in a file: byte span (0-based, half-open, in the file's bytes) and
/// the 1-based line and column (in characters) of its start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file, as given to or found by the loader.
    pub file: PathBuf,
    /// Byte offsets `[start, end)` into the file, or `None` for the whole file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<std::ops::Range<usize>>,
    /// 1-based line of the span's start (1 when there is no span).
    pub line: usize,
    /// 1-based column, in characters, of the span's start (1 when there is no span).
    pub column: usize,
}

/// One reported problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable code.
    pub code: Code,
    /// Severity.
    pub severity: Severity,
    /// One terse sentence.
    pub message: String,
    /// Where, if the problem is in a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// The content path of the value (`character:valkyrie actions[id=frostbite].cost`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_path: Option<String>,
    /// Further facts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
}

impl Diagnostic {
    /// A new error with no location.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, message)
    }

    /// A new warning with no location.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, message)
    }

    /// A new note with no location.
    pub fn note(code: Code, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Note, message)
    }

    fn new(code: Code, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            location: None,
            content_path: None,
            notes: Vec::new(),
            help: None,
        }
    }

    /// Attach a location.
    pub fn at(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// Attach a location when there is one.
    pub fn at_opt(mut self, location: Option<Location>) -> Self {
        self.location = location;
        self
    }

    /// Attach the content path.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.content_path = Some(path.into());
        self
    }

    /// Add a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Set the help line.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The text of the files diagnostics point into, for rendering source lines,
/// with each file's line starts indexed so locating a span is a binary search.
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: BTreeMap<PathBuf, (Arc<str>, Arc<[usize]>)>,
}

impl SourceMap {
    /// Record a file's text.
    pub fn insert(&mut self, path: PathBuf, text: Arc<str>) {
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        self.files.insert(path, (text, starts.into()));
    }

    /// The recorded files' paths, in order.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    /// The text of a file, if recorded.
    pub fn get(&self, path: &Path) -> Option<&str> {
        self.files.get(path).map(|(s, _)| &**s)
    }

    /// A location for a byte span of a recorded file. Line and column are computed
    /// on the text; a leading byte-order mark counts as no column.
    pub fn locate(&self, path: &Path, span: std::ops::Range<usize>) -> Location {
        let (line, column) = match self.files.get(path) {
            Some((text, starts)) => {
                let mut offset = span.start.min(text.len());
                while !text.is_char_boundary(offset) {
                    offset -= 1;
                }
                let line = starts.partition_point(|s| *s <= offset);
                let start = starts[line - 1];
                let mut col_text = &text[start..offset];
                if start == 0 {
                    col_text = col_text.strip_prefix('\u{feff}').unwrap_or(col_text);
                }
                (line, col_text.chars().count() + 1)
            }
            None => (1, 1),
        };
        Location { file: path.to_path_buf(), span: Some(span), line, column }
    }
}

/// The location of a whole 1-based line of `text` (its span covers the line,
/// without the line break); line 1 if the text has fewer lines.
pub fn line_location(file: &Path, text: &str, line: usize) -> Location {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let start = start.min(text.len());
    let end = text[start..].find(['\r', '\n']).map_or(text.len(), |n| start + n);
    let (line, column) = line_column(text, start);
    Location { file: file.to_path_buf(), span: Some(start..end), line, column }
}

/// The 1-based line and column (in characters) of a byte offset. `\r\n` counts as
/// one line break; a leading UTF-8 byte-order mark occupies no column.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let mut col_text = &before[line_start..];
    if line_start == 0 {
        col_text = col_text.strip_prefix('\u{feff}').unwrap_or(col_text);
    }
    (line, col_text.chars().count() + 1)
}

/// Render diagnostics for a person: each with its source line and a caret.
pub fn render_human(diags: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
    let renderer = if color { Renderer::styled() } else { Renderer::plain() };
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        let title = level.primary_title(d.message.as_str()).id(d.code.as_str());
        let mut group = Group::with_title(title);
        let mut origin_only = None;
        if let Some(loc) = &d.location {
            let origin = loc.file.display().to_string();
            match (sources.get(&loc.file), &loc.span) {
                (Some(text), Some(span)) => {
                    let (text, span) = strip_bom(text, span.clone());
                    // Only the lines the span covers: rendering a whole file per
                    // diagnostic would make many diagnostics quadratic.
                    let start = text[..span.start.min(text.len())].rfind('\n').map_or(0, |i| i + 1);
                    let mut end = text[span.end.min(text.len())..]
                        .find('\n')
                        .map_or(text.len(), |i| span.end.min(text.len()) + i);
                    if end > start && text.as_bytes()[end - 1] == b'\r' && end > span.end {
                        end -= 1;
                    }
                    let first_line = loc.line;
                    let excerpt = &text[start..end];
                    let span = (span.start - start)..(span.end.min(end) - start);
                    let label = printable(d.content_path.as_deref().unwrap_or_default());
                    let snippet = Snippet::source(excerpt.to_string())
                        .path(origin)
                        .line_start(first_line)
                        .annotation(AnnotationKind::Primary.span(span).label(label));
                    group = group.element(snippet);
                }
                _ => origin_only = Some(format!("{origin}:{}:{}", loc.line, loc.column)),
            }
        }
        if let Some(o) = origin_only {
            group = group.element(Level::NOTE.message(format!("in {o}")));
        }
        if d.location.as_ref().is_none_or(|l| l.span.is_none()) {
            if let Some(p) = &d.content_path {
                group = group.element(Level::NOTE.message(format!("at {}", printable(p))));
            }
        }
        for n in &d.notes {
            group = group.element(Level::NOTE.message(n.as_str()));
        }
        if let Some(h) = &d.help {
            group = group.element(Level::HELP.message(h.as_str()));
        }
        out.push_str(&renderer.render(&[group]));
        out.push_str("\n\n");
    }
    out
}

/// `s` with each control character shown, never sent to the terminal (a
/// pack's id with an ESC in it would otherwise colour or move the designer's
/// terminal): C0 ones and DEL as their Unicode control pictures (`␛`, as the
/// renderer shows them in messages), others as `\u{..}`.
fn printable(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or('?').to_string(),
            '\u{7f}' => "\u{2421}".to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn strip_bom(text: &str, span: std::ops::Range<usize>) -> (&str, std::ops::Range<usize>) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, span.start.saturating_sub(3)..span.end.saturating_sub(3)),
        None => {
            let end = span.end.min(text.len());
            (text, span.start.min(end)..end)
        }
    }
}

/// The documented, stable JSON form: `{"version": 1, "diagnostics": [...], "summary": {...}}`.
/// See docs/diagnostics.md.
pub fn render_json(diags: &[Diagnostic], summary: &serde_json::Value) -> String {
    let value = serde_json::json!({
        "version": 1,
        "diagnostics": diags,
        "summary": summary,
    });
    let mut s = serde_json::to_string_pretty(&value).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// Where the repository is, for the formats that code scanning reads
/// (`--format github`, `--format sarif`): their paths are relative to its root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoRoot {
    /// The folder relative file names in diagnostics are relative to (absolute).
    cwd: PathBuf,
    /// The repository root (absolute, lexically normalized).
    root: PathBuf,
}

impl RepoRoot {
    /// `root` as the repository root; a relative `root` is taken from `cwd`.
    pub fn new(cwd: &Path, root: &Path) -> Self {
        let cwd = normalize(cwd);
        RepoRoot { root: normalize(&cwd.join(root)), cwd }
    }

    /// The nearest folder from `cwd` upward that holds `.git` (a folder, or
    /// the file of a worktree or submodule), else `cwd` itself.
    pub fn discover(cwd: &Path) -> Self {
        let cwd = normalize(cwd);
        let root = cwd.ancestors().find(|d| d.join(".git").exists()).unwrap_or(&cwd).to_path_buf();
        RepoRoot { cwd, root }
    }

    /// The repository root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `file` relative to the root, with `/` separators; `None` when it lies
    /// outside the root.
    pub fn relative(&self, file: &Path) -> Option<String> {
        let abs = normalize(&self.cwd.join(file));
        let rel = abs.strip_prefix(&self.root).ok()?;
        let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        Some(parts.join("/"))
    }

    /// `file` as an absolute path (lexically normalized).
    fn absolute(&self, file: &Path) -> PathBuf {
        normalize(&self.cwd.join(file))
    }
}

/// `.` and `..` removed without touching the file system (`a/./b/../c` is `a/c`).
fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// A path for a URI: each segment percent-encoded (RFC 3986: everything but
/// the unreserved characters), segments joined with `/`.
fn uri_path<'a>(segments: impl IntoIterator<Item = &'a str>) -> String {
    const SEGMENT: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    segments
        .into_iter()
        .map(|s| percent_encoding::utf8_percent_encode(s, SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

/// The 1-based line and column (in characters) just past the end of a
/// diagnostic's span, when its file's text is known.
fn end_position(loc: &Location, sources: &SourceMap) -> Option<(usize, usize)> {
    let span = loc.span.as_ref()?;
    let text = sources.get(&loc.file)?;
    Some(line_column(text, span.end.max(span.start)))
}

/// Where each code is explained: its section of docs/diagnostics.md.
pub fn help_uri(code: Code) -> String {
    format!("{}/blob/main/docs/diagnostics.md#{}", env!("CARGO_PKG_REPOSITORY"), code.as_str())
}

/// A workflow command's message, escaped as the Actions toolkit escapes one
/// (`%`, then carriage return and line feed).
pub fn github_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// GitHub Actions workflow commands, one per diagnostic:
/// `::error file=..,line=..,endLine=..,col=..,endColumn=..,title=..::msg`, with
/// the file relative to the repository root (what the runner needs to put the
/// annotation on the pull request's line).
pub fn render_github(diags: &[Diagnostic], sources: &SourceMap, repo: &RepoRoot) -> String {
    use github_data as escape_data;
    fn escape_prop(s: &str) -> String {
        escape_data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut out = String::new();
    for d in diags {
        let cmd = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let mut props = Vec::new();
        if let Some(loc) = &d.location {
            let file = repo.relative(&loc.file).unwrap_or_else(|| loc.file.display().to_string());
            props.push(format!("file={}", escape_prop(&file)));
            props.push(format!("line={}", loc.line));
            let end = end_position(loc, sources);
            if let Some((line, _)) = end {
                props.push(format!("endLine={line}"));
            }
            props.push(format!("col={}", loc.column));
            // GitHub takes a column range only on one line.
            if let Some((line, column)) = end.filter(|(l, _)| *l == loc.line) {
                let _ = line;
                props.push(format!("endColumn={column}"));
            }
        }
        props.push(format!("title={}", escape_prop(d.code.as_str())));
        let mut msg = d.message.clone();
        if let Some(p) = &d.content_path {
            msg.push_str(&format!(" ({p})"));
        }
        if let Some(h) = &d.help {
            msg.push_str(&format!("\nhelp: {h}"));
        }
        out.push_str(&format!("::{cmd} {}::{}\n", props.join(","), escape_data(&msg)));
    }
    out
}

/// A rule's `name` in SARIF: its id in PascalCase (`unknown-field` is
/// `UnknownField`), distinct from the id as SARIF's guidance asks.
pub fn rule_name(code: Code) -> String {
    code.as_str()
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

/// SARIF 2.1.0, for code-scanning services. Every code is a rule with a short
/// and a full description, help and a help URI; each result's file is a
/// percent-encoded URI relative to the repository root (`uriBaseId`
/// `%SRCROOT%`), or an absolute `file://` URI for a file outside it; regions
/// have start and end lines and columns, columns counting Unicode code points.
pub fn render_sarif(diags: &[Diagnostic], sources: &SourceMap, repo: &RepoRoot) -> String {
    use serde_sarif::sarif;
    let text = |t: &str| sarif::MultiformatMessageString::builder().text(t).build();
    let rules: Vec<sarif::ReportingDescriptor> = Code::ALL
        .iter()
        .map(|c| {
            let full = format!("{} {}", c.description(), c.fix());
            let help = sarif::MultiformatMessageString::builder()
                .text(c.fix())
                .markdown(format!("{}\n\n[More about `{}`]({})", c.fix(), c.as_str(), help_uri(*c)))
                .build();
            sarif::ReportingDescriptor::builder()
                .id(c.as_str())
                .name(rule_name(*c))
                .short_description(text(c.description()))
                .full_description(text(&full))
                .help(help)
                .help_uri(help_uri(*c))
                .build()
        })
        .collect();
    let results: Vec<sarif::Result> = diags
        .iter()
        .map(|d| {
            let level = match d.severity {
                Severity::Error => sarif::ResultLevel::Error,
                Severity::Warning => sarif::ResultLevel::Warning,
                Severity::Note => sarif::ResultLevel::Note,
            };
            let mut text = d.message.clone();
            if let Some(p) = &d.content_path {
                text.push_str(&format!(" ({p})"));
            }
            if let Some(h) = &d.help {
                text.push_str(&format!(" Help: {h}"));
            }
            let message = sarif::Message::builder().text(text).build();
            let locations: Vec<sarif::Location> = d
                .location
                .iter()
                .map(|loc| {
                    let artifact = match repo.relative(&loc.file) {
                        Some(rel) => sarif::ArtifactLocation::builder()
                            .uri(uri_path(rel.split('/')))
                            .uri_base_id("%SRCROOT%")
                            .build(),
                        None => {
                            let abs = repo.absolute(&loc.file);
                            let segments: Vec<String> = abs
                                .components()
                                .filter(|c| matches!(c, std::path::Component::Normal(_)))
                                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                                .collect();
                            let uri = format!("file:///{}", uri_path(segments.iter().map(String::as_str)));
                            sarif::ArtifactLocation::builder().uri(uri).build()
                        }
                    };
                    let region = match end_position(loc, sources) {
                        Some((end_line, end_column)) => sarif::Region::builder()
                            .start_line(loc.line as i64)
                            .start_column(loc.column as i64)
                            .end_line(end_line as i64)
                            .end_column(end_column as i64)
                            .build(),
                        None => {
                            sarif::Region::builder().start_line(loc.line as i64).start_column(loc.column as i64).build()
                        }
                    };
                    let physical =
                        sarif::PhysicalLocation::builder().artifact_location(artifact).region(region).build();
                    sarif::Location::builder().physical_location(physical).build()
                })
                .collect();
            let index = Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0) as i64;
            sarif::Result::builder()
                .rule_id(d.code.as_str())
                .rule_index(index)
                .level(level)
                .message(message)
                .locations(locations)
                .build()
        })
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("arena")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri(env!("CARGO_PKG_REPOSITORY"))
        .rules(rules)
        .build();
    let run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .results(results)
        .build();
    let doc =
        sarif::Sarif::builder().version(serde_json::json!("2.1.0")).schema(sarif::SCHEMA_URL).runs(vec![run]).build();
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexed_locations_agree_with_counting() {
        let text = "\u{feff}a = 1\r\nb = \"é\"\n\nc = [\n  2,\n]\n";
        let mut map = SourceMap::default();
        map.insert(PathBuf::from("f.toml"), text.into());
        for offset in 0..=text.len() {
            if !text.is_char_boundary(offset) {
                continue;
            }
            let loc = map.locate(Path::new("f.toml"), offset..offset);
            assert_eq!((loc.line, loc.column), line_column(text, offset), "offset {offset}");
        }
    }
}

/// `text` cut to at most `max` bytes on a character boundary, with `...` when
/// cut (what `str::floor_char_boundary` does, which needs Rust 1.91; the
/// workspace supports 1.85).
pub fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

#[cfg(test)]
mod shorten_tests {
    #[test]
    fn cuts_on_a_character_boundary() {
        assert_eq!(super::shorten("abc", 3), "abc");
        assert_eq!(super::shorten("abcd", 3), "abc...");
        assert_eq!(super::shorten("aé", 2), "a...");
    }
}
