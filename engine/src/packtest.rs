//! Designers' script tests: a pack may ship `*.test.lua` files that describe
//! situations for its own effects and the calls each must make. `arena check`
//! runs them against the [`RecordingHost`]; a failure is a `script-test-failed`
//! diagnostic at the test's line.
//!
//! A test file returns a list of cases (see docs/effects.md):
//!
//! ```lua
//! return {
//!   {
//!     name = "Frostbite Immobilizes every Enemy within Range",
//!     card = "character:valkyrie",
//!     effect = "actions[id=frostbite].effects[0]",
//!     ctx = { self = "valkyrie" },
//!     answers = { enemies_within = { { "hannibal", "laxmee" } } },
//!     expect_calls = {
//!       'enemies_within("valkyrie", 1, 1)',
//!       'impose_state("hannibal", "immobilized", nil)',
//!       'impose_state("laxmee", "immobilized", nil)',
//!     },
//!   },
//! }
//! ```

use crate::diag::{Code, Diagnostic, Location};
use crate::loaded::Loaded;
use crate::model::Id;
use crate::script::api::{self, ApiValue, Ty};
use crate::script::host::RecordingHost;
use crate::script::runtime::{Ctx, Limits, Runtime, ScriptSource};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// The outcome of running every pack's tests.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Test cases run.
    pub run: usize,
    /// Test cases that failed.
    pub failed: usize,
    /// One diagnostic per failure or malformed test file.
    pub diagnostics: Vec<Diagnostic>,
}

/// Run every `*.test.lua` of every loaded pack, on `runtime` (a VM of the
/// loaded content and scripts: the one [`check_functions`] uses too) or, for
/// `None`, a VM of their own.
pub fn run_all(loaded: &Loaded, runtime: Option<&Runtime>, limits: Limits) -> Outcome {
    let mut out = Outcome::default();
    let files: Vec<(&str, &Path)> = loaded
        .packs
        .iter()
        .flat_map(|p| {
            p.scripts
                .iter()
                .filter(|(k, _)| k.ends_with(".test.lua"))
                .map(move |(_, f)| (p.manifest.id.as_str(), f.as_path()))
        })
        .collect();
    if files.is_empty() {
        return out;
    }
    let started;
    let runtime = match runtime {
        Some(rt) => rt,
        None => match Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), limits) {
            Ok(rt) => {
                started = rt;
                &started
            }
            Err(e) => {
                out.diagnostics.push(Diagnostic::error(Code::ScriptError, format!("cannot start the Lua VM: {e}")));
                return out;
            }
        },
    };
    let mut own: std::collections::BTreeMap<&str, Runtime> = Default::default();
    for (pack, file) in files {
        let Some(text) = loaded.sources.get(file) else { continue };
        // A pack tests its effects as it and its dependencies define them: Lua
        // that a later, independent pack patched (an errata mod) is tested as it
        // was before that patch; the patching pack tests its own version.
        if !own.contains_key(pack) {
            if let Some(set) = scripts_as_of(loaded, pack) {
                if let Ok(rt) = Runtime::new(Arc::new(loaded.content.clone()), set, limits) {
                    own.insert(pack, rt);
                }
            }
        }
        let rt = own.get(pack).unwrap_or(runtime);
        let first = out.diagnostics.len();
        run_file(rt, pack, file, text, &mut out);
        // A test of a card that failed to load fails because of that error:
        // a consequence (shown with --strict), not a second mistake.
        for d in &mut out.diagnostics[first..] {
            let card_failed = loaded.failed_entries.iter().any(|e| d.message.contains(&format!("`{e}`")));
            // A card missing while its own pack has errors (a file that did
            // not parse, a script too large): most likely the same cause.
            let pack_broken = d.message.contains("no loaded card")
                && loaded.diagnostics.iter().any(|e| {
                    e.is_error()
                        && e.location.as_ref().is_some_and(|l| {
                            loaded.packs.iter().any(|p| p.manifest.id == *pack && l.file.starts_with(&p.root))
                        })
                });
            if d.code == Code::ScriptTestFailed && (card_failed || pack_broken) {
                d.severity = crate::diag::Severity::Note;
                d.message.push_str(" (the card did not load: see its error)");
            }
        }
    }
    out
}

