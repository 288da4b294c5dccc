//! Benchmark of `arena check`-style validation (`load::load`) against bare TOML
//! parsing (`read` + `toml::from_str::<toml::Table>`) of exactly the same files,
//! in the same run.
//!
//! Inputs:
//! - `bundled`: the packs under `content/`;
//! - `generated/N`: aristeia-core plus a generated pack of N Characters and N
//!   Tactics (100 entries per file), for each N in [`SIZES`];
//! - `per_file/K`: the same with N = 1000 and K entries per file instead of 100,
//!   to see how the cost depends on the size of a file;
//! - `parts/*/N`: the public pieces of `load`, timed on their own on the
//!   generated inputs, to see where the time goes.
//!
//! Run with `cargo bench -p arena-engine --bench check`, or `tools/bench.sh` for
//! a summary table (docs/performance.md). Before benchmarking, every input is
//! loaded once: the generated packs must load with no error diagnostic, and a
//! line per input (`arena-bench input=...`) is printed to stderr for the summary.

use arena_engine::load::{self, Loaded, Options};
use arena_engine::model::{Character, Die, State, Tactic};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Generated pack sizes: N Characters and N Tactics each.
const SIZES: [usize; 4] = [1000, 2500, 5000, 10000];
/// Entries per generated content file (the loader reads at most 8 MiB a file).
const PER_FILE: usize = 100;
/// For `per_file/K`: N = [`PER_FILE_N`] Characters and Tactics, K entries a file.
const PER_FILE_SIZES: [usize; 4] = [100, 250, 500, 1000];
const PER_FILE_N: usize = 1000;

fn main() {
    // Everything a benchmark reads is built here, outside any timing.
    inputs();
    content_validator();
    manifest_validator();
    docs(SIZES[0]);
    for n in SIZES {
        eprintln!("arena-bench input=generated/{n} effects={}", effect_spots(n).len());
    }
    // The idea benchmarks must compute the same thing as the pieces they replace.
    assert_eq!(ideas::effect_line_index(SIZES[0]), parts::effect_line_column(SIZES[0]));
    assert_eq!(ideas::deserialize_borrowed(SIZES[0]), parts::deserialize(SIZES[0]));
    divan::main();
}

// ---------------------------------------------------------------------------
// Inputs

/// One thing to check: the paths given to `load`, and the files it parsed.
struct Input {
    name: String,
    paths: Vec<PathBuf>,
    /// Every TOML file `load` parsed (manifests and content), from a first load.
    files: Vec<PathBuf>,
    /// Their text, for the pieces that start from text in memory.
    texts: Vec<(PathBuf, String)>,
    /// A finished load, for the cross-content checks on their own.
    loaded: Loaded,
}

fn options() -> Options {
    Options { compile_scripts: true, ..Default::default() }
}

fn content_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../content")
}

/// Built once, before divan starts: the bundled input and every generated one.
fn inputs() -> &'static Vec<Input> {
    static INPUTS: OnceLock<Vec<Input>> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let mut out = vec![prepare("bundled", vec![content_dir()], false)];
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-bench");
        for n in SIZES {
            let dir = root.join(format!("gen-{n}"));
            generate(&dir, n, PER_FILE).expect("write the generated pack");
            let paths = vec![content_dir().join("aristeia-core"), dir];
            out.push(prepare(&format!("generated/{n}"), paths, true));
        }
        for k in PER_FILE_SIZES {
            let dir = root.join(format!("per-file-{k}"));
            generate(&dir, PER_FILE_N, k).expect("write the generated pack");
            let paths = vec![content_dir().join("aristeia-core"), dir];
            out.push(prepare(&format!("per_file/{k}"), paths, true));
        }
        out
    })
}

fn input(name: &str) -> &'static Input {
    inputs().iter().find(|i| i.name == name).unwrap_or_else(|| panic!("no input {name}"))
}

fn generated(n: usize) -> &'static Input {
    input(&format!("generated/{n}"))
}

