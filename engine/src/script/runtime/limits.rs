//! What a VM and its calls may use, and how it is counted: [`Limits`];
//! memory (Luau's own collector is stopped: the VM collects at points fixed
//! by what was allocated, never by the clock, so the memory an effect has
//! left is the same on every run); the narrative an effect causes, counted
//! against the log caps event by event.

use super::*;

/// Resource limits of a VM.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of live data the VM may hold (default 64 MiB), measured after a
    /// full collection, so garbage never counts as live. The VM collects at
    /// points fixed by what it allocated (a quarter of this, then as it
    /// grows, and whenever it holds more than this), never by time. Between
    /// two interrupt checks (loop back-edges and calls) it may hold up to
    /// twice this, garbage included; an allocation past that is refused at
    /// once. Once an effect has held more, its call fails for memory even if
    /// it caught the error (`pcall`), as with the budget.
    pub memory_bytes: usize,
    /// Budget units one effect call may use (default 1,000,000: a few million
    /// simple Lua operations). An interrupt check (loop back-edge, call,
    /// pattern-matching step) is one unit; library functions charge for their
    /// work (`sandbox.luau`: 256 bytes of string work or 16 array elements moved
    /// per unit), and every KiB the VM allocates costs one unit more (so
    /// `..` of huge strings is counted too).
    pub instructions: u64,
    /// Wall time one effect call may take (default 1 s): a backstop for work
    /// no budget sees.
    pub wall: Duration,
    /// Bytes of narrative one effect call may cause (default 16 KiB): its
    /// `print` and `game:log` lines and every event its `game:` calls record
    /// (a Counter changed, a State imposed, the Scoring Zones set, a card
    /// drawn ...), each counting its text and 64 bytes more.
    pub log_per_call: usize,
    /// Bytes of narrative all effects of one game may cause (default 256 KiB;
    /// see [`Runtime::begin_game`]): what stays in the game (an effect that
    /// failed and was undone leaves nothing, and counts only towards its
    /// call's cap).
    pub log_per_game: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_bytes: 64 * 1024 * 1024,
            instructions: 1_000_000,
            wall: Duration::from_secs(1),
            log_per_call: 16 * 1024,
            log_per_game: 256 * 1024,
        }
    }
}

/// What each event or logged message counts beyond its text, so that a flood
/// of empty messages is bounded too.
pub(super) const LOG_MESSAGE_COST: usize = 64;

/// Bytes allocated per budget unit.
const ALLOCATED_BYTES_PER_UNIT: usize = 1024;

/// The error of an effect that ran out of memory; also how one is recognised.
pub(super) const OUT_OF_MEMORY: &str = "not enough memory";

/// A full collection. Luau's own collector stays stopped (a full collection
/// restarts it): its pacing reads the clock, so what it leaves uncollected
/// would differ from run to run.
pub(super) fn collect(lua: &Lua) {
    let _ = lua.gc_collect();
    lua.gc_stop();
}

/// Memory use at which to collect next, `used` bytes being live now: a
/// quarter of the limit; then when the VM has grown again by a quarter of what
/// is left (at least a sixteenth of the limit, so that live data near the
/// limit does not collect at every check); and always past the limit.
pub(super) fn next_collection(used: usize, limit: usize) -> usize {
    (limit / 4).max(used + (limit.saturating_sub(used) / 4).max(limit / 16)).min(limit)
}

impl Shared {
    /// The memory part of an interrupt: allocation since the last check is
    /// charged to the budget; a full collection when the VM passes its next
    /// collection point; the memory error when live data is over the limit
    /// (and at every check after, for the rest of the call).
    pub(super) fn check_memory(&self, lua: &Lua) -> mlua::Result<()> {
        if self.out_of_memory.get() {
            return Err(mlua::Error::runtime(OUT_OF_MEMORY));
        }
        let used = lua.used_memory();
        let grown = used.saturating_sub(self.used_at_check.get());
        if grown >= ALLOCATED_BYTES_PER_UNIT {
            self.charge(lua, (grown / ALLOCATED_BYTES_PER_UNIT) as u64)?;
        }
        let used = if used >= self.collect_at.get() {
            collect(lua);
            let live = lua.used_memory();
            if live > self.limits.memory_bytes {
                self.out_of_memory.set(true);
                self.note_position(lua);
                return Err(mlua::Error::runtime(OUT_OF_MEMORY));
            }
            self.collect_at.set(next_collection(live, self.limits.memory_bytes));
            live
        } else {
            used
        };
        self.used_at_check.set(used);
        Ok(())
    }

    /// A call begins: the memory counts start from what the VM holds now,
    /// garbage an earlier call left past a quarter of the limit collected first.
    pub(super) fn begin_memory(&self, lua: &Lua) {
        self.out_of_memory.set(false);
        if lua.used_memory() > self.limits.memory_bytes / 4 {
            collect(lua);
        }
        let used = lua.used_memory();
        self.used_at_check.set(used);
        self.collect_at.set(next_collection(used, self.limits.memory_bytes));
    }

    /// Count `bytes` of narrative against the call's and the game's allowance.
    fn count_log(&self, bytes: usize) -> mlua::Result<()> {
        let call = self.logged_call.get() + bytes;
        if call > self.limits.log_per_call {
            return Err(lua_err(format!(
                "log limit reached: an effect may log at most {} KiB per call (print, game:log and the events of its game: calls)",
                self.limits.log_per_call / 1024
            )));
        }
        if self.logged_game.get() + call > self.limits.log_per_game {
            return Err(lua_err(format!(
                "log limit reached: effects may log at most {} KiB per game (print, game:log and the events of their game: calls)",
                self.limits.log_per_game / 1024
            )));
        }
        self.logged_call.set(call);
        Ok(())
    }

    /// Bytes of narrative that still fit in the call's and the game's
    /// allowance (what `print` builds is bounded by it).
    pub(super) fn log_room(&self) -> usize {
        let call = self.limits.log_per_call.saturating_sub(self.logged_call.get());
        let game =
            self.limits.log_per_game.saturating_sub(self.logged_game.get()).saturating_sub(self.logged_call.get());
        call.min(game)
    }

    /// After a host call: the events it recorded count against the log caps
    /// (their text and [`LOG_MESSAGE_COST`] each). Over a cap, the call fails
    /// (and its effect is undone with them).
    pub(super) fn count_events(&self) -> mlua::Result<()> {
        let Some(host) = self.host() else { return Ok(()) };
        let now = host.events_recorded();
        let seen = self.events_seen.get();
        self.events_seen.set(now);
        if now <= seen {
            return Ok(());
        }
        let bytes = host.narrative_bytes(seen) + LOG_MESSAGE_COST * (now - seen);
        self.count_log(bytes)
    }

    /// A call begins: its narrative counts from the events recorded now.
    pub(super) fn begin_narrative(&self) {
        self.logged_call.set(0);
        let now = self.host().map_or(0, |h| h.events_recorded());
        self.events_seen.set(now);
    }

    /// A call ended (after the host kept or undid its effect): what it
    /// recorded and the host kept counts towards the game.
    pub(super) fn end_narrative(&self) {
        let kept = self.host().map_or(0, |h| h.events_recorded());
        if kept >= self.events_seen.get() {
            self.logged_game.set(self.logged_game.get() + self.logged_call.get());
        }
        self.logged_call.set(0);
    }
}