/// The scripts as pack `pack` and its dependencies define them, if patches from
/// other packs changed any; `None` when the shared set is already that.
fn scripts_as_of(loaded: &Loaded, pack: &str) -> Option<Arc<crate::script::runtime::ScriptSet>> {
    let mut allowed = std::collections::BTreeSet::new();
    let mut stack = vec![pack.to_string()];
    while let Some(p) = stack.pop() {
        if allowed.insert(p.clone()) {
            if let Some(pk) = loaded.packs.iter().find(|x| x.manifest.id == p) {
                stack.extend(pk.manifest.dependencies.keys().map(|k| k.to_string()));
                stack.extend(pk.manifest.optional_dependencies.keys().map(|k| k.to_string()));
            }
        }
    }
    let mut changed = Vec::new();
    let sources: Vec<ScriptSource> = loaded
        .script_set
        .sources()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let lua_path = format!("{}.lua", s.effect);
            let foreign = loaded
                .provenance
                .get(&s.card)
                .is_some_and(|fields| fields.iter().any(|f| f.path == lua_path && !allowed.contains(&f.pack)));
            if !foreign {
                return s.clone();
            }
            // The Lua before the foreign patch: from the file that defined the entry.
            let original = s.card.split_once(':').and_then(|(k, id)| {
                let origin = loaded.content.origin(crate::model::Kind::from_key(k)?, id)?;
                let raw = loaded.docs.get(&origin.file)?.get(&origin.pointer)?;
                let (ptr, _) = crate::patch::keyed_pointer(raw, &lua_path).ok()?;
                raw.pointer(&ptr)?.as_str().map(str::to_string)
            });
            match original {
                Some(text) => {
                    changed.push(i);
                    ScriptSource { source: text.into(), ..s.clone() }
                }
                None => s.clone(),
            }
        })
        .collect();
    if changed.is_empty() {
        return None;
    }
    // Only the sources the foreign patches changed are compiled again.
    Some(loaded.script_set.with_sources_replaced(&changed, &sources))
}

fn run_file(rt: &Runtime, pack: &str, file: &Path, text: &str, out: &mut Outcome) {
    let source = ScriptSource {
        pack: pack.to_string(),
        card: format!("test:{}", file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()),
        effect: String::new(),
        file: file.to_path_buf(),
        first_line: 1,
        source: text.into(),
        module: None,
    };
    let cases = match rt.evaluate(&source, &mut RecordingHost::new(0)) {
        Ok(Value::Array(cases)) => cases,
        Ok(_) => {
            out.diagnostics.push(malformed(file, 1, "a test file must return a list of cases"));
            return;
        }
        Err(e) => {
            out.diagnostics.push(e.to_diagnostic());
            return;
        }
    };
    let mut names = std::collections::BTreeMap::<String, usize>::new();
    for (i, case) in cases.iter().enumerate() {
        if let Some(name) = case.get("name").and_then(Value::as_str) {
            let seen = names.entry(name.to_string()).or_insert(0);
            *seen += 1;
            if *seen > 1 {
                // Point at this repeat of the name, not at its first use.
                let needle = format!("\"{name}\"");
                let line = text
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| l.contains(&needle))
                    .nth(*seen - 1)
                    .map_or(1, |(n, _)| n + 1);
                out.diagnostics.push(
                    Diagnostic::error(Code::ScriptTestFailed, format!("two tests are named \"{name}\""))
                        .at(crate::diag::line_location(file, text, line))
                        .help("give each test of a file its own name"),
                );
            }
        }
        out.run += 1;
        if let Err(d) = run_case(rt, file, text, i, case) {
            out.failed += 1;
            out.diagnostics.push(*d);
        }
    }
}

fn malformed(file: &Path, line: usize, message: &str) -> Diagnostic {
    Diagnostic::error(Code::ScriptTestFailed, message.to_string())
        .at(Location { file: file.to_path_buf(), span: None, line, column: 1 })
        .help("see docs/effects.md § Testing effects for the shape of a test case")
}

/// The line on which a case's name is written, to point at it.
fn line_of(text: &str, name: &str) -> usize {
    let needle = format!("\"{name}\"");
    text.lines().position(|l| l.contains(&needle)).map_or(1, |i| i + 1)
}

