//! Generated files (schemas, Lua API definitions, references) are committed;
//! these fail when they are stale.

#[test]
fn committed_generated_files_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (rel, text) in arena_engine::generate::files() {
        let committed = std::fs::read_to_string(root.join(&rel)).unwrap_or_default();
        assert!(committed == text, "{rel} is stale: run `cargo run -p arena -- generate` and commit it");
    }
}

#[test]
fn schemas_compile_as_draft_07() {
    for (name, text) in arena_engine::schema::generated_files() {
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["$schema"], "http://json-schema.org/draft-07/schema#", "{name}");
        assert_eq!(v["$id"], format!("urn:arena:schema:{}", name.trim_end_matches(".schema.json")), "{name}");
        jsonschema::draft7::new(&v).unwrap_or_else(|e| panic!("{name} does not compile: {e}"));
    }
}

/// Every diagnostic code is documented in docs/diagnostics.md.
#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"))
        .unwrap();
    for code in arena_engine::diag::Code::ALL {
        assert!(doc.contains(&format!("`{}`", code.as_str())), "docs/diagnostics.md does not document `{code}`");
    }
}

/// Every key of a content file is a kind of content the loader reads (or
/// `patch`), and every kind is a key: the two come from one list
/// (`content_kinds!`), and a key without a kind would be dropped unread.
#[test]
fn every_content_file_key_has_a_kind() {
    use arena_engine::model::Kind;
    let schema = arena_engine::schema::content_schema();
    let keys: Vec<String> = schema["properties"].as_object().unwrap().keys().cloned().collect();
    for key in keys.iter().filter(|k| *k != "patch") {
        assert!(Kind::from_key(key).is_some(), "content key `{key}` has no Kind");
    }
    for kind in Kind::ALL {
        assert!(keys.iter().any(|k| k == kind.key()), "Kind `{kind}` is not a content-file key");
    }
}

/// The committed schema named by a bundled file's `#:schema` line, compiled.
fn committed(name: &str) -> jsonschema::Validator {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root.join(name)).unwrap()).unwrap();
    jsonschema::draft7::new(&v).unwrap()
}

/// The errors of `doc` against `schema`, as `instance path: message`.
fn errors(schema: &jsonschema::Validator, doc: &serde_json::Value) -> Vec<String> {
    schema.iter_errors(doc).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

/// What an editor checks with the committed schemas (Taplo, Even Better
/// TOML, check-jsonschema) passes every bundled file: every content file
/// and manifest under content/ and mods/ that names a schema on its
/// `#:schema` line is valid against it.
#[test]
fn every_bundled_file_is_valid_against_the_schema_its_first_line_names() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for path in arena_tests::files_under(&[root.join("content"), root.join("mods")]) {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let Some(name) = text.lines().next().and_then(|l| l.strip_prefix("#:schema ")) else { continue };
        let name = name.rsplit('/').next().unwrap();
        let doc: serde_json::Value = toml::from_str(&text).unwrap();
        let found = errors(&committed(name), &doc);
        assert!(found.is_empty(), "{}: {found:#?}", path.display());
        checked += 1;
    }
    assert!(checked >= 40, "{checked} files checked");
}

/// The committed schemas flag what `arena check` refuses in code, so an
/// editor shows it as the file is typed: an id that is not kebab-case
/// (`invalid-id`), a manifest version that is not semantic (`0.1`,
/// `v0.1.0`), an effect with both `lua` and `script` (`effect-source`).
#[test]
fn the_committed_schemas_flag_what_arena_check_refuses_in_code() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let toml_doc =
        |rel: &str| -> serde_json::Value { toml::from_str(&std::fs::read_to_string(root.join(rel)).unwrap()).unwrap() };
    let content = committed("content.schema.json");
    let characters = toml_doc("content/aristeia-core/characters/characters.toml");
    assert!(errors(&content, &characters).is_empty());
    for bad in ["La-Duelista", "", "wild bill", "double--hyphen", "-lead"] {
        let mut doc = characters.clone();
        doc["character"][0]["id"] = bad.into();
        let found = errors(&content, &doc);
        assert!(found.iter().any(|e| e.starts_with("/character/0/id: ")), "`{bad}` is flagged: {found:#?}");
    }
    // An effect with both sources, wherever an effect has `lua`.
    let mut doc = characters.clone();
    fn with_lua(v: &serde_json::Value, at: String) -> Option<String> {
        match v {
            serde_json::Value::Object(m) if m.contains_key("lua") => Some(at),
            serde_json::Value::Object(m) => m.iter().find_map(|(k, c)| with_lua(c, format!("{at}/{k}"))),
            serde_json::Value::Array(a) => a.iter().enumerate().find_map(|(i, c)| with_lua(c, format!("{at}/{i}"))),
            _ => None,
        }
    }
    let pointer = with_lua(&doc, String::new()).expect("a bundled effect written inline");
    doc.pointer_mut(&pointer).unwrap()["script"] = "scripts/x.lua".into();
    let found = errors(&content, &doc);
    assert!(found.iter().any(|e| e.starts_with(&format!("{pointer}: "))), "both sources are flagged: {found:#?}");

    let manifest = committed("pack.schema.json");
    let pack = toml_doc("content/aristeia-core/pack.toml");
    assert!(errors(&manifest, &pack).is_empty());
    for bad in ["0.1", "v0.1.0", "1.0.0.0", "01.0.0"] {
        let mut doc = pack.clone();
        doc["version"] = bad.into();
        assert!(errors(&manifest, &doc).iter().any(|e| e.starts_with("/version: ")), "`{bad}` is flagged");
    }
    for good in ["1.0.0", "0.2.1-rc.1", "1.0.0+build.5"] {
        let mut doc = pack.clone();
        doc["version"] = good.into();
        assert!(errors(&manifest, &doc).is_empty(), "`{good}` passes");
    }
}