fn prepare(name: &str, paths: Vec<PathBuf>, must_be_clean: bool) -> Input {
    let loaded = load::load(&paths, &options());
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.is_error()).collect();
    if must_be_clean && !errors.is_empty() {
        for d in &errors {
            eprintln!("{d:?}");
        }
        panic!(
            "input {name}: {} error diagnostics (printed above); the generated pack must load cleanly",
            errors.len()
        );
    }
    let files: Vec<PathBuf> = loaded.docs.keys().cloned().collect();
    let texts: Vec<(PathBuf, String)> =
        files.iter().map(|f| (f.clone(), std::fs::read_to_string(f).expect("read a loaded file"))).collect();
    let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
    let s = loaded.summary();
    let entries: usize = s.entries.values().sum();
    let notes = loaded.diagnostics.iter().filter(|d| d.severity == arena_engine::diag::Severity::Note).count();
    // One line per input, read by tools/bench.sh.
    eprintln!(
        "arena-bench input={name} files={} bytes={bytes} entries={entries} errors={} warnings={} notes={notes} packs={}",
        files.len(),
        s.errors,
        s.warnings,
        s.packs.join(","),
    );
    Input { name: name.to_string(), paths, files, texts, loaded }
}

// ---------------------------------------------------------------------------
// The generated pack

/// Write a pack of `n` Characters and `n` Tactics (each naming a Character) to
/// `dir`, `per_file` entries a file, replacing what was there. Deterministic.
fn generate(dir: &Path, n: usize, per_file: usize) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir.join("characters"))?;
    std::fs::create_dir_all(dir.join("tactics"))?;
    std::fs::write(
        dir.join("pack.toml"),
        format!(
            "#:schema ../../schemas/pack.schema.json\n\
             id = \"bench-generated\"\n\
             version = \"1.0.0\"\n\
             game = \"aristeia\"\n\
             title = \"Generated benchmark pack ({n} Characters, {n} Tactics)\"\n\
             authors = [\"arena benchmark\"]\n\
             description = \"Written by engine/benches/check.rs; not game content.\"\n\
             \n\
             [dependencies]\n\
             aristeia-core = \"^1.0\"\n"
        ),
    )?;
    for (f, start) in (0..n).step_by(per_file).enumerate() {
        let end = (start + per_file).min(n);
        let mut chars = String::from("#:schema ../../../schemas/content.schema.json\n");
        let mut tactics = chars.clone();
        for i in start..end {
            character(&mut chars, i);
            tactic(&mut tactics, i);
        }
        std::fs::write(dir.join(format!("characters/characters-{f:04}.toml")), chars)?;
        std::fs::write(dir.join(format!("tactics/tactics-{f:04}.toml")), tactics)?;
    }
    Ok(())
}

const NAMES: [&str; 8] = ["Valkyrie", "Hannibal", "Gata", "Wildcat", "Maximus", "Major Lunah", "Parvati", "LaxMee"];
const POOLS: [&str; 8] = [
    r#"["green", "blue"]"#,
    r#"["blue", "yellow"]"#,
    r#"["orange"]"#,
    r#"["green", "black"]"#,
    r#"["orange", "blue"]"#,
    r#"["yellow", "yellow"]"#,
    r#"["blue"]"#,
    r#"["black", "orange", "orange"]"#,
];
const ROLLS: [&str; 6] = [
    r#"["red"]"#,
    r#"["red", "orange", "yellow"]"#,
    r#"["orange", "orange"]"#,
    r#"["blue", "yellow"]"#,
    r#"["red", "black"]"#,
    r#"["orange"]"#,
];
const COSTS: [&str; 5] = [
    r#"["special"]"#,
    r#"["special", "special"]"#,
    r#"["block", "block"]"#,
    r#"["success", "special"]"#,
    r#"["critical_success"]"#,
];
const EFFECTS: [&str; 8] = [
    "Impose the Taunted State to the Target.",
    "Add an Orange die to your Roll if the Target is Taunted by any Character.",
    "Nullify a Block of your opponent's Roll.",
    "Displace the Target 1 space away from you.",
    "Heal yourself of 1 Damage at the beginning of your Activation.",
    "Add a Special to your Roll.",
    "Impose the Immobilized State to every Enemy within Range.",
    "After resolving this Attack, you may Displace yourself once to a space Adjacent to the Target.",
];
const WINDOWS: [(&str, &str); 6] = [
    ("actions-step", "During the Actions Step of {}'s Activation."),
    ("before-roll", "Before {} makes a Roll."),
    ("after-roll", "After the dice of {}'s Roll are rolled."),
    ("damage-suffered", "After {} receives Damage, but before sending them to the Infirmary."),
    ("activation-start", "At the beginning of {}'s Activation."),
    ("tactic-played", "When your opponent plays a Tactic."),
];

