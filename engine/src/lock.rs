//! `arena.lock`: the packs a CI run expects, and `arena check --locked`.
//!
//! The lockfile lists every pack in load order with its version, a hash of its
//! files and a hash of each file. Texts are hashed with their line endings
//! made `\n`, so a Windows checkout (CRLF) locks and checks the same as any
//! other; the lockfile is read as TOML, so its own line endings and comments do
//! not matter either. A mismatch names the pack, and the file that differs.

use crate::diag::{Code, Diagnostic, Location};
use crate::loaded::{Loaded, Pack};
use crate::read::{MANIFEST, rel_key};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Text with CRLF (and lone CR) line endings made LF.
fn normalized(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n").into() } else { text.into() }
}

/// The files of a pack that its hash covers, as (path inside the pack, path).
fn files(pack: &Pack) -> Vec<(String, PathBuf)> {
    let mut files: Vec<&PathBuf> = pack.content_files.iter().chain(pack.scripts.values()).collect();
    files.sort();
    let manifest = pack.root.join(MANIFEST);
    std::iter::once(&manifest)
        .chain(files)
        .map(|f| (rel_key(f.strip_prefix(&pack.root).unwrap_or(f)), f.clone()))
        .collect()
}

/// One pack as locked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
struct Locked {
    /// The pack's id (its `pack.toml`).
    id: String,
    /// The pack's version (its `pack.toml`).
    version: String,
    /// BLAKE3 of the pack's files (path inside the pack, text with `\n` line
    /// endings), in hex.
    hash: String,
    /// Path inside the pack → hash of its text (absent in older lockfiles).
    #[serde(default)]
    files: Option<BTreeMap<String, String>>,
}

/// `arena.lock`, as `arena lock` writes it (`arena check --locked` reads it).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[schemars(title = "arena lockfile (arena.lock)")]
struct LockFile {
    /// Every pack pinned, in load order.
    #[serde(default)]
    pack: Vec<Locked>,
}

/// The schema of `arena.lock` (`schemas/lock.schema.json`).
pub fn lock_schema() -> serde_json::Value {
    schemars::generate::SchemaSettings::draft07().into_generator().into_root_schema_for::<LockFile>().to_value()
}

fn lock_of(loaded: &Loaded, pack: &Pack) -> Locked {
    let mut whole = blake3::Hasher::new();
    let mut each = BTreeMap::new();
    for (rel, path) in files(pack) {
        let text = normalized(loaded.sources.get(&path).unwrap_or_default()).into_owned();
        // The pack's hash is what `Loaded::pack_hash` computes for LF text, so
        // lockfiles written before line endings were normalized still match.
        whole.update(rel.as_bytes());
        whole.update(b"\0");
        whole.update(text.as_bytes());
        whole.update(b"\0");
        each.insert(rel, blake3::hash(text.as_bytes()).to_hex()[..16].to_string());
    }
    Locked {
        id: pack.manifest.id.to_string(),
        version: pack.manifest.version.clone(),
        hash: whole.finalize().to_hex().to_string(),
        files: Some(each),
    }
}

/// The lockfile of this load: every pack in load order, its version, the hash
/// of its files and of each file.
pub fn lockfile(loaded: &Loaded) -> String {
    let mut s = String::from(
        "# arena.lock: the packs `arena check --locked` expects, in load order. Written by `arena lock`.\n",
    );
    for p in &loaded.packs {
        let l = lock_of(loaded, p);
        s.push_str(&format!("\n[[pack]]\nid = {:?}\nversion = {:?}\nhash = {:?}\n", l.id, l.version, l.hash));
        s.push_str("\n[pack.files]\n");
        for (rel, h) in l.files.iter().flatten() {
            s.push_str(&format!("{rel:?} = {h:?}\n"));
        }
    }
    s
}

