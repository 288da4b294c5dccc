//! The sandboxed Luau VM that runs card effects.
//!
//! Scripts are compiled to bytecode once per content load ([`compile_all`], a
//! [`ScriptSet`] shared by `Arc`), then each [`Runtime`] (one per game or per
//! worker thread) loads them into its own VM. A call hands the effect `(game,
//! ctx)`; `game` is the API of [`super::api::REGISTRY`], whose host functions are
//! answered by the [`Host`] passed to [`Runtime::call`].
//!
//! The sandbox (`docs/effects.md`):
//! - only the `string`, `table`, `math`, `utf8` libraries and the safe base
//!   functions; no `io`, `os`, `debug`, `coroutine`, `require`, `load*`,
//!   `dofile`, `getfenv`/`setfenv`, `newproxy`, `gcinfo`; `collectgarbage` only
//!   answers `"count"`; `math.random` and `print` go through the host;
//! - `Lua::sandbox(true)`: every library, the string metatable and the globals are
//!   read-only; each script has its own environment, whose writes are refused, so
//!   nothing survives from one call or card to another; file scripts are re-run
//!   on each call, so module upvalues are fresh too;
//! - bytecode is never loaded from packs (only what [`compile_all`] produced);
//! - a memory limit per VM, and an instruction budget per call counted by the
//!   interrupt; once spent (or once the call held more than the memory limit)
//!   it stays spent for the rest of the call, so `pcall` cannot outlive it.
//!   The budget counts interrupt checks (loop back-edges, calls,
//!   pattern-matching steps), what the VM allocates and the work of library
//!   functions that do much inside one C call (`sandbox.luau` charges it), not
//!   time, so the same effect fails or succeeds the same way on every machine.
//!   A wall-time limit per call is only the backstop for work no budget sees;
//! - Luau's own collector is stopped (it paces itself by the clock): the VM
//!   collects fully at points fixed by what it allocated, and checks the
//!   memory limit on live data after a collection (`limits.rs`), so garbage is
//!   not counted as live and the memory an effect has left is the same on
//!   every run;
//! - what an effect may log, per call and per game ([`Limits`]): its `print`
//!   and `game:log` lines and every event its `game:` calls record;
//! - nothing an effect sees depends on memory addresses or on when memory is
//!   collected: `tostring` prints `table` rather than `table: 0x...`, `pairs` and
//!   `next` refuse keys that are tables or functions, weak tables are refused,
//!   `collectgarbage` is absent, and error messages lose addresses.

mod errors;
mod limits;
mod sandbox;

use crate::model::Id;
use errors::*;
pub use errors::{ScriptError, ScriptErrorKind};
pub use limits::Limits;
use limits::*;
use sandbox::*;

use super::api::{self, Answer, ApiFn, ApiValue, Ty};
use super::host::Host;
use crate::content::Content;
use crate::diag::{Code, Diagnostic, Location};
use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value, VmState};
use std::cell::Cell;
use std::path::PathBuf;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Largest script source accepted (256 KiB): Luau compiles that in milliseconds.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;

/// Budget units each `game:` call costs (a call is far more work than a Lua
/// operation, and what the game records for it is host memory).
const API_CALL_UNITS: u64 = 64;

/// Where a script comes from, for compiling it and for reporting its errors.
#[derive(Debug, Clone)]
pub struct ScriptSource {
    /// Pack id.
    pub pack: String,
    /// The card it belongs to (`character:valkyrie`), or the script's own name.
    pub card: String,
    /// Which effect of the card (`actions[id=frostbite].effects[0]`), or empty.
    pub effect: String,
    /// The file holding the source: the `.lua` file, or the TOML file of an inline effect.
    pub file: PathBuf,
    /// Line of `file` on which the chunk's line 1 is (1 for `.lua` files).
    pub first_line: usize,
    /// The Luau source.
    pub source: Arc<str>,
    /// A file script returns a function or a table of functions; `Some(name)`
    /// picks `name` from the table. Inline chunks are the effect body itself.
    pub module: Option<Option<String>>,
}

/// Scripts compiled once, shared by every VM.
#[derive(Debug, Default)]
pub struct ScriptSet {
    sources: Vec<ScriptSource>,
    bytecode: Vec<Vec<u8>>,
    /// card → effect → the first script with them, for [`ScriptSet::find`]
    /// (games ask for every Action option's condition and every window's skills).
    index: rustc_hash::FxHashMap<String, rustc_hash::FxHashMap<String, usize>>,
}