fn name_of(i: usize) -> String {
    format!("{} {i}", NAMES[i % NAMES.len()])
}

fn id_of(i: usize) -> String {
    format!("{}-{i}", NAMES[i % NAMES.len()].to_lowercase().replace(' ', "-"))
}

/// One Character in the style of content/aristeia-soldiers-of-fortune: pools, a
/// general Switch, 2-3 Actions with Range, Roll, Switches and Effect lines, and an
/// Automatic Skill.
fn character(out: &mut String, i: usize) {
    let (id, name) = (id_of(i), name_of(i));
    let w = |k: usize| (i * 7 + k * 13) % 97;
    let _ = write!(
        out,
        "\n# ---------------------------------------------------------------------------\n\
         [[character]]\n\
         id = \"{id}\"\n\
         name = \"{name}\"\n\
         card = {card}\n\
         initiative = {ini}\n\
         speed = {speed}\n\
         energy = {energy}\n\
         hit_points = {hp}\n\
         defense = {{ dice = {def} }}\n\
         brawn = {{ dice = {brawn} }}\n\
         agility = {{ dice = {agi} }}\n\
         source = \"generated § {name}\"\n\
         \n\
         [[character.switches]]\n\
         id = \"general-switch\"\n\
         cost = {cost}\n\
         effect = {{ text = \"{text}\" }}\n",
        card = 1000 + i,
        ini = 3 + w(1) % 4,
        speed = 3 + w(2) % 3,
        energy = 4 + w(3) % 3,
        hp = 2 + w(4) % 4,
        def = POOLS[w(5) % POOLS.len()],
        brawn = POOLS[w(6) % POOLS.len()],
        agi = POOLS[w(7) % POOLS.len()],
        cost = COSTS[w(8) % COSTS.len()],
        text = EFFECTS[w(9) % EFFECTS.len()],
    );
    let actions = 2 + i % 2;
    for a in 0..actions {
        let attack = a == 0;
        let _ = write!(
            out,
            "\n[[character.actions]]\n\
             id = \"action-{a}\"\n\
             name = \"{name} Action {a}\"\n\
             {attack}cost = {cost}\n\
             range = {{ min = {min}, max = {max} }}\n\
             roll = {{ dice = {roll} }}\n",
            attack = if attack { "attack = true\n" } else { "" },
            cost = 1 + (w(10 + a) % 3),
            min = a.min(1),
            max = 1 + w(11 + a) % 5,
            roll = ROLLS[w(12 + a) % ROLLS.len()],
        );
        if a != 1 {
            let _ = write!(
                out,
                "\n[[character.actions.switches]]\n\
                 id = \"switch-{a}\"\n\
                 cost = {cost}\n\
                 effect = {{ text = \"{text}\" }}\n",
                cost = COSTS[w(13 + a) % COSTS.len()],
                text = EFFECTS[w(14 + a) % EFFECTS.len()],
            );
        }
        for e in 0..(1 + (i + a) % 2) {
            let _ = write!(
                out,
                "\n[[character.actions.effects]]\n\
                 {optional}text = \"{text}\"\n",
                optional = if e == 1 { "optional = true\n" } else { "" },
                text = EFFECTS[w(15 + a + e) % EFFECTS.len()],
            );
        }
    }
    let _ = write!(
        out,
        "\n[[character.automatic_skills]]\n\
         id = \"skill\"\n\
         name = \"Benediction of {name}\"\n\
         effect = {{ text = \"{text}\" }}\n",
        text = EFFECTS[w(20) % EFFECTS.len()],
    );
}

