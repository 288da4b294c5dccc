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
    out.extend(crate::invictus::api::generated_files().into_iter().map(|(p, t)| (p.to_string(), t)));
    out.push(("docs/diagnostics.md".to_string(), diagnostics_reference()));
    out.push(("docs/windows.md".to_string(), windows_reference()));
    out
}

/// The timing windows catalog, from the `Window` type's documentation.
fn windows_reference() -> String {
    let schema = crate::schema::content_schema();
    let mut s = String::from(
        "# Timing windows\n\n<!-- Generated from engine/src/model/cards.rs (`Window`) by `arena generate`; do not edit. -->\n\n\
         The moments of the rules' sequence (`000 § When Do Things Happen`) that\n\
         content attaches to: a Tactic's `timing`, an Automatic Skill's `timing`,\n\
         and for an Action's own Effects `before-roll` or `before-switches`. The\n\
         columns say whether the engine offers Tactics and runs Automatic Skills\n\
         at each; `arena check` warns (`timing-not-played`) about a card whose\n\
         timing is never played for its kind. When both players may play, or\n\
         several units' skills happen at once, the Underdog decides the order.\n\n\
         | window | Tactics | Automatic Skills | when |\n|---|---|---|---|\n",
    );
    let variants = schema.pointer("/definitions/Window/oneOf").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    for v in variants {
        let name = v.get("const").and_then(|c| c.as_str()).unwrap_or_default();
        let doc = v.get("description").and_then(|c| c.as_str()).unwrap_or_default().replace('\n', " ");
        let window: Option<crate::model::Window> = serde_json::from_value(serde_json::Value::String(name.into())).ok();
        let yes = |b: bool| if b { "yes" } else { "—" };
        let (t, k) = window.map_or(("?", "?"), |w| (yes(w.plays_tactics()), yes(w.runs_skills())));
        s.push_str(&format!("| `{name}` | {t} | {k} | {doc} |\n"));
    }
    s.push_str(
        "\nAn Automatic Skill with no `timing` and Lua acts at the start of its\n\
         Character's Activation; one with `prevents` and no Lua is a restriction the\n\
         engine enforces (docs/effects.md). `before-roll` skills are the attacking\n\
         team's, before each of its Attack Rolls (Pointman); `own-roll` skills change\n\
         every Roll of their own Character.\n",
    );
    s
}

fn diagnostics_reference() -> String {
    let mut s = include_str!("diagnostics_head.md").to_string();
    s.push_str("## Codes\n\n<!-- Generated from engine/src/diag.rs by `arena generate`; do not edit below. -->\n\n");
    s.push_str("| code | meaning |\n|---|---|\n");
    for c in crate::diag::Code::ALL {
        s.push_str(&format!("| [`{0}`](#{0}) | {1} |\n", c.as_str(), c.description()));
    }
    // One section per code, the page SARIF's `helpUri` of each rule points at.
    for c in crate::diag::Code::ALL {
        s.push_str(&format!("\n### {}\n\n{}\n\nWhat to do: {}\n", c.as_str(), c.description(), c.fix()));
    }
    s
}
