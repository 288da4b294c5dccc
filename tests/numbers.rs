//! Numbers in content: arena and the JSON Schema (what an editor checks)
//! agree on every numeric field, for a whole number written as a float
//! (`speed = 4.0`, which loads as 4: docs/packs.md § Content files) and for a
//! fractional one (`speed = 4.5`, an error where a whole number belongs).
//! Neither ever drops an entry in silence.

use arena_engine::diag::Severity;
use arena_engine::load;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every numeric property of the content schema, as a path with `*` for list
/// items (`/character/*/actions/*/range/min`), following `$ref`s.
fn numeric_schema_paths(schema: &Value) -> BTreeSet<String> {
    fn walk(node: &Value, path: &str, defs: &Value, seen: &mut Vec<String>, out: &mut BTreeSet<String>) {
        let Value::Object(map) = node else { return };
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            let name = r.rsplit('/').next().unwrap_or_default().to_string();
            if !seen.contains(&name) {
                seen.push(name.clone());
                walk(&defs[&name], path, defs, seen, out);
                seen.pop();
            }
        }
        let numeric = |t: &Value| matches!(t.as_str(), Some("integer" | "number"));
        match map.get("type") {
            Some(Value::Array(ts)) if ts.iter().any(numeric) => {
                out.insert(path.to_string());
            }
            Some(t) if numeric(t) => {
                out.insert(path.to_string());
            }
            _ => {}
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for sub in map.get(key).and_then(Value::as_array).into_iter().flatten() {
                walk(sub, path, defs, seen, out);
            }
        }
        if let Some(Value::Object(props)) = map.get("properties") {
            for (k, v) in props {
                walk(v, &format!("{path}/{k}"), defs, seen, out);
            }
        }
        if let Some(items) = map.get("items") {
            walk(items, &format!("{path}/*"), defs, seen, out);
        }
    }
    let mut out = BTreeSet::new();
    walk(schema, "", &schema["definitions"], &mut Vec::new(), &mut out);
    out
}

/// A pointer with its list indices as `*`: `/character/3/speed` is `/character/*/speed`.
fn schema_path(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|seg| if seg.parse::<usize>().is_ok() { "*" } else { seg })
        .fold(String::new(), |acc, seg| acc + "/" + seg)
}

/// Every integer leaf of a document, as (pointer, value).
fn integer_leaves(v: &Value, pointer: &str, out: &mut Vec<(String, i64)>) {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                out.push((pointer.to_string(), i));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                integer_leaves(item, &format!("{pointer}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                integer_leaves(item, &format!("{pointer}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// What a one-file pack of `text` loads to: the entries per kind and the errors (code, line).
fn arena_reads(dir: &Path, game: &str, text: &str) -> (BTreeMap<String, usize>, BTreeSet<(String, usize)>) {
    let root = dir.join("one-file");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("pack.toml"),
        format!("id = \"one-file\"\nversion = \"1.0.0\"\ngame = \"{game}\"\ntitle = \"T\"\n"),
    )
    .unwrap();
    std::fs::write(root.join("content.toml"), text).unwrap();
    let loaded = load::load(
        &[root],
        &load::Options { compile_scripts: false, run_script_tests: false, ..load::Options::default() },
    );
    let counts =
        arena_engine::model::Kind::ALL.iter().map(|k| (k.key().to_string(), loaded.content.count(*k))).collect();
    let errors = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code.as_str().to_string(), d.location.as_ref().map_or(0, |l| l.line)))
        .collect();
    (counts, errors)
}

/// What an editor sees: the TOML as TOML (a float stays a float), checked by the schema.
fn schema_accepts(validator: &jsonschema::Validator, text: &str) -> bool {
    let value: toml::Value = toml::from_str(text).expect("the variant is TOML");
    validator.is_valid(&serde_json::to_value(value).unwrap())
}

/// The game of the pack that holds `file`.
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

