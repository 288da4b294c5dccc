//! What a load produced: the packs in load order, the [`Content`], every
//! diagnostic, the sources for rendering, and the figures of the summary.
//!
//! Plain data with its accessors (locations, hashes, the lockfile text, the
//! summary); built by [`crate::load`], read by validation, patches, script
//! tests, the watcher and the tool.

use crate::content::Content;
use crate::diag::{Code, Diagnostic, Location, SourceMap};
use crate::model::{Kind, Manifest};
use crate::tomljson::SpannedDoc;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Loader settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// Largest content, manifest or script file read, in bytes (default 8 MiB).
    pub max_file_size: u64,
    /// Compile every Lua script and inline effect (default true).
    pub compile_scripts: bool,
    /// Run the packs' own `*.test.lua` script tests (default true).
    pub run_script_tests: bool,
    /// Limits of the Lua VM that runs script tests.
    pub limits: crate::script::runtime::Limits,
    /// Build the notes (provisional entries, effects without Lua) as diagnostics;
    /// off, they are only counted (`arena check --strict` turns them on).
    pub notes: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_file_size: 8 * 1024 * 1024,
            compile_scripts: true,
            run_script_tests: true,
            limits: crate::script::runtime::Limits::default(),
            notes: false,
        }
    }
}

/// A pack that was found and whose manifest could be read.
#[derive(Debug, Clone)]
pub struct Pack {
    /// The manifest.
    pub manifest: Manifest,
    /// Its version, when it parses as semver.
    pub version: Option<semver::Version>,
    /// The pack folder, as found.
    pub root: PathBuf,
    /// Content files (`*.toml` other than the manifest), sorted.
    pub content_files: Vec<PathBuf>,
    /// Lua files, sorted, by path relative to the pack root.
    pub scripts: BTreeMap<String, PathBuf>,
    /// Situation files (`situations/*.toml`), sorted: `arena check` plays them.
    pub situations: Vec<PathBuf>,
}

/// Everything `load` produced.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Packs in load order.
    pub packs: Vec<Pack>,
    /// Every valid entry.
    pub content: Content,
    /// Every problem found, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The text of every file read, for rendering.
    pub sources: SourceMap,
    /// The parsed form of every content file and manifest, with spans.
    pub docs: BTreeMap<PathBuf, SpannedDoc>,
    /// Number of content files read.
    pub files: usize,
    /// Number of Lua sources compiled (files and inline effects).
    pub scripts: usize,
    /// Every script that compiled, ready for a VM (`script::runtime::Runtime`).
    pub script_set: Arc<crate::script::runtime::ScriptSet>,
    /// Script test cases run (`*.test.lua`).
    pub script_tests: usize,
    /// Provisional entries.
    pub provisional_entries: usize,
    /// Effects with no Lua.
    pub unsupported_effects: usize,
    /// Known gaps the packs declare (`[[gap]]` in pack.toml).
    pub gaps: usize,
    /// Scenario rules the engine cannot perform (text only).
    pub text_only_rules: usize,
    /// Patches found, applied once every content file is in.
    pub pending_patches: Vec<PendingPatch>,
    /// For each patched entry (`kind:id`), where each patched field was set.
    pub provenance: BTreeMap<String, Vec<FieldOrigin>>,
    /// The effective (patched) form of each patched entry, as JSON.
    pub effective: BTreeMap<String, Value>,
    /// Which scripted effects the smoke games of `arena check --sims` ran.
    pub coverage: Option<EffectCoverage>,
    /// Entries (`kind:id`) skipped for a schema error: what refers to them,
    /// or tests them, reports a consequence of that error, not a new one.
    pub failed_entries: std::collections::BTreeSet<String>,
}

/// Effect coverage of `arena check --sims`: of the scripted effects (Actions,
/// Switches, Automatic Skills, Tactics, States' and markers' effects; not
/// conditions or helper files), how many ran at least once, and which never did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct EffectCoverage {
    /// Scripted effects.
    pub scripted: usize,
    /// Those that ran at least once.
    pub exercised: usize,
    /// Those that never ran: (card, effect, where its Lua is, its pack).
    #[serde(skip)]
    pub never: Vec<(String, String, Location, String)>,
    /// Scripted effects by pack: (scripted, exercised).
    #[serde(skip)]
    pub by_pack: BTreeMap<String, (usize, usize)>,
}