/// One Tactic of Character `i`, as in content/aristeia-soldiers-of-fortune/tactics.
fn tactic(out: &mut String, i: usize) {
    let (timing, timing_text) = WINDOWS[i % WINDOWS.len()];
    let name = name_of(i);
    let _ = write!(
        out,
        "\n[[tactic]]\n\
         id = \"tactic-of-{id}\"\n\
         name = \"Tactic of {name}\"\n\
         card = {card}\n\
         character = \"{id}\"\n\
         timing = \"{timing}\"\n\
         timing_text = \"{timing_text}\"\n\
         effect = {{ text = \"Until the end of your Activation, {effect}\" }}\n\
         source = \"generated § {name} Tactics\"\n",
        id = id_of(i),
        card = 20000 + i,
        timing_text = timing_text.replace("{}", &name),
        effect = EFFECTS[(i * 3) % EFFECTS.len()],
    );
}

// ---------------------------------------------------------------------------
// The two measures compared: full validation and bare parsing.

fn check(input: &Input) -> Loaded {
    load::load(divan::black_box(&input.paths), &options())
}

fn bare_parse(input: &Input) -> Vec<toml::Table> {
    divan::black_box(&input.files)
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("read");
            toml::from_str::<toml::Table>(&text).expect("valid TOML")
        })
        .collect()
}

#[divan::bench_group(sample_count = 30, max_time = 10)]
mod bundled {
    #[divan::bench]
    fn check() -> arena_engine::load::Loaded {
        super::check(super::input("bundled"))
    }

    #[divan::bench]
    fn parse() -> Vec<toml::Table> {
        super::bare_parse(super::input("bundled"))
    }
}

#[divan::bench_group(sample_count = 8, max_time = 20)]
mod generated {
    use super::SIZES;

    #[divan::bench(args = SIZES)]
    fn check(n: usize) -> arena_engine::load::Loaded {
        super::check(super::generated(n))
    }

    #[divan::bench(args = SIZES)]
    fn parse(n: usize) -> Vec<toml::Table> {
        super::bare_parse(super::generated(n))
    }
}

#[divan::bench_group(sample_count = 5, max_time = 10)]
mod per_file {
    use super::PER_FILE_SIZES;

    #[divan::bench(args = PER_FILE_SIZES)]
    fn check(k: usize) -> arena_engine::load::Loaded {
        super::check(super::input(&format!("per_file/{k}")))
    }

    #[divan::bench(args = PER_FILE_SIZES)]
    fn parse(k: usize) -> Vec<toml::Table> {
        super::bare_parse(super::input(&format!("per_file/{k}")))
    }
}

// ---------------------------------------------------------------------------
// The public pieces of `load`, one at a time, on the generated inputs.

/// The content-file validator `load` builds on every call.
fn content_validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| jsonschema::draft7::new(&arena_engine::schema::content_schema()).expect("schema compiles"))
}

fn manifest_validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| jsonschema::draft7::new(&arena_engine::schema::manifest_schema()).expect("schema compiles"))
}

/// The span-carrying JSON form of every file, as `load` keeps it.
fn docs(n: usize) -> &'static [(PathBuf, arena_engine::tomljson::SpannedDoc)] {
    static DOCS: OnceLock<Vec<Vec<(PathBuf, arena_engine::tomljson::SpannedDoc)>>> = OnceLock::new();
    let all = DOCS.get_or_init(|| {
        SIZES
            .iter()
            .map(|&n| {
                generated(n)
                    .texts
                    .iter()
                    .map(|(p, t)| (p.clone(), arena_engine::tomljson::parse(t).expect("parses")))
                    .collect()
            })
            .collect()
    });
    &all[SIZES.iter().position(|&s| s == n).expect("a size")]
}

#[divan::bench_group(sample_count = 10, max_time = 6)]
mod parts {
    use super::*;