/// Handle of a script in a [`ScriptSet`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScriptId(pub usize);

impl ScriptSet {
    /// The sources, by [`ScriptId`] index.
    pub fn sources(&self) -> &[ScriptSource] {
        &self.sources
    }

    /// Find a script by card and effect.
    pub fn find(&self, card: &str, effect: &str) -> Option<ScriptId> {
        self.index.get(card)?.get(effect).copied().map(ScriptId)
    }

    /// This set with the sources at `changed` (indices) taken from `sources`
    /// (as long as this set's) and compiled again; every other script keeps
    /// its bytecode. A changed source that no longer compiles is left out.
    pub fn with_sources_replaced(&self, changed: &[usize], sources: &[ScriptSource]) -> Arc<ScriptSet> {
        let fresh: Vec<ScriptSource> = changed.iter().filter_map(|&i| sources.get(i).cloned()).collect();
        let (compiled, _) = compile_all(fresh);
        let mut set = ScriptSet::default();
        for (i, (source, code)) in self.sources.iter().zip(&self.bytecode).enumerate() {
            let (source, code) = if changed.contains(&i) {
                let Some(id) = compiled.find(&source.card, &source.effect) else { continue };
                (&compiled.sources[id.0], &compiled.bytecode[id.0])
            } else {
                (source, code)
            };
            let at = set.sources.len();
            set.index.entry(source.card.clone()).or_default().entry(source.effect.clone()).or_insert(at);
            set.sources.push(source.clone());
            set.bytecode.push(code.clone());
        }
        Arc::new(set)
    }

    /// Number of scripts.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }
}

/// Compile every source. Those that do not compile are left out and reported.
pub fn compile_all(sources: Vec<ScriptSource>) -> (Arc<ScriptSet>, Vec<ScriptError>) {
    let compiler = mlua::chunk::Compiler::new().set_optimization_level(1).set_debug_level(1);
    let mut set = ScriptSet::default();
    let mut errors = Vec::new();
    for s in sources {
        if s.source.len() > MAX_SCRIPT_BYTES {
            let message = format!(
                "{} KiB, more than the {} KiB a script may have",
                s.source.len().div_ceil(1024),
                MAX_SCRIPT_BYTES / 1024
            );
            errors.push(ScriptError::new(ScriptErrorKind::TooLarge, &message, &s, None));
            continue;
        }
        if let Some(encoding) = super::compile::wide_encoding(s.source.as_bytes()) {
            let message = super::compile::wide_encoding_message(encoding);
            errors.push(ScriptError::new(ScriptErrorKind::Compile, &message, &s, None));
            continue;
        }
        if super::is_bytecode(s.source.as_bytes()) {
            errors.push(ScriptError::new(ScriptErrorKind::Compile, "precompiled bytecode is not accepted", &s, None));
            continue;
        }
        // A UTF-8 byte-order mark is not Lua: skip it (line numbers are unchanged).
        let text = s.source.strip_prefix('\u{feff}').unwrap_or(&s.source);
        // Generic `for` loops through the iteration guard (same lines).
        let text = match super::iteration::guard_iteration(text) {
            Ok(t) => t,
            Err(message) => {
                errors.push(ScriptError::new(ScriptErrorKind::Compile, &message, &s, None));
                continue;
            }
        };
        match compiler.compile(text.as_bytes()) {
            Ok(b) => {
                let i = set.sources.len();
                set.index.entry(s.card.clone()).or_default().entry(s.effect.clone()).or_insert(i);
                set.bytecode.push(b);
                set.sources.push(s);
            }
            Err(e) => {
                let ce = super::parse_error(&e.to_string());
                errors.push(ScriptError::new(ScriptErrorKind::Compile, &ce.message, &s, ce.line));
            }
        }
    }
    (Arc::new(set), errors)
}