/// Every situation file of the repository (tests/situations*, the mods'
/// situations) is valid against the committed situation schema of its game
/// (`game = "invictus"`: invictus-situation.schema.json), so an editor
/// checks them as `arena run` reads them; and a misspelt key or a wrong
/// type is flagged.
#[test]
fn every_situation_file_is_valid_against_its_games_situation_schema() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let aristeia = committed("situation.schema.json");
    let invictus = committed("invictus-situation.schema.json");
    let mut checked = [0, 0];
    let roots = [root.join("tests/situations"), root.join("tests/situations-invictus"), root.join("mods")];
    for path in arena_tests::files_under(&roots) {
        let in_situations = path.components().any(|c| c.as_os_str().to_string_lossy().starts_with("situations"));
        if !in_situations || path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let doc: serde_json::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let game = usize::from(doc.get("game").and_then(|g| g.as_str()) == Some("invictus"));
        let found = errors(if game == 1 { &invictus } else { &aristeia }, &doc);
        assert!(found.is_empty(), "{}: {found:#?}", path.display());
        checked[game] += 1;
    }
    assert!(checked[0] >= 50 && checked[1] >= 5, "{checked:?}");
    let mut doc: serde_json::Value =
        toml::from_str(&std::fs::read_to_string(root.join("tests/situations/001-simple-roll-example.toml")).unwrap())
            .unwrap();
    doc["underdgo"] = 1.into();
    assert!(errors(&aristeia, &doc).iter().any(|e| e.contains("underdgo")), "a misspelt key");
    doc.as_object_mut().unwrap().remove("underdgo");
    doc["answers"] = serde_json::json!(["done", 0]);
    assert!(!errors(&aristeia, &doc).is_empty(), "options are numbered from 1");
    doc["answers"] = serde_json::json!(["done", 2]);
    assert!(errors(&aristeia, &doc).is_empty());
}

/// Diagnostics of one file that a JSON Schema says too: every bad fixture
/// with one of these codes is flagged by the committed schema of its file.
/// The others are listed in docs/diagnostics.md § What a schema cannot say.
const SCHEMA_CAN_SAY: &[&str] =
    &["wrong-type", "unknown-field", "missing-field", "invalid-id", "invalid-version", "effect-source"];

/// The `invalid-value` fixtures a schema says (a value outside an enum, a
/// number below its minimum); the other `invalid-value` fixtures weigh one
/// field against another or another file (docs/diagnostics.md).
const INVALID_VALUES_A_SCHEMA_SAYS: &[&str] = &["invalid-value", "scenario-zero-rounds"];

/// The bad fixtures as (case, code, file's path), from their `expect.toml`.
fn bad_fixtures() -> Vec<(String, String, std::path::PathBuf)> {
    let bad = arena_tests::tests_dir().join("fixtures/bad");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&bad).unwrap() {
        let dir = entry.unwrap().path();
        let Ok(text) = std::fs::read_to_string(dir.join("expect.toml")) else { continue };
        let expect: toml::Value = toml::from_str(&text).unwrap();
        let code = expect.get("code").and_then(|c| c.as_str()).unwrap();
        let file = expect.get("file").and_then(|c| c.as_str()).unwrap_or_default();
        out.push((dir.file_name().unwrap().to_string_lossy().into_owned(), code.to_string(), dir.join(file)));
    }
    out.sort();
    out
}