    /// Reading the files (`fs::read_to_string`), nothing else.
    #[divan::bench(args = SIZES)]
    fn read(n: usize) -> Vec<String> {
        generated(n).files.iter().map(|f| std::fs::read_to_string(f).expect("read")).collect()
    }

    /// `toml::from_str::<toml::Table>` of text already in memory.
    #[divan::bench(args = SIZES)]
    fn toml_table(n: usize) -> Vec<toml::Table> {
        generated(n).texts.iter().map(|(_, t)| toml::from_str::<toml::Table>(t).expect("parses")).collect()
    }

    /// `tomljson::parse`: TOML with spans to JSON plus a pointer → span map.
    #[divan::bench(args = SIZES)]
    fn tomljson_parse(n: usize) -> Vec<arena_engine::tomljson::SpannedDoc> {
        generated(n).texts.iter().map(|(_, t)| arena_engine::tomljson::parse(t).expect("parses")).collect()
    }

    /// Generating and compiling the two schemas, as `load` does once per call.
    #[divan::bench(sample_count = 30)]
    fn schema_compile() -> (jsonschema::Validator, jsonschema::Validator) {
        let c = jsonschema::draft7::new(&arena_engine::schema::content_schema()).expect("compiles");
        let m = jsonschema::draft7::new(&arena_engine::schema::manifest_schema()).expect("compiles");
        (c, m)
    }

    /// Schema validation of every parsed file, collecting errors as `load` does
    /// (`iter_errors`, not `is_valid`).
    #[divan::bench(args = SIZES)]
    fn schema_validate(n: usize) -> usize {
        docs(n)
            .iter()
            .map(|(p, d)| {
                let v = if p.ends_with(load::MANIFEST) { manifest_validator() } else { content_validator() };
                v.iter_errors(&d.value).count()
            })
            .sum()
    }

    /// The same with `is_valid`, the fast path when a file has no error.
    #[divan::bench(args = SIZES)]
    fn schema_is_valid(n: usize) -> usize {
        docs(n)
            .iter()
            .filter(|(p, d)| {
                let v = if p.ends_with(load::MANIFEST) { manifest_validator() } else { content_validator() };
                v.is_valid(&d.value)
            })
            .count()
    }

    /// Typed deserialization of every entry from its JSON value, with the two
    /// clones `load` makes per entry.
    #[divan::bench(args = SIZES)]
    pub(super) fn deserialize(n: usize) -> usize {
        let mut ok = 0;
        for (p, d) in docs(n) {
            if p.ends_with(load::MANIFEST) {
                continue;
            }
            let Value::Object(map) = &d.value else { continue };
            for (key, items) in map {
                let Value::Array(items) = items else { continue };
                for item in items {
                    let item = item.clone();
                    let item = item.clone();
                    ok += usize::from(match key.as_str() {
                        "character" => serde_json::from_value::<Character>(item).is_ok(),
                        "tactic" => serde_json::from_value::<Tactic>(item).is_ok(),
                        "die" => serde_json::from_value::<Die>(item).is_ok(),
                        "state" => serde_json::from_value::<State>(item).is_ok(),
                        _ => false,
                    });
                }
            }
        }
        ok
    }

    /// The cross-content checks (`validate::validate`) on a finished load.
    #[divan::bench(args = SIZES, sample_count = 5)]
    fn cross_checks(n: usize) -> arena_engine::validate::Report {
        arena_engine::validate::validate(&generated(n).loaded, &options())
    }

    /// Line and column of every effect (`diag::line_column`), as the cross checks
    /// compute for each `unsupported-effect` note (every effect without Lua).
    #[divan::bench(args = SIZES, sample_count = 5)]
    pub(super) fn effect_line_column(n: usize) -> usize {
        effect_spots(n)
            .iter()
            .map(|&(file, pointer)| {
                let (path, text) = &generated(n).texts[file];
                let doc = &docs(n)[file].1;
                debug_assert_eq!(path, &docs(n)[file].0);
                let span = doc.value_span(pointer).expect("a span");
                let (line, column) = arena_engine::diag::line_column(text, span.start);
                line + column
            })
            .sum()
    }