/// The context of one effect call (see `docs/lua-api.md`, `ctx`).
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    /// The Character whose card it is.
    pub self_id: Option<Id>,
    /// The declared Target.
    pub target: Option<Id>,
    /// Successes of the Roll the effect follows.
    pub successes: Option<i64>,
    /// The player a Scenario rule runs for (1, 2, ...): the Character's
    /// player, or the player credited with a Frag.
    pub player: Option<i64>,
    /// The zone a Character entered (a Scenario rule's `zone-entered`).
    pub zone: Option<Id>,
    /// The State imposed (a Scenario rule's `state-imposed`).
    pub state: Option<Id>,
}

/// Budget message; also how a budget error is recognised.
const BUDGET: &str = "instruction budget exhausted";

/// State shared by the interrupt and the API functions of one VM.
struct Shared {
    budget: Cell<u64>,
    limits: Limits,
    /// When the call in progress started, for the wall-time backstop.
    started: Cell<Instant>,
    /// Interrupt checks so far in this call (the clock is read every 16th).
    ticks: Cell<u32>,
    /// Whether the wall-time backstop stopped the call.
    out_of_time: Cell<bool>,
    /// Memory use at which the interrupt next collects garbage.
    collect_at: Cell<usize>,
    /// Memory use at the last interrupt check (what was allocated since is charged).
    used_at_check: Cell<usize>,
    /// Whether the call in progress held more live data than the limit.
    out_of_memory: Cell<bool>,
    /// Bytes of narrative the call in progress caused, and the game's effects kept.
    logged_call: Cell<usize>,
    logged_game: Cell<usize>,
    /// The host's events counted so far in the call in progress.
    events_seen: Cell<usize>,
    /// Where the instruction budget ran out: (chunk name, line), for the error.
    stopped_at: Cell<Option<(String, usize)>>,
    /// The context of the call in progress (same lifetime rules as `host`).
    ctx: Cell<Option<NonNull<Ctx>>>,
    /// The script of the call in progress, for `ctx.card` and `ctx.effect`.
    names: Cell<Option<NonNull<ScriptSource>>>,
    args: Cell<Vec<ApiValue>>,
    host: Cell<Option<NonNull<dyn Host>>>,
    game_ptr: Cell<usize>,
    content: Arc<Content>,
}

impl Shared {
    /// The host of the call in progress.
    ///
    /// SAFETY: `host` is set only by [`Runtime::call`] for the duration of the
    /// call, from a `&mut dyn Host` that outlives it, and cleared before it
    /// returns (also on unwinding, by `HostGuard`). Calls do not nest (the
    /// runtime refuses re-entry), so this is the only live use of that borrow.
    #[allow(clippy::mut_from_ref)]
    fn host(&self) -> Option<&mut dyn Host> {
        self.host.get().map(|p| unsafe { &mut *p.as_ptr() })
    }

    /// Spend `units` of the call's budget; the budget error once it is
    /// spent, the memory error once the call has run out of memory.
    fn charge(&self, lua: &Lua, units: u64) -> mlua::Result<()> {
        if self.out_of_memory.get() {
            return Err(mlua::Error::runtime(OUT_OF_MEMORY));
        }
        let left = self.budget.get();
        if units >= left {
            self.budget.set(0);
            self.note_position(lua);
            return Err(mlua::Error::runtime(BUDGET));
        }
        self.budget.set(left - units);
        Ok(())
    }

    /// The error an interrupt raises carries no position: note the innermost
    /// frame of an effect's chunk, so the diagnostic can point at its line.
    fn note_position(&self, lua: &Lua) {
        let at = (0..32).find_map(|level| {
            lua.inspect_stack(level, |d| {
                let source = d.source().source.map(|s| s.into_owned())?;
                if !source.starts_with("=@") {
                    return None;
                }
                Some((source, d.current_line()?))
            })
            .flatten()
        });
        if at.is_some() {
            self.stopped_at.set(at);
        }
    }

    /// The interrupt: one unit of budget; the memory in use ([`Shared::check_memory`]:
    /// garbage is collected before it can count as live); every 16th check, the wall clock.
    fn interrupt(&self, lua: &Lua) -> mlua::Result<VmState> {
        let left = self.budget.get();
        if left == 0 {
            self.note_position(lua);
            return Err(mlua::Error::runtime(BUDGET));
        }
        self.budget.set(left - 1);
        let ticks = self.ticks.get().wrapping_add(1);
        self.ticks.set(ticks);
        if ticks % 16 == 0 && self.started.get().elapsed() > self.limits.wall {
            self.out_of_time.set(true);
            self.budget.set(0);
            self.note_position(lua);
            return Err(mlua::Error::runtime(BUDGET));
        }
        self.check_memory(lua)?;
        Ok(VmState::Continue)
    }
}

