//! Every generated file of the repository, from its one source of truth: the
//! content schemas (from `model`), the Lua API definitions and reference (from
//! `script::api`), and the diagnostics reference (from `diag::Code`).
//!
//! `arena generate` writes them; `arena generate --check` and a test fail when a
//! committed copy is stale. No IO here: callers write.

/// Every generated file as (path relative to the repository root, text).
pub fn files() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> =
        crate::schema::generated_files().into_iter().map(|(name, text)| (format!("schemas/{name}"), text)).collect();
    out.extend(crate::script::api::generated_files().into_iter().map(|(p, t)| (p.to_string(), t)));
    out.push(("docs/diagnostics.md".to_string(), diagnostics_reference()));
    out.push(("docs/windows.md".to_string(), windows_reference()));
    out
}

/// The timing windows catalog, from the `Window` type's documentation.
fn windows_reference() -> String {
    let schema = crate::schema::content_schema();
    let mut s = String::from(
        "# Timing windows\n\n<!-- Generated from engine/src/model.rs (`Window`) by `arena generate`; do not edit. -->\n\n\
         The moments of the rules' sequence (`000 § When Do Things Happen`) that\n\
         content attaches to: a Tactic's `timing`, an Automatic Skill's `timing`.\n\
         Today the engine plays Tactics at `actions-step`, `before-roll`,\n\
         `before-opponent-roll` and `tactic-played` (a Tactic that answers a played\n\
         Tactic Nullifies it), and runs Automatic Skills at `activation-start`,\n\
         `before-roll` (the team's skills, before each of its Attacks), `cover`\n\
         and `attack-resolved`, and an Action's own Effects at `before-roll` and\n\
         `before-switches`. Content at the other windows loads and validates\n\
         but is not played yet.\n\n| window | when |\n|---|---|\n",
    );
    let variants = schema.pointer("/definitions/Window/oneOf").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    for v in variants {
        let name = v.get("const").and_then(|c| c.as_str()).unwrap_or_default();
        let doc = v.get("description").and_then(|c| c.as_str()).unwrap_or_default().replace('\n', " ");
        s.push_str(&format!("| `{name}` | {doc} |\n"));
    }
    s
}

fn diagnostics_reference() -> String {
    let mut s = include_str!("diagnostics_head.md").to_string();
    s.push_str("## Codes\n\n<!-- Generated from engine/src/diag.rs by `arena generate`; do not edit below. -->\n\n");
    s.push_str("| code | meaning |\n|---|---|\n");
    for c in crate::diag::Code::ALL {
        s.push_str(&format!("| `{}` | {} |\n", c.as_str(), c.description()));
    }
    s
}