/// `arena check --locked`: how the loaded packs differ from the lockfile
/// `text` (read from `file`); nothing when they match. The lockfile pins the
/// packs it lists: one it lists that is not loaded, or differs, is an error;
/// a loaded pack it does not list (a mod's own) is a note.
pub fn check(loaded: &Loaded, text: Option<&str>, file: &Path) -> Vec<Diagnostic> {
    let help = "run `arena lock` (with the same paths) and commit the lockfile, if the change is intended";
    let at = |line: usize| Location { file: file.to_path_buf(), span: None, line, column: 1 };
    let Some(text) = text else {
        return vec![
            Diagnostic::error(Code::LockMismatch, format!("`{}` is missing", file.display())).at(at(1)).help(help),
        ];
    };
    let expected = match toml::from_str::<LockFile>(text) {
        Ok(l) => l.pack,
        Err(e) => {
            let line = e.span().map_or(1, |s| text[..s.start.min(text.len())].lines().count().max(1));
            return vec![
                Diagnostic::error(
                    Code::LockMismatch,
                    format!("`{}` is not a valid lockfile: {}", file.display(), e.message()),
                )
                .at(at(line))
                .help(help),
            ];
        }
    };
    // The line of a pack's `id = "..."` in the lockfile, to point at.
    let line_of = |id: &str| {
        text.lines()
            .position(|l| {
                let l = l.trim();
                l.starts_with("id") && l.split_once('=').is_some_and(|(_, v)| v.trim().trim_matches('"') == id)
            })
            .map_or(1, |i| i + 1)
    };
    // A lockfile that pins nothing (empty, a comment, a failed `arena lock
    // --output -` in a pipe) would pass every check: refused.
    if expected.is_empty() {
        return vec![
            Diagnostic::error(Code::LockMismatch, format!("`{}` pins no pack", file.display())).at(at(1)).help(help),
        ];
    }
    let actual: Vec<Locked> = loaded.packs.iter().map(|p| lock_of(loaded, p)).collect();
    let mut out = Vec::new();
    let mismatch =
        |line: usize, message: String| Diagnostic::error(Code::LockMismatch, message).at(at(line)).help(help);
    for a in &actual {
        let Some(e) = expected.iter().find(|e| e.id == a.id) else {
            // The lockfile pins what it lists: a pack it does not list is
            // under test (a mod's own pack, which every pull request
            // changes), checked as it is; said with --strict.
            let root = loaded.packs.iter().find(|p| p.manifest.id == a.id).map(|p| p.root.display().to_string());
            out.push(
                Diagnostic::note(
                    Code::LockMismatch,
                    format!(
                        "pack `{}` ({}) is not pinned by `{}`: checked as it is",
                        a.id,
                        root.unwrap_or_default(),
                        file.display()
                    ),
                )
                .at(at(1))
                .help(
                    "`arena lock` pins the packs it is given: lock only the packs you depend on to keep yours unpinned",
                ),
            );
            continue;
        };
        let line = line_of(&a.id);
        if e.version != a.version {
            out.push(mismatch(
                line,
                format!("pack `{}` is version {} here, {} in the lockfile", a.id, a.version, e.version),
            ));
            continue;
        }
        if e.hash == a.hash {
            continue;
        }
        let pack = loaded.packs.iter().find(|p| p.manifest.id == a.id);
        let mut named = false;
        if let (Some(want), Some(got)) = (&e.files, &a.files) {
            for (rel, h) in got {
                let what = match want.get(rel) {
                    None => "is not in the lockfile",
                    Some(w) if w != h => "differs from the lockfile",
                    Some(_) => continue,
                };
                named = true;
                let shown = pack.map_or_else(|| PathBuf::from(rel), |p| p.root.join(rel));
                out.push(mismatch(line, format!("pack `{}`: `{rel}` {what} ({})", a.id, shown.display())));
            }
            for rel in want.keys().filter(|r| !got.contains_key(*r)) {
                named = true;
                out.push(mismatch(line, format!("pack `{}`: `{rel}` is in the lockfile but not in the pack", a.id)));
            }
        }
        if !named {
            out.push(mismatch(line, format!("pack `{}`: its files differ from the lockfile", a.id)));
        }
    }
    for e in &expected {
        if !actual.iter().any(|a| a.id == e.id) {
            out.push(mismatch(line_of(&e.id), format!("pack `{}` is in `{}` but not loaded", e.id, file.display())));
        }
    }
    if out.is_empty() {
        let order = |v: &[Locked]| v.iter().map(|l| l.id.clone()).collect::<Vec<_>>();
        if order(&expected) != order(&actual) {
            out.push(mismatch(
                1,
                format!(
                    "the packs load in another order than in the lockfile: {} here, {} there",
                    order(&actual).join(", "),
                    order(&expected).join(", ")
                ),
            ));
        }
    }
    out
}