/// `check-jsonschema` (an independent validator, Python; `.ci/run` installs
/// it) on `files` against the committed schema `schema`: the files it
/// flags.
fn flagged_by_check_jsonschema(schema: &str, files: &[&std::path::Path]) -> std::collections::BTreeSet<String> {
    let schemas = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let out = std::process::Command::new("check-jsonschema")
        .args(["-o", "json", "--schemafile"])
        .arg(schemas.join(schema))
        .args(files)
        .output()
        .expect("check-jsonschema runs (pip install check-jsonschema; .ci/run installs it)");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("check-jsonschema's JSON: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(report["parse_errors"], serde_json::json!([]), "every file parses as TOML");
    report["errors"].as_array().unwrap().iter().map(|e| e["filename"].as_str().unwrap().to_string()).collect()
}

/// Editor parity: every bad fixture whose error is one a JSON Schema can say
/// (`SCHEMA_CAN_SAY`, and the `invalid-value` cases of
/// `INVALID_VALUES_A_SCHEMA_SAYS`) is flagged by an independent validator,
/// check-jsonschema, with the committed schema its file uses; no other
/// `invalid-value` fixture is (so the lists stay true); and every other
/// code a fixture shows is in docs/diagnostics.md § What a schema cannot say.
#[test]
fn every_single_file_error_a_schema_can_say_is_flagged_by_an_independent_validator() {
    let fixtures = bad_fixtures();
    let says = |case: &str, code: &str| {
        SCHEMA_CAN_SAY.contains(&code) || (code == "invalid-value" && INVALID_VALUES_A_SCHEMA_SAYS.contains(&case))
    };
    let schema_of =
        |f: &std::path::Path| if f.ends_with("pack.toml") { "pack.schema.json" } else { "content.schema.json" };
    let asked: Vec<&(String, String, std::path::PathBuf)> =
        fixtures.iter().filter(|(case, code, _)| says(case, code) || code == "invalid-value").collect();
    assert!(asked.len() >= 15, "{} fixtures", asked.len());
    // A file that starts with a byte order mark (which arena reads and
    // Python's TOML parser refuses) is validated as a copy without it.
    let scratch = tempfile::tempdir().unwrap();
    let inputs: Vec<std::path::PathBuf> = asked
        .iter()
        .map(|(case, _, f)| {
            let text = std::fs::read_to_string(f).unwrap();
            match text.strip_prefix('\u{feff}') {
                Some(rest) => {
                    let copy = scratch.path().join(format!("{case}.toml"));
                    std::fs::write(&copy, rest).unwrap();
                    copy
                }
                None => f.clone(),
            }
        })
        .collect();
    let mut flagged = std::collections::BTreeSet::new();
    for schema in ["content.schema.json", "pack.schema.json"] {
        let files: Vec<&std::path::Path> = asked
            .iter()
            .zip(&inputs)
            .filter(|((_, _, f), _)| schema_of(f) == schema)
            .map(|(_, input)| input.as_path())
            .collect();
        flagged.extend(flagged_by_check_jsonschema(schema, &files));
    }
    for ((case, code, _), input) in asked.into_iter().zip(&inputs) {
        let is = flagged.iter().any(|f| std::path::Path::new(f) == input.as_path());
        assert_eq!(is, says(case, code), "{case} ({code}): flagged by check-jsonschema: {is}");
    }
    let doc = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"))
        .unwrap();
    let section =
        doc.split("## What a schema cannot say").nth(1).expect("docs/diagnostics.md § What a schema cannot say");
    for (case, code, _) in &fixtures {
        if !SCHEMA_CAN_SAY.contains(&code.as_str()) {
            assert!(section.contains(&format!("`{code}`")), "{case}: `{code}` is not in § What a schema cannot say");
        }
    }
}

/// `arena lock`'s output is valid against the committed `lock.schema.json`,
/// and a pin without its hash is flagged.
#[test]
fn a_lockfile_arena_lock_writes_is_valid_against_the_lock_schema() {
    let run = arena_tests::arena(&["lock", "../content/aristeia-core", "--output", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = toml::from_str(&run.stdout).unwrap();
    let schema = committed("lock.schema.json");
    assert!(errors(&schema, &doc).is_empty(), "{:#?}", errors(&schema, &doc));
    let mut bad = doc.clone();
    bad["pack"][0].as_object_mut().unwrap().remove("hash");
    assert!(errors(&schema, &bad).iter().any(|e| e.contains("hash")), "a pin without its hash");
}
