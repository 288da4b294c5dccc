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
