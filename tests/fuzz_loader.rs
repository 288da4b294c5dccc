//! A mutation fuzz of the content loader: bundled content files with bytes
//! deleted, inserted (TOML's own punctuation, huge and fractional numbers,
//! `nan`), lines duplicated and swapped. Whatever the text, loading it never
//! panics, and an entry that is in the file but not in the loaded content
//! always comes with an error: nothing is dropped in silence.
//!
//! The suite runs a fixed number of cases; `PROPTEST_CASES=20000 cargo test
//! -p arena-tests --test fuzz_loader` runs a longer campaign.

use arena_engine::diag::Severity;
use arena_engine::load;
use proptest::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The bundled and mod content files (not manifests), with their pack's game.
fn corpus() -> Vec<(String, String)> {
    let tests = arena_tests::tests_dir();
    let mut out = Vec::new();
    for root in [tests.join("../content"), tests.join("../mods")] {
        for entry in walk(&root) {
            let name = entry.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".toml")
                || name == "pack.toml"
                || entry.components().any(|c| c.as_os_str() == "situations")
            {
                continue;
            }
            out.push((std::fs::read_to_string(&entry).unwrap(), game_of(&entry)));
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

fn game_of(file: &Path) -> String {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if let Ok(text) = std::fs::read_to_string(d.join("pack.toml")) {
            let manifest: toml::Value = toml::from_str(&text).unwrap();
            return manifest.get("game").and_then(|g| g.as_str()).unwrap_or("aristeia").to_string();
        }
        dir = d.parent();
    }
    "aristeia".to_string()
}

/// Pieces worth inserting: TOML's punctuation and the values that broke loaders before.
const PIECES: &[&str] = &[
    "\"",
    "'",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "=",
    ",",
    ".",
    "\n",
    "#",
    "\\",
    "-",
    "+",
    "_",
    " ",
    ".0",
    ".5",
    "e0",
    "e400",
    "0",
    "1",
    "255",
    "256",
    "-1",
    "4294967296",
    "99999999999999999999",
    "nan",
    "inf",
    "true",
    "id",
    "\"\"",
    "x = 1\n",
    "[[character]]\n",
    "[[patch]]\n",
    "é",
    "\u{0}",
];

#[derive(Debug, Clone)]
enum Mutation {
    Delete {
        at: f64,
        len: usize,
    },
    Insert {
        at: f64,
        piece: usize,
    },
    DuplicateLine {
        at: f64,
    },
    SwapLines {
        a: f64,
        b: f64,
    },
    /// The n-th whole number written after `= ` gets a fraction: `.0` or `.5`.
    Fraction {
        nth: usize,
        half: bool,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64, 1..12usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (0.0..1.0f64, 0..PIECES.len()).prop_map(|(at, piece)| Mutation::Insert { at, piece }),
        (0.0..1.0f64).prop_map(|at| Mutation::DuplicateLine { at }),
        (0.0..1.0f64, 0.0..1.0f64).prop_map(|(a, b)| Mutation::SwapLines { a, b }),
        (0..400usize, any::<bool>()).prop_map(|(nth, half)| Mutation::Fraction { nth, half }),
    ]
}

/// The nearest char boundary at or below a fraction of the text.
fn boundary(text: &str, at: f64) -> usize {
    let mut i = ((text.len() as f64) * at) as usize;
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i.min(text.len())
}

fn apply(text: &str, m: &Mutation) -> String {
    match *m {
        Mutation::Delete { at, len } => {
            let start = boundary(text, at);
            let mut end = (start + len).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            format!("{}{}", &text[..start], &text[end..])
        }
        Mutation::Insert { at, piece } => {
            let i = boundary(text, at);
            format!("{}{}{}", &text[..i], PIECES[piece], &text[i..])
        }
        Mutation::DuplicateLine { at } => {
            let lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let i = ((lines.len() as f64) * at) as usize % lines.len();
            let mut out: Vec<&str> = lines.clone();
            out.insert(i, lines[i]);
            out.join("\n") + "\n"
        }
        Mutation::Fraction { nth, half } => {
            // Ends of the whole numbers after "= ".
            let bytes = text.as_bytes();
            let mut ends = Vec::new();
            let mut i = 0;
            while let Some(at) = text[i..].find("= ") {
                let mut j = i + at + 2;
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                if j > start && (j == bytes.len() || !matches!(bytes[j], b'.' | b'e' | b'E' | b'x' | b'_')) {
                    ends.push(j);
                }
                i = j.max(i + at + 2);
            }
            if ends.is_empty() {
                return text.to_string();
            }
            let end = ends[nth % ends.len()];
            format!("{}{}{}", &text[..end], if half { ".5" } else { ".0" }, &text[end..])
        }
        Mutation::SwapLines { a, b } => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let (i, j) =
                (((lines.len() as f64) * a) as usize % lines.len(), ((lines.len() as f64) * b) as usize % lines.len());
            lines.swap(i, j);
            lines.join("\n") + "\n"
        }
    }
}

/// The entries a document holds, per kind key: (kind, id).
fn entries_in(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Value::Object(map) = doc {
        for (kind, items) in map {
            if arena_engine::model::Kind::from_key(kind).is_none() {
                continue;
            }
            for item in items.as_array().into_iter().flatten() {
                if let Some(id) = item.get("id").and_then(Value::as_str) {
                    out.push((kind.clone(), id.to_string()));
                }
            }
        }
    }
    out
}

/// Load `text` as the one content file of a pack: the load, the file, and the
/// codes of the errors in that file.
fn load_alone(
    dir: &Path,
    name: &str,
    text: &str,
    game: &str,
) -> (load::Loaded, PathBuf, Vec<arena_engine::diag::Code>) {
    let root = dir.join(name);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("pack.toml"),
        format!("id = \"fuzzed\"\nversion = \"1.0.0\"\ngame = \"{game}\"\ntitle = \"T\"\n"),
    )
    .unwrap();
    let file = root.join("content.toml");
    std::fs::write(&file, text).unwrap();
    let loaded = load::load(
        &[root],
        &load::Options { compile_scripts: false, run_script_tests: false, ..load::Options::default() },
    );
    let codes = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error && d.location.as_ref().is_some_and(|l| l.file == file))
        .map(|d| d.code)
        .collect();
    (loaded, file, codes)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any mutation of a real content file: no panic, and an entry the file
    /// holds that did not load has an error beside it.
    #[test]
    fn a_mutated_content_file_loads_or_says_why(file in any::<prop::sample::Index>(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let files = corpus();
        let (text, game) = &files[file.index(files.len())];
        let mut mutated = text.clone();
        for m in &mutations {
            mutated = apply(&mutated, m);
        }
        let dir = tempfile::tempdir().unwrap();
        // The file alone refers to content of other packs: those errors are
        // there before any mutation and say nothing about a dropped entry.
        let (_, _, before) = load_alone(dir.path(), "before", text, game);
        let (loaded, file, after) = load_alone(dir.path(), "after", &mutated, game);
        let errors_here = after.iter().any(|code| !before.contains(code));
        if let Some(doc) = loaded.docs.get(&file) {
            for (kind, id) in entries_in(&doc.value) {
                let k = arena_engine::model::Kind::from_key(&kind).unwrap();
                prop_assert!(
                    loaded.content.contains(k, &id) || errors_here,
                    "{kind}:{id} is in the file but not loaded, and nothing says why"
                );
            }
        }
    }
}
