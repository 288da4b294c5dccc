//! `--format sarif` and `--format github` as code scanning reads them (issue
//! 13, item 8): SARIF valid against the SARIF 2.1.0 schema, percent-encoded
//! URIs relative to the repository root, rules with help, end positions.

use arena_tests::{arena, tests_dir};
use serde_json::Value;
use std::path::Path;

/// The OASIS schema's known-malformed language pattern (a stray `]`), which a
/// validator with format checks refuses as a regex, and what it means.
const BROKEN_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
const LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$";

fn sarif_validator() -> jsonschema::Validator {
    let path = tests_dir().join("fixtures/sarif/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(text.matches(BROKEN_LANGUAGE_PATTERN).count(), 2, "the vendored schema is not the one expected");
    // Only in memory: the vendored file stays as published.
    let text = text.replace(BROKEN_LANGUAGE_PATTERN, LANGUAGE_PATTERN);
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    jsonschema::draft7::options().should_validate_formats(true).build(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, doc: &Value, what: &str) {
    let errors: Vec<String> = validator.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: SARIF not valid against the 2.1.0 schema:\n{}", errors.join("\n"));
}

/// Every bad fixture's SARIF is valid, and so is a clean run's (no results).
#[test]
fn sarif_of_every_bad_fixture_is_valid_against_the_official_schema() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let validator = sarif_validator();
    let mut checked = 0;
    let mut dirs: Vec<_> = std::fs::read_dir("fixtures/bad").unwrap().flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let run = arena(&["check", dir.to_str().unwrap(), "--format", "sarif"]);
        let doc: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        assert_valid(&validator, &doc, &dir.display().to_string());
        checked += doc["runs"][0]["results"].as_array().map_or(0, Vec::len);
    }
    assert!(checked > 40, "only {checked} results checked");
    let clean = arena(&["check", "../mods/duelist", "../content/aristeia-core", "--format", "sarif"]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    assert_valid(&validator, &serde_json::from_str(&clean.stdout).unwrap(), "a clean run");
}

/// A pack whose folder and file names need percent-encoding, checked from
/// inside a repository: relative, encoded URIs; end positions; rule help.
#[test]
fn sarif_uris_are_encoded_and_relative_to_the_repository_root() {
    let repo = tempfile::tempdir().unwrap();
    std::fs::create_dir(repo.path().join(".git")).unwrap();
    let pack = repo.path().join("my mods").join("dü#el");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.toml"),
        "id = \"duel\"\nversion = \"1.0.0\"\ngame = \"aristeia\"\ntitle = \"Duel\"\n",
    )
    .unwrap();
    // `Sénor Massacre` is not kebab-case: columns count characters.
    std::fs::write(pack.join("tác tics.toml"), "[[tactic]]\nid = \"Sénor Massacre\"\n").unwrap();
    let pack_arg = pack.to_str().unwrap();
    let root_arg = repo.path().to_str().unwrap();
    let run = arena(&["check", pack_arg, "--format", "sarif", "--repo-root", root_arg]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let doc: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_valid(&sarif_validator(), &doc, "the encoded pack");
    let results = doc["runs"][0]["results"].as_array().unwrap();
    let invalid_id = results.iter().find(|r| r["ruleId"] == "invalid-id").expect("an invalid-id result");
    let loc = &invalid_id["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "my%20mods/d%C3%BC%23el/t%C3%A1c%20tics.toml");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let region = &loc["region"];
    assert_eq!((region["startLine"].as_i64(), region["startColumn"].as_i64()), (Some(2), Some(6)));
    // The span is the quoted id, 16 characters: the end column is just past it.
    assert_eq!((region["endLine"].as_i64(), region["endColumn"].as_i64()), (Some(2), Some(22)));
    assert_eq!(doc["runs"][0]["columnKind"], "unicodeCodePoints");
    // The schema check can fail: the same document with the URI not encoded
    // (`uri-reference` format), or a region with a column 0, is refused.
    for (pointer, bad) in [
        ("/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri", Value::from("my mods/dü#el/x#y.toml")),
        ("/runs/0/results/0/locations/0/physicalLocation/region/endColumn", Value::from(0)),
    ] {
        let mut broken = doc.clone();
        *broken.pointer_mut(pointer).unwrap() = bad;
        assert!(!sarif_validator().is_valid(&broken), "{pointer}: a broken document passed");
    }

    let rules = doc["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    let index = invalid_id["ruleIndex"].as_u64().unwrap() as usize;
    let rule = &rules[index];
    assert_eq!(rule["id"], "invalid-id");
    assert!(rule["fullDescription"]["text"].as_str().unwrap().contains("kebab-case"), "{rule}");
    assert!(rule["help"]["text"].as_str().unwrap().contains("kebab-case"), "{rule}");
    assert!(rule["help"]["markdown"].as_str().unwrap().contains("docs/diagnostics.md#invalid-id"), "{rule}");
    assert!(rule["helpUri"].as_str().unwrap().ends_with("/docs/diagnostics.md#invalid-id"), "{rule}");
    for r in rules {
        for key in ["shortDescription", "fullDescription", "help"] {
            assert!(r[key]["text"].as_str().is_some_and(|t| !t.is_empty()), "{} has no {key}", r["id"]);
        }
    }

    // The same annotations for GitHub: the path relative to the root, not encoded.
    let run = arena(&["check", pack_arg, "--format", "github", "--repo-root", root_arg]);
    let line = run.stdout.lines().find(|l| l.contains("title=invalid-id")).expect("an invalid-id annotation");
    assert!(
        line.starts_with(
            "::error file=my mods/dü#el/tác tics.toml,line=2,endLine=2,col=6,endColumn=22,title=invalid-id::"
        ),
        "{line}"
    );
}

/// Without `--repo-root`, the root is the nearest folder upward with `.git`:
/// a relative and an absolute path to the same pack give the same output.
#[test]
fn the_repository_root_is_found_from_the_current_folder() {
    std::env::set_current_dir(tests_dir()).unwrap();
    assert!(Path::new("../.git").exists(), "the tests run in a checkout");
    let relative = arena(&["check", "fixtures/bad/invalid-id", "--format", "github"]);
    let absolute = tests_dir().join("fixtures/../fixtures/bad/invalid-id");
    let absolute = arena(&["check", absolute.to_str().unwrap(), "--format", "github"]);
    assert!(relative.stdout.contains("file=tests/fixtures/bad/invalid-id/p/c.toml,"), "{}", relative.stdout);
    let annotations = |s: &str| s.lines().filter(|l| l.starts_with("::")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(annotations(&relative.stdout), annotations(&absolute.stdout));
}

/// What GitHub's code scanning requires of an upload beyond the schema, as
/// the SARIF SDK's GitHub rule set checks it (reimplemented here, rule by
/// rule, since the multitool is a .NET tool this machine does not have):
/// every result has a location with an artifact URI and a region with a start
/// line (GH1001/GH1016, ProvideRequiredLocationProperties; a result with
/// `"locations": []` was refused), every result names a rule of the driver
/// by id, and each rule has a `name` distinct from its id, in PascalCase
/// (SARIF1001 warned of every one being equal), and help text.
#[test]
fn sarif_meets_the_github_ingestion_rules_for_every_bad_fixture() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let mut dirs: Vec<_> = std::fs::read_dir("fixtures/bad").unwrap().flatten().map(|e| e.path()).collect();
    dirs.sort();
    let mut results = 0;
    let mut without_file = 0;
    for dir in dirs {
        let run =
            arena(&["check", dir.to_str().unwrap(), "--format", "sarif", "--locked", "--lockfile", "no-such.lock"]);
        let doc: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let rules = doc["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
        let mut ids = std::collections::BTreeSet::new();
        for r in rules {
            let (id, name) = (r["id"].as_str().unwrap(), r["name"].as_str().unwrap());
            assert!(ids.insert(id), "rule {id} twice");
            assert_ne!(id, name, "rule {id}: name equals id");
            assert!(name.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !name.contains('-'), "{name}");
            assert!(r["help"]["text"].as_str().is_some_and(|t| !t.is_empty()), "rule {id} has no help");
        }
        for res in doc["runs"][0]["results"].as_array().unwrap() {
            let rule = res["ruleId"].as_str().unwrap();
            assert!(ids.contains(rule), "{}: result of unknown rule {rule}", dir.display());
            let locations = res["locations"].as_array().unwrap();
            assert!(!locations.is_empty(), "{}: a result with no location: {res}", dir.display());
            let physical = &locations[0]["physicalLocation"];
            assert!(physical["artifactLocation"]["uri"].as_str().is_some_and(|u| !u.is_empty()), "{res}");
            assert!(physical["region"]["startLine"].as_i64().is_some_and(|l| l >= 1), "{res}");
            if res["message"]["text"].as_str().is_some_and(|m| m.contains("no-such.lock")) {
                without_file += 1;
            }
            results += 1;
        }
    }
    assert!(results > 40, "only {results} results");
    assert!(without_file > 0, "no result about a missing file was checked");
}
