//! The JSON Schemas in `schemas/` are generated from the content model and
//! committed; this fails when they are stale.

#[test]
fn committed_schemas_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    for (name, text) in arena_engine::schema::generated_files() {
        let committed = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(
            committed == text,
            "schemas/{name} is stale: run `cargo run -p arena -- schema --write schemas` and commit it"
        );
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