impl EffectCoverage {
    /// The coverage of some packs only (the packs under test, not the
    /// dependencies taken from the bundled ones).
    pub fn of_packs(&self, packs: &std::collections::BTreeSet<String>) -> EffectCoverage {
        let by_pack: BTreeMap<String, (usize, usize)> =
            self.by_pack.iter().filter(|(p, _)| packs.contains(*p)).map(|(p, n)| (p.clone(), *n)).collect();
        EffectCoverage {
            scripted: by_pack.values().map(|n| n.0).sum(),
            exercised: by_pack.values().map(|n| n.1).sum(),
            never: self.never.iter().filter(|n| packs.contains(&n.3)).cloned().collect(),
            by_pack,
        }
    }
}

impl Loaded {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }

    /// Location of a JSON Pointer in a file that was read: its value's span.
    pub fn locate(&self, file: &Path, pointer: &str) -> Option<Location> {
        let span = self.docs.get(file)?.value_span(pointer)?;
        Some(self.sources.locate(file, span))
    }

    /// Location of a key in a file that was read (falls back to the value).
    pub fn locate_key(&self, file: &Path, pointer: &str) -> Option<Location> {
        let span = self.docs.get(file)?.key_span(pointer)?;
        Some(self.sources.locate(file, span))
    }
}

impl Loaded {
    /// The summary of this load.
    pub fn summary(&self) -> Summary {
        let count = |code: Code| self.diagnostics.iter().filter(|d| d.code == code).count();
        Summary {
            packs: self.packs.iter().map(|p| format!("{}@{}", p.manifest.id, p.manifest.version)).collect(),
            entries: Kind::ALL
                .iter()
                .map(|&k| (k.key().to_string(), self.content.count(k)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            files: self.files,
            scripts: self.scripts,
            script_tests: self.script_tests,
            errors: self.diagnostics.iter().filter(|d| d.is_error()).count(),
            warnings: self.diagnostics.iter().filter(|d| d.severity == crate::diag::Severity::Warning).count(),
            provisional: self.provisional_entries.max(count(Code::Provisional)),
            unsupported_effects: self.unsupported_effects.max(count(Code::UnsupportedEffect)),
            gaps: self.gaps.max(count(Code::ContentGap)),
            text_only_rules: self.text_only_rules.max(count(Code::ScenarioRuleTextOnly)),
            effect_coverage: self.coverage.clone(),
        }
    }
}

/// What a load amounted to, for the one-line summary and `--format json`.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Summary {
    /// Packs in load order, as `id@version`.
    pub packs: Vec<String>,
    /// Entries by kind (only kinds with entries), in kind order.
    pub entries: BTreeMap<String, usize>,
    /// Content files read.
    pub files: usize,
    /// Lua sources compiled.
    pub scripts: usize,
    /// Script test cases run.
    pub script_tests: usize,
    /// Diagnostics by severity.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Provisional entries (`--strict` lists them).
    pub provisional: usize,
    /// Effects with no Lua yet.
    pub unsupported_effects: usize,
    /// Things the rulebooks name that the packs say they leave out.
    #[serde(skip_serializing_if = "is_zero")]
    pub gaps: usize,
    /// Scenario rules that are text only (`--strict` lists them).
    #[serde(skip_serializing_if = "is_zero")]
    pub text_only_rules: usize,
    /// Effect coverage of the smoke games, with `--sims`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect_coverage: Option<EffectCoverage>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Where a field of the effective content was last set, and the chain before it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldOrigin {
    /// The field, as a keyed path inside the entry (`actions[id=x].cost`).
    pub path: String,
    /// The pack that set it.
    pub pack: String,
    /// The file and line of the operation.
    pub file: PathBuf,
    /// Line of the operation.
    pub line: usize,
    /// The patch's reason, if any.
    pub reason: Option<String>,
    /// The value before this operation (absent for an added field).
    pub before: Option<Value>,
}

/// A patch found while loading, to apply once all content is in (`crate::patch`).
#[derive(Debug, Clone)]
pub struct PendingPatch {
    /// Its pack.
    pub pack: String,
    /// Its file.
    pub file: PathBuf,
    /// JSON Pointer of the `[[patch]]` table in the file.
    pub pointer: String,
}