/// `ctx`, as the script sees it: fields read from the call in progress.
struct CtxObject(Rc<Shared>);

impl mlua::UserData for CtxObject {
    fn add_methods<M: mlua::UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(mlua::MetaMethod::Index, |lua, this, key: mlua::LuaString| {
            // SAFETY: set by `Runtime::run` from references that outlive the call
            // and cleared before it returns; only read here, during the call.
            let ctx = this.0.ctx.get().map(|p| unsafe { p.as_ref() });
            let names = this.0.names.get().map(|p| unsafe { p.as_ref() });
            let text = |s: Option<&str>| match s {
                Some(s) => lua.create_string(s).map(Value::String),
                None => Ok(Value::Nil),
            };
            match key.as_bytes().as_ref() {
                b"self" => text(ctx.and_then(|c| c.self_id.as_deref())),
                b"target" => text(ctx.and_then(|c| c.target.as_deref())),
                b"successes" => Ok(ctx.and_then(|c| c.successes).map_or(Value::Nil, Value::Integer)),
                b"player" => Ok(ctx.and_then(|c| c.player).map_or(Value::Nil, Value::Integer)),
                b"zone" => text(ctx.and_then(|c| c.zone.as_deref())),
                b"state" => text(ctx.and_then(|c| c.state.as_deref())),
                b"card" => text(names.map(|n| n.card.as_str())),
                b"effect" => text(names.map(|n| n.effect.as_str())),
                _ => Ok(Value::Nil),
            }
        });
        methods.add_meta_method(mlua::MetaMethod::NewIndex, |_, _, _: mlua::MultiValue| -> mlua::Result<()> {
            Err(lua_err("ctx is read-only"))
        });
    }
}

struct HostGuard<'a>(&'a Shared);
impl Drop for HostGuard<'_> {
    fn drop(&mut self) {
        self.0.host.set(None);
    }
}

/// A sandboxed VM with the scripts of a [`ScriptSet`] loaded. Not `Send`: make one
/// per thread.
pub struct Runtime {
    lua: Lua,
    shared: Rc<Shared>,
    game: Table,
    chunks: Vec<Function>,
    /// The one `ctx` object: a read-only userdata whose fields are read from the
    /// call in progress, so nothing is written into Lua per call.
    ctx_object: mlua::AnyUserData,
    set: Arc<ScriptSet>,
    limits: Limits,
    /// How many times each script was called, by [`ScriptId`] index.
    calls: Vec<Cell<u32>>,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime").field("scripts", &self.chunks.len()).field("limits", &self.limits).finish()
    }
}

fn lua_err(e: impl std::fmt::Display) -> mlua::Error {
    mlua::Error::runtime(e.to_string())
}

impl Runtime {
    /// A VM over `content` with the scripts of `set` loaded.
    pub fn new(content: Arc<Content>, set: Arc<ScriptSet>, limits: Limits) -> mlua::Result<Runtime> {
        Self::with_api(content, set, limits, api::REGISTRY)
    }