/// Each numeric field of the content schema, written `N.0` and `N.5` in a
/// real entry (the bundled packs, the mods and the fixture pack that uses the
/// fields they leave out): `N.0` loads as `N` in arena and passes the
/// schema; `N.5` passes both only where the field is a number, and fails
/// both, with an error at its line, where it is a whole number.
#[test]
fn every_numeric_field_reads_the_same_in_arena_and_in_the_schema() {
    let schema = arena_engine::schema::content_schema();
    let validator = jsonschema::draft7::new(&schema).unwrap();
    let wanted = numeric_schema_paths(&schema);
    assert!(wanted.len() > 50, "the walk finds the schema's numbers: {wanted:?}");

    let tests = arena_tests::tests_dir();
    let roots: Vec<PathBuf> =
        vec![tests.join("../content"), tests.join("../mods"), tests.join("fixtures/packs/every-number")];
    let loaded = load::load(
        &roots,
        &load::Options { compile_scripts: false, run_script_tests: false, ..load::Options::default() },
    );
    // One real occurrence of each numeric field.
    let mut found: BTreeMap<String, (PathBuf, String, i64)> = BTreeMap::new();
    for (file, doc) in &loaded.docs {
        if file.file_name().is_some_and(|n| n == "pack.toml") {
            continue;
        }
        let mut leaves = Vec::new();
        integer_leaves(&doc.value, "", &mut leaves);
        for (pointer, n) in leaves {
            let path = schema_path(&pointer);
            if wanted.contains(&path) && doc.spans.contains_key(&pointer) {
                found.entry(path).or_insert((file.clone(), pointer, n));
            }
        }
    }
    let missing: Vec<_> = wanted.iter().filter(|p| !found.contains_key(*p)).collect();
    assert!(
        missing.is_empty(),
        "numeric fields no bundled entry or tests/fixtures/packs/every-number uses: {missing:?} (add one there)"
    );

    let number_fields = {
        // The fields whose type is `number` (a fraction is fine there).
        let mut s = BTreeSet::new();
        for (path, (file, pointer, _)) in &found {
            let text = loaded.sources.get(file).unwrap();
            let span = loaded.docs[file].spans[pointer].value.clone();
            let variant = format!("{}{}.5{}", &text[..span.start], &text[span.start..span.end], &text[span.end..]);
            if schema_accepts(&validator, &variant) {
                s.insert(path.clone());
            }
        }
        s
    };

    let dir = tempfile::tempdir().unwrap();
    let mut disagreements = Vec::new();
    for (path, (file, pointer, n)) in &found {
        let text = loaded.sources.get(file).unwrap();
        let game = game_of(file);
        let span = loaded.docs[file].spans[pointer].value.clone();
        let line = text[..span.start].matches('\n').count() + 1;
        assert!(schema_accepts(&validator, text), "{} is valid as it is", file.display());
        let (base_counts, base_errors) = arena_reads(dir.path(), &game, text);
        for fraction in ["0", "5"] {
            let written = format!("{n}.{fraction}");
            let variant = format!("{}{written}{}", &text[..span.start], &text[span.end..]);
            let schema_ok = schema_accepts(&validator, &variant);
            let (counts, errors) = arena_reads(dir.path(), &game, &variant);
            let new_errors: Vec<_> = errors.difference(&base_errors).collect();
            let arena_ok = new_errors.is_empty() && counts == base_counts;
            if counts != base_counts && new_errors.is_empty() {
                disagreements.push(format!("{path} = {written}: an entry is gone without an error"));
            }
            if schema_ok != arena_ok {
                disagreements.push(format!(
                    "{path} = {written} ({}): schema {schema_ok}, arena {arena_ok} {new_errors:?}",
                    file.display()
                ));
            }
            let whole = fraction == "0";
            let expected = whole || number_fields.contains(path);
            if arena_ok != expected {
                disagreements.push(format!("{path} = {written}: arena {arena_ok}, expected {expected}"));
            }
            if !arena_ok && !new_errors.iter().any(|(_, l)| *l == line) {
                disagreements.push(format!("{path} = {written}: no error at line {line}: {new_errors:?}"));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
