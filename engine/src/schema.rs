//! JSON Schemas derived from the content model: one for content files, one for
//! pack manifests. Written to `schemas/` by `arena generate` (committed; a
//! test fails when they are stale) and used by the loader to validate every file.
//!
//! Draft-07, the dialect editors (Taplo / Even Better TOML) understand best.

use crate::model::{ContentFile, Manifest};
use schemars::generate::SchemaSettings;
use serde_json::Value;

/// File name of the content-file schema under `schemas/`.
pub const CONTENT_SCHEMA_FILE: &str = "content.schema.json";
/// File name of the manifest schema under `schemas/`.
pub const MANIFEST_SCHEMA_FILE: &str = "pack.schema.json";
/// File name of the schema of an Aristeia! situation (`arena run`; docs/situations.md).
pub const SITUATION_SCHEMA_FILE: &str = "situation.schema.json";
/// File name of the schema of an Invictus situation (`game = "invictus"`).
pub const INVICTUS_SITUATION_SCHEMA_FILE: &str = "invictus-situation.schema.json";
/// File name of the schema of `arena.lock` (`arena lock`).
pub const LOCK_SCHEMA_FILE: &str = "lock.schema.json";

fn generate<T: schemars::JsonSchema>() -> Value {
    let generator = SchemaSettings::draft07().into_generator();
    generator.into_root_schema_for::<T>().to_value()
}

/// The schema every content file is validated against.
pub fn content_schema() -> Value {
    generate::<ContentFile>()
}

/// The schema of `pack.toml`.
pub fn manifest_schema() -> Value {
    generate::<Manifest>()
}

/// The schema of an Aristeia! situation file: what `arena run` reads
/// (docs/situations.md); the checks that need the content (ids that exist,
/// spaces on the map) stay `arena run`'s.
pub fn situation_schema() -> Value {
    let mut v = generate::<crate::rules::situation::Situation>();
    if let Some(p) = v.get_mut("properties").and_then(Value::as_object_mut) {
        p.insert(
            "game".into(),
            serde_json::json!({ "const": "aristeia", "description": "The game: `aristeia`, the default." }),
        );
    }
    v
}

/// The schema of an Invictus situation file (`game = "invictus"`).
pub fn invictus_situation_schema() -> Value {
    generate::<crate::invictus::situation::Situation>()
}

/// The pattern of an `id`: kebab-case, as `arena check` has it
/// (`read::is_kebab`, diagnostic `invalid-id`).
pub const ID_PATTERN: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

/// The pattern of a pack's `version`: a semantic version (semver.org's own
/// pattern; `arena check` parses it with the `semver` crate).
pub const VERSION_PATTERN: &str = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$";

/// A schema with the checks `arena check` makes in code added, so that an
/// editor flags what `arena check` would (issue: editors check less than
/// arena does): every `id` property's [`ID_PATTERN`], a manifest's
/// `version` [`VERSION_PATTERN`], and an effect's `lua` and `script` not
/// both given (diagnostic `effect-source`). The loader validates against the
/// schema without them and reports each with its own diagnostic and hint.
pub fn for_editors(mut schema: Value, manifest: bool) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(props)) = m.get_mut("properties") {
                    if let Some(Value::Object(id)) = props.get_mut("id") {
                        if id.get("type") == Some(&Value::from("string")) {
                            id.insert("pattern".into(), ID_PATTERN.into());
                        }
                    }
                    if props.contains_key("lua") && props.contains_key("script") {
                        m.insert("not".into(), serde_json::json!({ "required": ["lua", "script"] }));
                    }
                }
                for child in m.values_mut() {
                    walk(child);
                }
            }
            Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut schema);
    if manifest {
        if let Some(Value::Object(version)) = schema.pointer_mut("/properties/version") {
            version.insert("pattern".into(), VERSION_PATTERN.into());
        }
    }
    schema
}

/// A committed schema's `$id`: a name that stays the same from version to
/// version and machine to machine (`urn:arena:schema:content`), not a
/// location (the project has no public address to put one at).
pub fn schema_id(file: &str) -> String {
    format!("urn:arena:schema:{}", file.trim_end_matches(".schema.json"))
}

/// Every generated schema as (file name, pretty JSON text ending in a
/// newline): [`for_editors`] of each.
pub fn generated_files() -> Vec<(&'static str, String)> {
    [
        (CONTENT_SCHEMA_FILE, for_editors(content_schema(), false)),
        (MANIFEST_SCHEMA_FILE, for_editors(manifest_schema(), true)),
        (SITUATION_SCHEMA_FILE, situation_schema()),
        (INVICTUS_SITUATION_SCHEMA_FILE, invictus_situation_schema()),
        (LOCK_SCHEMA_FILE, crate::lock::lock_schema()),
    ]
    .into_iter()
    .map(|(name, mut v)| {
        if let Some(m) = v.as_object_mut() {
            m.insert("$id".into(), schema_id(name).into());
        }
        let mut s = serde_json::to_string_pretty(&v).expect("a schema always serializes");
        s.push('\n');
        (name, s)
    })
    .collect()
}

/// Property names a schema allows at an instance location, for "did you mean"
/// hints: follows `$ref`, `properties`, `items`, `additionalProperties` and the
/// `anyOf`/`oneOf`/`allOf` branches along the pointer's segments.
pub fn properties_at(schema: &Value, pointer_segments: &[&str]) -> Vec<String> {
    let mut nodes = vec![schema];
    for seg in pointer_segments {
        let mut next = Vec::new();
        for n in expand(schema, nodes) {
            if let Some(p) = n.get("properties").and_then(|p| p.get(*seg)) {
                next.push(p);
            }
            if seg.parse::<usize>().is_ok() {
                if let Some(i) = n.get("items") {
                    next.push(i);
                }
            }
            if let Some(a) = n.get("additionalProperties").filter(|a| a.is_object()) {
                next.push(a);
            }
        }
        nodes = next;
    }
    let mut out: Vec<String> = expand(schema, nodes)
        .into_iter()
        .filter_map(|n| n.get("properties").and_then(|p| p.as_object()))
        .flat_map(|p| p.keys().cloned())
        .collect();
    out.sort();
    out.dedup();
    out
}

fn expand<'a>(root: &'a Value, nodes: Vec<&'a Value>) -> Vec<&'a Value> {
    let mut out = Vec::new();
    let mut stack = nodes;
    let mut guard = 0;
    while let Some(n) = stack.pop() {
        guard += 1;
        if guard > 1000 {
            break;
        }
        if let Some(r) = n.get("$ref").and_then(|r| r.as_str()) {
            if let Some(target) = r.strip_prefix('#').and_then(|p| root.pointer(p)) {
                stack.push(target);
            }
        }
        for k in ["anyOf", "oneOf", "allOf"] {
            if let Some(arr) = n.get(k).and_then(|a| a.as_array()) {
                stack.extend(arr.iter());
            }
        }
        out.push(n);
    }
    out
}