    /// A VM whose `game` object has the functions of `registry` (the
    /// Invictus games pass `crate::invictus::api::REGISTRY`; Aristeia's is
    /// [`api::REGISTRY`]); otherwise as [`Runtime::new`].
    pub fn with_api(
        content: Arc<Content>,
        set: Arc<ScriptSet>,
        limits: Limits,
        registry: &'static [ApiFn],
    ) -> mlua::Result<Runtime> {
        let lua = Lua::new_with(StdLib::STRING | StdLib::TABLE | StdLib::MATH | StdLib::UTF8, LuaOptions::new())?;
        // Luau's collector paces itself by the clock: stopped for good, the VM
        // collects at fixed points instead (`limits.rs`).
        lua.gc_stop();
        let shared = Rc::new(Shared {
            budget: Cell::new(limits.instructions),
            limits,
            started: Cell::new(Instant::now()),
            ticks: Cell::new(0),
            out_of_time: Cell::new(false),
            collect_at: Cell::new(limits.memory_bytes / 4),
            used_at_check: Cell::new(0),
            out_of_memory: Cell::new(false),
            logged_call: Cell::new(0),
            logged_game: Cell::new(0),
            events_seen: Cell::new(0),
            stopped_at: Cell::new(None),
            ctx: Cell::new(None),
            names: Cell::new(None),
            args: Cell::new(Vec::with_capacity(8)),
            host: Cell::new(None),
            game_ptr: Cell::new(0),
            content,
        });
        let ctx_object = lua.create_userdata(CtxObject(shared.clone()))?;
        harden(&lua, &shared, &ctx_object)?;
        let game = build_game(&lua, &shared, registry)?;
        shared.game_ptr.set(game.to_pointer() as usize);
        lua.sandbox(true)?;
        // The hard cap: what the VM may hold between two checks, garbage included.
        lua.set_memory_limit(limits.memory_bytes.saturating_mul(2))?;
        {
            let shared = shared.clone();
            lua.set_interrupt(move |lua| shared.interrupt(lua));
        }
        let calls = (0..set.bytecode.len()).map(|_| Cell::new(0)).collect();
        let mut rt = Runtime { lua, shared, game, chunks: Vec::new(), ctx_object, set: set.clone(), limits, calls };
        for (i, code) in set.bytecode.iter().enumerate() {
            let f = rt.load_bytecode(i, code)?;
            rt.chunks.push(f);
        }
        // Every VM starts from its live data alone.
        collect(&rt.lua);
        Ok(rt)
    }

    /// How many times this VM has called the script `id` ([`Runtime::call`]),
    /// every game, replay and fork it ran included (0 for an unknown id).
    pub fn calls_of(&self, id: ScriptId) -> u32 {
        self.calls.get(id.0).map_or(0, Cell::get)
    }

    /// The compiled scripts this VM runs.
    pub fn scripts(&self) -> &Arc<ScriptSet> {
        &self.set
    }

    /// A new game begins on this VM: its effects may log [`Limits::log_per_game`]
    /// bytes again. (A VM may play many games one after another: `sim::batch`.)
    pub fn begin_game(&self) {
        self.shared.logged_game.set(0);
    }

    /// Bytes of the game's log allowance its effects have used so far
    /// ([`Limits::log_per_game`]), for a checkpoint of the game.
    pub fn game_log(&self) -> usize {
        self.shared.logged_game.get()
    }

    /// A game resumes from a checkpoint on this VM: its effects have used
    /// `logged` bytes of their log allowance ([`Runtime::game_log`] then).
    pub fn resume_game(&self, logged: usize) {
        self.shared.logged_game.set(logged);
    }

