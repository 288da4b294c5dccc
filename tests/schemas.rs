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
