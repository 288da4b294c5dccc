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
    let mut stack = vec![root.join("content"), root.join("mods")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let Some(name) = text.lines().next().and_then(|l| l.strip_prefix("#:schema ")) else { continue };
            let name = name.rsplit('/').next().unwrap();
            let doc: serde_json::Value = toml::from_str(&text).unwrap();
            let found = errors(&committed(name), &doc);
            assert!(found.is_empty(), "{}: {found:#?}", path.display());
            checked += 1;
        }
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
    let mut stack = vec![root.join("tests/situations"), root.join("tests/situations-invictus"), root.join("mods")];
    let mut checked = [0, 0];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
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