    /// The limits of this VM.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn env(&self) -> mlua::Result<Table> {
        let env = self.lua.create_table()?;
        let meta = self.lua.create_table()?;
        meta.raw_set("__index", self.lua.globals())?;
        meta.raw_set(
            "__newindex",
            self.lua.create_function(|_, (_t, k): (Value, Value)| -> mlua::Result<()> {
                let name = match &k {
                    Value::String(s) => s.to_string_lossy(),
                    _ => "name".to_string(),
                };
                Err(lua_err(format!("globals are read-only in effects: write `local {name} = ...`")))
            })?,
        )?;
        meta.raw_set("__metatable", false)?;
        meta.set_readonly(true);
        env.set_metatable(Some(meta))?;
        Ok(env)
    }

    fn load_bytecode(&self, index: usize, code: &[u8]) -> mlua::Result<Function> {
        self.lua
            .load(code)
            .set_mode(ChunkMode::Binary)
            .set_name(format!("=@{index}"))
            .set_environment(self.env()?)
            .into_function()
    }

    /// Run the script `id` with `host` answering the API; `Ok` is what the effect
    /// returned. On `Err` the host was told to undo the effect (`end_effect(false)`).
    #[allow(clippy::result_large_err)] // a failed effect is the cold path: one per failure, not per call
    pub fn call(&self, id: ScriptId, host: &mut dyn Host, ctx: &Ctx) -> Result<ApiValue, ScriptError> {
        let Some(chunk) = self.chunks.get(id.0) else {
            let s = ScriptSource {
                pack: String::new(),
                card: format!("script #{}", id.0),
                effect: String::new(),
                file: PathBuf::new(),
                first_line: 1,
                source: "".into(),
                module: None,
            };
            return Err(ScriptError::new(ScriptErrorKind::Runtime, "no such script", &s, None));
        };
        if let Some(n) = self.calls.get(id.0) {
            n.set(n.get().saturating_add(1));
        }
        let source = &self.set.sources[id.0];
        self.run(chunk, source, source.module.as_ref(), host, ctx).map_err(|e| self.classify(e, Some(id.0), source))
    }

    /// Compile and run one chunk that is not part of the loaded set (`arena script FILE`).
    /// If the chunk returns a function, that function is called as an effect too.
    #[allow(clippy::result_large_err)] // a failed effect is the cold path: one per failure, not per call
    pub fn run_source(&self, source: &ScriptSource, host: &mut dyn Host, ctx: &Ctx) -> Result<ApiValue, ScriptError> {
        let (set, mut errors) = compile_all(vec![source.clone()]);
        if let Some(e) = errors.pop() {
            return Err(e);
        }
        let index = usize::MAX;
        let chunk = self
            .lua
            .load(&set.bytecode[0])
            .set_mode(ChunkMode::Binary)
            .set_name(format!("=@{index}"))
            .set_environment(self.env().map_err(|e| self.classify(e, None, source))?)
            .into_function()
            .map_err(|e| self.classify(e, None, source))?;
        self.run(&chunk, source, Some(source.module.as_ref().unwrap_or(&None)), host, ctx)
            .map_err(|e| self.classify(e, Some(index), source))
    }

    fn run(
        &self,
        chunk: &Function,
        source: &ScriptSource,
        module: Option<&Option<String>>,
        host: &mut dyn Host,
        ctx: &Ctx,
    ) -> mlua::Result<ApiValue> {
        let guard = self.lend_host(host)?;
        if let Some(h) = self.shared.host() {
            h.begin_effect();
        }
        self.shared.ctx.set(Some(NonNull::from(ctx)));
        self.shared.names.set(Some(NonNull::from(source)));
        let mut result = self.run_inner(chunk, module);
        self.shared.ctx.set(None);
        self.shared.names.set(None);
        if result.is_ok() && self.shared.out_of_memory.get() {
            // The memory ran out and the script caught the error: it still failed.
            result = Err(mlua::Error::runtime(OUT_OF_MEMORY));
        } else if result.is_ok() && self.shared.budget.get() == 0 {
            // The budget ran out and the script caught the error: it still failed.
            result = Err(mlua::Error::runtime(BUDGET));
        }
        if let Some(h) = self.shared.host() {
            h.end_effect(result.is_ok());
        }
        self.shared.end_narrative();
        drop(guard);
        if result.is_err() {
            // Reclaim what a failed effect left behind, so the next one starts clean.
            collect(&self.lua);
            collect(&self.lua);
        }
        result
    }

    fn run_inner(&self, chunk: &Function, module: Option<&Option<String>>) -> mlua::Result<ApiValue> {
        let ctx_table = &self.ctx_object;
        let value: Value = match module {
            None => chunk.call((self.game.clone(), ctx_table))?,
            Some(name) => {
                let m: Value = chunk.call((self.game.clone(), ctx_table.clone()))?;
                let f = match (&m, name) {
                    (Value::Function(f), _) => Some(f.clone()),
                    (Value::Table(t), Some(n)) => t.raw_get::<Option<Function>>(n.as_str())?,
                    (Value::Table(_), None) => None,
                    _ => None,
                };
                match (f, &m) {
                    (Some(f), _) => f.call((self.game.clone(), ctx_table))?,
                    (None, Value::Table(_)) => {
                        return Err(lua_err(format!(
                            "the script's table has no function `{}`",
                            name.clone().unwrap_or_default()
                        )));
                    }
                    (None, _) => m,
                }
            }
        };
        Ok(to_api_value(&value))
    }

    fn classify(&self, e: mlua::Error, index: Option<usize>, source: &ScriptSource) -> ScriptError {
        let spent = self.shared.budget.get() == 0;
        let full = e.to_string();
        let (mut message, memory) = flatten(&e);
        let kind = if self.shared.out_of_memory.get() || memory || message.contains(OUT_OF_MEMORY) {
            message = format!(
                "{OUT_OF_MEMORY}: an effect may hold at most {} MiB",
                self.limits.memory_bytes.div_ceil(1024 * 1024)
            );
            ScriptErrorKind::Memory
        } else if spent || message.contains(BUDGET) {
            ScriptErrorKind::Budget
        } else {
            ScriptErrorKind::Runtime
        };
        if kind == ScriptErrorKind::Budget {
            message = if self.shared.out_of_time.get() {
                format!("time limit exhausted: the call ran for more than {} ms", self.limits.wall.as_millis())
            } else {
                format!("{BUDGET} ({} units per call)", self.limits.instructions)
            };
        }
        // Find the first `@INDEX:LINE:` of this chunk, for the line.
        let mut line = None;
        if let Some(i) = index {
            // The message, or else the traceback (errors raised by library
            // functions carry no position of their own).
            let tag = format!("@{i}:");
            if let Some(pos) = message
                .find(&tag)
                .map(|p| (p, &message))
                .or_else(|| full.find(&tag).map(|p| (p, &full)))
                .map(|(p, text)| &text[p..])
            {
                let rest = &pos[tag.len()..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                line = digits.parse().ok();
            }
        }
        if line.is_none() && matches!(kind, ScriptErrorKind::Budget | ScriptErrorKind::Memory) {
            if let (Some(i), Some((chunk, at))) = (index, self.shared.stopped_at.take()) {
                if chunk == format!("=@{i}") {
                    line = Some(at);
                }
            }
        }
        ScriptError::new(kind, &without_addresses(&strip_positions(&message)), source, line)
    }

    /// Run a chunk that only describes data (a pack's script tests) and return
    /// what it returns as JSON: tables become objects or arrays, at most 16 deep
    /// and 10,000 values, without running any metamethod.
    #[allow(clippy::result_large_err)] // a failed effect is the cold path: one per failure, not per call
    pub fn evaluate(&self, source: &ScriptSource, host: &mut dyn Host) -> Result<serde_json::Value, ScriptError> {
        let (set, mut errors) = compile_all(vec![source.clone()]);
        if let Some(e) = errors.pop() {
            return Err(e);
        }
        let index = usize::MAX - 1;
        let mut run = || -> mlua::Result<serde_json::Value> {
            let chunk = self
                .lua
                .load(&set.bytecode[0])
                .set_mode(ChunkMode::Binary)
                .set_name(format!("=@{index}"))
                .set_environment(self.env()?)
                .into_function()?;
            let v: Value = self.run_value(&chunk, host)?;
            let mut budget = 10_000;
            to_json(&v, 0, &mut budget)
        };
        run().map_err(|e| self.classify(e, Some(index), source))
    }

    fn run_value(&self, chunk: &Function, host: &mut dyn Host) -> mlua::Result<Value> {
        let guard = self.lend_host(host)?;
        let result = chunk.call::<Value>((self.game.clone(),));
        drop(guard);
        result
    }

    /// Lend `host` to the VM for one call, with a fresh budget. Refuses a call
    /// inside a call (effects do not run effects).
    fn lend_host<'h>(&'h self, host: &'h mut dyn Host) -> mlua::Result<HostGuard<'h>> {
        if self.shared.host.get().is_some() {
            return Err(lua_err("an effect cannot run another effect"));
        }
        self.shared.budget.set(self.limits.instructions);
        self.shared.stopped_at.set(None);
        self.shared.started.set(Instant::now());
        self.shared.ticks.set(0);
        self.shared.out_of_time.set(false);
        self.shared.logged_call.set(0);
        // Garbage an earlier call left (past a quarter of the limit) is collected
        // first; live data over the limit is found after a full collection, so
        // what a call may hold does not depend on what ran before.
        self.shared.begin_memory(&self.lua);
        // SAFETY: see `Shared::host`; the lifetime is erased only while the
        // returned guard lives, and the guard clears the pointer when dropped.
        let ptr: NonNull<dyn Host + '_> = NonNull::from(host);
        let ptr: NonNull<dyn Host> = unsafe { std::mem::transmute(ptr) };
        self.shared.host.set(Some(ptr));
        self.shared.begin_narrative();
        Ok(HostGuard(&self.shared))
    }

    /// Bytes the VM uses now.
    pub fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }
}
