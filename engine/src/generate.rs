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
    out
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