fn run_case(rt: &Runtime, file: &Path, text: &str, index: usize, case: &Value) -> Result<(), Box<Diagnostic>> {
    let name = case.get("name").and_then(Value::as_str).unwrap_or("").to_string();
    let line = if name.is_empty() { 1 } else { line_of(text, &name) };
    let fail = |message: String| -> Box<Diagnostic> {
        let label = if name.is_empty() { format!("case {}", index + 1) } else { format!("\"{name}\"") };
        Box::new(
            Diagnostic::error(Code::ScriptTestFailed, format!("test {label}: {message}"))
                .at(crate::diag::line_location(file, text, line))
                .help("run the effect alone with `arena script`, or see docs/effects.md § Testing effects"),
        )
    };
    let Some(card) = case.get("card").and_then(Value::as_str) else {
        return Err(fail("no `card` (such as \"character:valkyrie\")".into()));
    };
    let effect = case.get("effect").and_then(Value::as_str).unwrap_or("");
    let Some(id) = rt.scripts().find(card, effect) else {
        let known: Vec<String> =
            rt.scripts().sources().iter().filter(|s| s.card == card).map(|s| format!("\"{}\"", s.effect)).collect();
        let hint = if known.is_empty() {
            let cards: Vec<String> = rt.scripts().sources().iter().map(|s| s.card.clone()).collect();
            let near =
                crate::read::suggest(card, &cards).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
            format!("no loaded card `{card}` has an effect with Lua{near}; check its kind and id")
        } else {
            format!("its effects with Lua are {}", known.join(", "))
        };
        return Err(fail(format!("no effect `{effect}` on `{card}`: {hint}")));
    };
    let ctx_json = case.get("ctx").cloned().unwrap_or(Value::Null);
    let ctx = Ctx {
        self_id: ctx_json.get("self").and_then(Value::as_str).map(Id::from),
        target: ctx_json.get("target").and_then(Value::as_str).map(Id::from),
        successes: ctx_json.get("successes").and_then(Value::as_i64),
        player: ctx_json.get("player").and_then(Value::as_i64),
        zone: ctx_json.get("zone").and_then(Value::as_str).map(Id::from),
        state: ctx_json.get("state").and_then(Value::as_str).map(Id::from),
    };
    let mut host = RecordingHost::new(case.get("seed").and_then(Value::as_u64).unwrap_or(1));
    if let Some(Value::Object(answers)) = case.get("answers") {
        for (fname, values) in answers {
            let Some(f) = api::find(fname) else {
                return Err(fail(format!("`answers` names `{fname}`, which is not an API function")));
            };
            let list = match values {
                Value::Array(a) => a.clone(),
                other => vec![other.clone()],
            };
            for v in list {
                host.answer(fname, json_to_api(&v, f.returns).map_err(&fail)?);
            }
        }
    }
    let result = rt.call(id, &mut host, &ctx);
    match (result, case.get("expect_error").and_then(Value::as_str)) {
        (Err(e), Some(want)) if e.message.contains(want) => return Ok(()),
        (Err(e), Some(want)) => {
            return Err(fail(format!("expected an error containing {want:?}, got {:?}", e.message)));
        }
        (Ok(_), Some(want)) => {
            return Err(fail(format!("expected an error containing {want:?}, but the effect succeeded")));
        }
        (Err(e), None) => return Err(fail(format!("the effect failed: {e}"))),
        (Ok(value), None) => {
            if let Some(want) = case.get("expect_result") {
                let got = serde_json::to_value(&value).unwrap_or(Value::Null);
                if &got != want {
                    return Err(fail(format!("expected result {want}, got {got}")));
                }
            }
        }
    }
    if let Some(Value::Array(want)) = case.get("expect_calls") {
        let want: Vec<String> = want.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect();
        let got: Vec<String> = host.calls.iter().map(ToString::to_string).collect();
        if want != got {
            return Err(fail(format!("expected calls [{}], got [{}]", want.join(", "), got.join(", "))));
        }
    }
    Ok(())
}

fn json_to_api(v: &Value, ty: Ty) -> Result<ApiValue, String> {
    crate::script::api::value_from_json(v, ty)
}

/// Every effect that names a script file must find its function there: the
/// file is run once in the sandbox (it should only define functions) and what
/// it returns is checked against the effect's `function`.
pub fn check_functions(loaded: &Loaded, runtime: Option<&Runtime>, limits: Limits) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let modules: Vec<&ScriptSource> =
        loaded.script_set.sources().iter().filter(|s| s.module.is_some() && !s.card.starts_with("script:")).collect();
    if modules.is_empty() {
        return out;
    }
    let started;
    let runtime = match runtime {
        Some(rt) => rt,
        None => match Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), limits) {
            Ok(rt) => {
                started = rt;
                &started
            }
            Err(_) => return out,
        },
    };
    let mut cache: std::collections::BTreeMap<std::path::PathBuf, Result<Value, String>> = Default::default();
    for s in modules {
        let returned = cache
            .entry(s.file.clone())
            .or_insert_with(|| {
                let mut probe = s.clone();
                probe.module = None;
                runtime.evaluate(&probe, &mut RecordingHost::new(0)).map_err(|e| e.message)
            })
            .clone();
        let want = s.module.clone().flatten();
        let problem = match (&returned, &want) {
            (Err(e), _) => Some(format!("running the file failed: {e}")),
            (Ok(Value::String(f)), None) if f == "<function>" => None,
            (Ok(Value::Object(m)), Some(name)) => match m.get(name) {
                Some(Value::String(f)) if f == "<function>" => None,
                _ => {
                    let names: Vec<&str> =
                        m.iter().filter(|(_, v)| v.as_str() == Some("<function>")).map(|(k, _)| k.as_str()).collect();
                    Some(format!(
                        "it returns no function `{name}` (its functions: {})",
                        if names.is_empty() { "none".to_string() } else { names.join(", ") }
                    ))
                }
            },
            (Ok(_), Some(name)) => Some(format!("it does not return a table with a function `{name}`")),
            (Ok(_), None) => {
                Some("it returns no function; return one, or name it with `function = \"...\"`".to_string())
            }
        };
        if let Some(p) = problem {
            let code = if returned.is_err() { Code::ScriptError } else { Code::ScriptNotFound };
            out.push(
                Diagnostic::error(code, format!("{} {}: {p}", s.card, s.effect))
                    .at(Location { file: s.file.clone(), span: None, line: 1, column: 1 })
                    .path(format!("{} {}", s.card, s.effect))
                    .with_note(format!("in pack `{}`", s.pack))
                    .help("a script file returns a function, or a table of functions one of which the effect names with `function`"),
            );
        }
    }
    out
}