    /// The content path (`character:x actions[id=y].effects[0]`) of every
    /// effect (`load::content_path`), also computed for each note.
    #[divan::bench(args = SIZES, sample_count = 5)]
    fn effect_content_path(n: usize) -> usize {
        effect_spots(n).iter().map(|&(file, pointer)| load::content_path(&docs(n)[file].1, pointer).len()).sum()
    }
}

// ---------------------------------------------------------------------------
// Not engine code: cheaper ways to do the same work, to size the fixing ideas in
// docs/performance.md.

#[divan::bench_group(sample_count = 10, max_time = 6)]
mod ideas {
    use super::*;

    /// `deserialize` without the two clones: `T::deserialize(&Value)`.
    #[divan::bench(args = SIZES)]
    pub(super) fn deserialize_borrowed(n: usize) -> usize {
        use serde::Deserialize;
        let mut ok = 0;
        for (p, d) in docs(n) {
            if p.ends_with(load::MANIFEST) {
                continue;
            }
            let Value::Object(map) = &d.value else { continue };
            for (key, items) in map {
                let Value::Array(items) = items else { continue };
                for item in items {
                    ok += usize::from(match key.as_str() {
                        "character" => Character::deserialize(item).is_ok(),
                        "tactic" => Tactic::deserialize(item).is_ok(),
                        "die" => Die::deserialize(item).is_ok(),
                        "state" => State::deserialize(item).is_ok(),
                        _ => false,
                    });
                }
            }
        }
        ok
    }

    /// The line and column of every effect as `effect_line_column`, but from a
    /// table of line starts built once per file (binary search per lookup).
    #[divan::bench(args = SIZES)]
    pub(super) fn effect_line_index(n: usize) -> usize {
        let texts = &generated(n).texts;
        let starts: Vec<Vec<usize>> = texts
            .iter()
            .map(|(_, t)| std::iter::once(0).chain(t.match_indices('\n').map(|(i, _)| i + 1)).collect())
            .collect();
        effect_spots(n)
            .iter()
            .map(|&(file, pointer)| {
                let text = &texts[file].1;
                let offset = docs(n)[file].1.value_span(pointer).expect("a span").start;
                let line = starts[file].partition_point(|&s| s <= offset);
                let start = starts[file][line - 1];
                let col = text[start..offset].trim_start_matches('\u{feff}').chars().count() + 1;
                line + col
            })
            .sum()
    }

    /// TOML straight to the typed model (`toml::from_str::<ContentFile>`): no
    /// JSON value, no spans; a lower bound for parse + deserialize in one pass.
    #[divan::bench(args = SIZES)]
    fn toml_typed(n: usize) -> usize {
        generated(n)
            .texts
            .iter()
            .filter(|(p, _)| !p.ends_with(load::MANIFEST))
            .map(|(_, t)| toml::from_str::<arena_engine::model::ContentFile>(t).expect("parses").character.len())
            .sum()
    }
}

/// (file index, JSON Pointer) of every effect in the generated inputs.
fn effect_spots(n: usize) -> &'static [(usize, &'static str)] {
    static SPOTS: OnceLock<Vec<Vec<(usize, &'static str)>>> = OnceLock::new();
    let all = SPOTS.get_or_init(|| {
        SIZES
            .iter()
            .map(|&n| {
                let mut out = Vec::new();
                for (i, (_, doc)) in docs(n).iter().enumerate() {
                    for pointer in doc.spans.keys() {
                        let mut segs = pointer.rsplit('/');
                        let last = segs.next().unwrap_or_default();
                        let before = segs.next().unwrap_or_default();
                        let is_effect = last == "effect" || (before == "effects" && last.parse::<usize>().is_ok());
                        if is_effect && doc.get(pointer).is_some_and(Value::is_object) {
                            out.push((i, pointer.as_str()));
                        }
                    }
                }
                out
            })
            .collect()
    });
    &all[SIZES.iter().position(|&s| s == n).expect("a size")]
}
