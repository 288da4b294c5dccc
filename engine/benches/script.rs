//! Benchmark of the Lua effect runtime (issue: sandboxed Lua effects).
//!
//! - `call/empty`: host → Lua → host, an effect that does nothing;
//! - `call/one_api_call`: host → Lua → one API call back into the host → Lua →
//!   host (`game:damage(ctx.self)`), the round trip the target is set for;
//! - `call/file_module`: the same through a script file that returns a table of
//!   functions (re-run on every call, so module state cannot persist);
//! - `compile/bundled`: compiling every script of the bundled packs plus the
//!   test corpus (`tests/hostile`, `tests/fixtures`), as `arena check` does once
//!   per load.
//!
//! Run with `cargo bench -p arena-engine --bench script`; figures in docs/performance.md.

use arena_engine::content::Content;
use arena_engine::script::api::{ApiFn, ApiValue};
use arena_engine::script::host::Host;
use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptId, ScriptSource, compile_all};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn main() {
    divan::main();
}

/// A host that answers every call with 0 and records nothing, so the figure is the VM's.
struct NullHost;
impl Host for NullHost {
    fn call(&mut self, _f: &'static ApiFn, _args: &[ApiValue]) -> Result<ApiValue, String> {
        Ok(ApiValue::Int(0))
    }
}

fn source(card: &str, text: &str, module: Option<Option<String>>) -> ScriptSource {
    ScriptSource {
        pack: "bench".into(),
        card: card.into(),
        effect: String::new(),
        file: PathBuf::from("bench.lua"),
        first_line: 1,
        source: text.into(),
        module,
    }
}

fn runtime() -> (Runtime, [ScriptId; 3]) {
    let (set, errors) = compile_all(vec![
        source("empty", "return nil", None),
        source("one", "local game, ctx = ...\nreturn game:damage(ctx.self)", None),
        source(
            "module",
            "return { hit = function(game, ctx) return game:damage(ctx.self) end }",
            Some(Some("hit".into())),
        ),
    ]);
    assert!(errors.is_empty(), "{errors:?}");
    let ids = [set.find("empty", "").unwrap(), set.find("one", "").unwrap(), set.find("module", "").unwrap()];
    (Runtime::new(Arc::new(Content::default()), set, Limits::default()).unwrap(), ids)
}

fn ctx() -> Ctx {
    Ctx { self_id: Some("valkyrie".into()), ..Ctx::default() }
}

#[divan::bench]
fn call_empty(b: divan::Bencher) {
    let (rt, ids) = runtime();
    let ctx = ctx();
    let mut host = NullHost;
    b.bench_local(|| rt.call(ids[0], &mut host, &ctx).unwrap());
}

#[divan::bench]
fn call_one_api_call(b: divan::Bencher) {
    let (rt, ids) = runtime();
    let ctx = ctx();
    let mut host = NullHost;
    assert_eq!(rt.call(ids[1], &mut host, &ctx), Ok(ApiValue::Int(0)));
    b.bench_local(|| rt.call(ids[1], &mut host, &ctx).unwrap());
}

#[divan::bench]
fn call_file_module(b: divan::Bencher) {
    let (rt, ids) = runtime();
    let ctx = ctx();
    let mut host = NullHost;
    assert_eq!(rt.call(ids[2], &mut host, &ctx), Ok(ApiValue::Int(0)));
    b.bench_local(|| rt.call(ids[2], &mut host, &ctx).unwrap());
}

fn lua_files(dir: &Path, out: &mut Vec<ScriptSource>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            lua_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "lua") {
            if let Ok(text) = std::fs::read_to_string(&p) {
                out.push(source(&p.display().to_string(), &text, Some(None)));
            }
        }
    }
}

#[divan::bench]
fn compile_bundled(b: divan::Bencher) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let loaded = arena_engine::load::load(
        &[root.join("content")],
        &arena_engine::load::Options { run_script_tests: false, ..Default::default() },
    );
    let mut sources: Vec<ScriptSource> = loaded.script_set.sources().to_vec();
    lua_files(&root.join("tests/hostile"), &mut sources);
    lua_files(&root.join("tests/fixtures"), &mut sources);
    eprintln!("arena-bench compile sources={}", sources.len());
    b.bench_local(|| compile_all(sources.clone()));
}
