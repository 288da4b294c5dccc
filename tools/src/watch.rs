//! `arena watch`: hot reload for designers. The engine's `watch::Watcher` does
//! the watching, loading and swapping and reports events; this prints them, and
//! after each good reload can play a short seeded batch and compare it with the
//! previous content.

use super::{Exit, Ui, default_paths, summary_line};
use arena_engine::diag::{self, Diagnostic, Severity};
use arena_engine::load;
use arena_engine::watch::{Snapshot, WaitReason, WatchEvent, WatchOptions, Watcher};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    /// Pack folders, or folders of packs. Default: the bundled content/ and mods/.
    paths: Vec<PathBuf>,
    /// The same as a PATH: `--pack` spells packs the same way for every command.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// After each good reload, play a short seeded batch of this Scenario (its
    /// first ready-made setup), setup or game (`invictus`: 4 players), as
    /// `arena sim` reads the name, and compare it with the previous content.
    #[arg(long, value_name = "SCENARIO", add = crate::complete::games())]
    sim: Option<String>,
    /// With --sim: random teams of every loaded Character, drawn per seed, so
    /// a new or changed Character plays (the ready-made setups have fixed teams).
    #[arg(long)]
    random_teams: bool,
    /// Games in each --sim batch, with the same seeds every time: a number,
    /// or `auto`: chunks of 200 until the widest 95% interval read is within
    /// ±--precision points (the paired differences against the previous
    /// content when the two batches pair, else every seat's win rate), at
    /// most --max-games
    #[arg(long, default_value = "auto", value_name = "N|auto", value_parser = crate::sim_args::parse_games)]
    games: crate::sim_args::Games,
    /// With --games auto: the half-width of the 95% interval to reach, in
    /// percentage points [default: 5]
    #[arg(long, value_name = "POINTS", value_parser = crate::sim_args::parse_precision)]
    precision: Option<f64>,
    /// With --games auto: the most games a batch plays [default: 1000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_games: Option<u64>,
    /// First seed of each --sim batch.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Controllers in --sim, `greedy`, `random`, `mcts` or `mcts:N`: one per
    /// seat, or one for every seat (Invictus cycles them around the table,
    /// as `arena sim` does).
    #[arg(long, value_delimiter = ',', default_value = "greedy", value_parser = super::parse_engine_player)]
    players: Vec<arena_engine::sim::Policy>,
    /// Worker threads for --sim (at least 1; default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    jobs: Option<usize>,
    /// Quiet time after a change before reloading, in milliseconds.
    #[arg(long, default_value_t = 100, value_name = "MS")]
    debounce: u64,
    /// Also list provisional content and effects without Lua.
    #[arg(long)]
    strict: bool,
    /// Largest file read, in bytes.
    #[arg(long, default_value_t = load::Options::default().max_file_size, value_name = "BYTES")]
    max_file_size: u64,
    /// Stop after the first change has been handled: exit 0 if it went live, 1
    /// if it was rejected (for scripts and tests; otherwise run until Ctrl-C).
    #[arg(long)]
    once: bool,
}

/// `--precision`'s default for `watch --sim`: a save-and-look loop wants an
/// answer in tens of seconds (docs/balance-runs.md § In `arena watch --sim`).
const WATCH_PRECISION: f64 = 5.0;

/// `--max-games`'s default for `watch --sim`.
const WATCH_MAX_GAMES: u64 = 1000;

impl WatchArgs {
    /// The most games a batch plays: N, or `--max-games` with `auto`.
    fn most_games(&self) -> u64 {
        match self.games {
            crate::sim_args::Games::Count(n) => n,
            crate::sim_args::Games::Auto => self.max_games.unwrap_or(WATCH_MAX_GAMES),
        }
    }

    /// A usage error of the --sim options, before anything is watched.
    fn sim_usage_error(&self) -> Option<String> {
        self.sim.as_ref()?;
        if matches!(self.games, crate::sim_args::Games::Count(_))
            && (self.precision.is_some() || self.max_games.is_some())
        {
            return Some(
                "--precision and --max-games go with --games auto (the default); leave them out with --games N".into(),
            );
        }
        let most = self.most_games();
        if self.seed.checked_add(most).is_none() {
            return Some(format!(
                "--seed {} with {} runs past the last seed a batch can play ({}): give a lower --seed",
                self.seed,
                if matches!(self.games, crate::sim_args::Games::Auto) {
                    format!("--max-games {most}")
                } else {
                    format!("--games {most}")
                },
                u64::MAX - 1
            ));
        }
        None
    }
}

/// Watch until the event channel closes (or, with --once, until one change is handled).
pub fn run(args: WatchArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    if let Some(e) = args.sim_usage_error() {
        writeln!(stderr, "error: {e}")?;
        return Ok(2);
    }
    let selection = crate::packs::select(&[args.paths.clone(), args.pack.clone()].concat(), default_paths);
    crate::note_borrowed(&selection, ui, stderr)?;
    let paths = selection.paths;
    if paths.is_empty() {
        writeln!(stderr, "error: no packs to watch: give a pack folder or a folder of packs")?;
        return Ok(2);
    }
    let options = WatchOptions {
        load: load::Options { max_file_size: args.max_file_size, ..load::Options::default() },
        debounce: Duration::from_millis(args.debounce.max(1)),
        ..WatchOptions::default()
    };
    let watcher = Watcher::start(paths.clone(), options).map_err(|e| anyhow::anyhow!(e))?;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    writeln!(
        stdout,
        "watching {} (debounce {} ms){}",
        shown.join(", "),
        args.debounce,
        if args.once { "; stopping after one change" } else { "; Ctrl-C to stop" }
    )?;
    stdout.flush()?;
    let mut printer = Printer { args: &args, color: ui.color(), previous: None };
    let mut loaded_once = false;
    loop {
        // Everything already waiting is handled as one group: a simulation is
        // only played for the last good reload of the group.
        let Ok(first) = watcher.events().recv() else { return Ok(2) };
        let mut group = vec![first];
        group.extend(watcher.events().try_iter());
        let last_good = group.iter().rposition(|e| matches!(e, WatchEvent::Reloaded { .. }));
        let mut done = None;
        for (i, event) in group.into_iter().enumerate() {
            // The first load, then (with --once) the first change handled.
            let handled = printer.event(&event, last_good == Some(i), stdout, stderr)?;
            if handled.is_some() && !std::mem::replace(&mut loaded_once, true) {
                continue;
            }
            if args.once && done.is_none() {
                done = handled;
            }
        }
        stdout.flush()?;
        if let Some(code) = done {
            return Ok(code);
        }
    }
}

struct Printer<'a> {
    args: &'a WatchArgs,
    color: bool,
    /// The last batch played (its content, games and tally), to compare
    /// with, and its scripts (to play it on more seeds).
    previous: Option<(arena_engine::sim::WatchBatch, Arc<arena_engine::script::runtime::ScriptSet>)>,
}

impl Printer<'_> {
    /// Print one event; for a reload or a rejection, the exit code `--once` would give.
    fn event(
        &mut self,
        event: &WatchEvent,
        simulate: bool,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> anyhow::Result<Option<Exit>> {
        match event {
            WatchEvent::Reloaded { generation, snapshot, changed, timing, .. } => {
                self.render(&snapshot.loaded.diagnostics, &snapshot.loaded.sources, stderr)?;
                let line = summary_line(&snapshot.loaded, self.args.strict);
                if changed.is_empty() {
                    writeln!(stdout, "[{generation}] live: {line}")?;
                } else {
                    writeln!(
                        stdout,
                        "[{generation}] reloaded in {} after {}: {line}",
                        ms(timing.seen_to_live),
                        list(changed)
                    )?;
                }
                // A batch that cannot be played as asked (a setup these
                // packs lack, a table size the Scenario refuses) is exit 2.
                if simulate && !self.simulate(snapshot, stdout, stderr)? {
                    return Ok(Some(2));
                }
                Ok(Some(0))
            }
            WatchEvent::Rejected { diagnostics, sources, summary, live, changed, timing } => {
                self.render(diagnostics, sources, stderr)?;
                let plural = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
                let kept = match live {
                    Some(g) => format!("[{g}] stays live"),
                    None => "nothing is live yet".to_string(),
                };
                let after = if changed.is_empty() { String::new() } else { format!(" after {}", list(changed)) };
                writeln!(
                    stdout,
                    "rejected{after} ({}): {}, {}; {kept}",
                    ms(timing.seen_to_live),
                    plural(summary.errors, "error"),
                    plural(summary.warnings, "warning"),
                )?;
                Ok(Some(1))
            }
            WatchEvent::Unchanged { .. } => Ok(None),
            WatchEvent::Waiting { paths, reason: WaitReason::OpenForWriting } => {
                writeln!(stdout, "waiting: {} still open for writing", list(paths))?;
                Ok(None)
            }
            // A load retried because a file was still being written: the
            // reload follows.
            WatchEvent::Waiting { reason: WaitReason::Settling, .. } => Ok(None),
            WatchEvent::WatchError { message } => {
                writeln!(stderr, "watch error: {message}")?;
                Ok(None)
            }
        }
    }

    fn render(
        &self,
        diagnostics: &[Diagnostic],
        sources: &diag::SourceMap,
        stderr: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let shown: Vec<Diagnostic> =
            diagnostics.iter().filter(|d| self.args.strict || d.severity != Severity::Note).cloned().collect();
        if !shown.is_empty() {
            write!(stderr, "{}", diag::render_human(&shown, sources, self.color))?;
            stderr.flush()?;
        }
        Ok(())
    }

    /// Play the --sim batch on a new snapshot and compare it with the last
    /// one: the game and what it plays come from the registry
    /// (`sim::game_of_setup`, `Rules::resolve`, as `arena sim` reads them),
    /// the batch from the one runner, the lines from the game
    /// (`Rules::watch_text`).
    fn simulate(
        &mut self,
        snapshot: &Arc<Snapshot>,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> anyhow::Result<bool> {
        use crate::sim_args::Games;
        use arena_engine::sim::{self, Request};
        let Some(name) = &self.args.sim else { return Ok(true) };
        let jobs = self.args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let auto = matches!(self.args.games, Games::Auto);
        let most = self.args.most_games();
        let precision = self.args.precision.unwrap_or(WATCH_PRECISION);
        // Checked before watching (`WatchArgs::sim_usage_error`).
        let end = self.args.seed.saturating_add(most);
        let content = snapshot.content();
        let Some(rules) = sim::game_of_setup(&content, name) else {
            let hint = crate::did_you_mean(name, &sim::setup_names(&content));
            writeln!(
                stderr,
                "error: sim: no setup, and no Scenario with a ready-made setup, is called `{name}`{hint}"
            )?;
            return Ok(false);
        };
        let request = Request {
            name: name.clone(),
            players: self.args.players.len(),
            random_teams: self.args.random_teams,
            ..Request::default()
        };
        let spec = match rules.resolve(&content, &request) {
            Ok(spec) => spec,
            Err(e) => {
                writeln!(stderr, "error: sim: {e}")?;
                return Ok(false);
            }
        };
        let players: Vec<sim::Policy> = sim::cycle(&self.args.players, spec.seats());
        // The last batch is compared with when it was of the same game.
        let mut before = self.previous.take().filter(|(b, _)| b.spec.rules().name() == rules.name());
        let started = Instant::now();
        let chunk = if auto { crate::balance::AUTO_CHUNK } else { most };
        let seat = crate::balance::Auto { precision, figure: crate::balance::Figure::Seat, max_games: most };
        let mut now = sim::WatchBatch {
            generation: snapshot.generation,
            tally: rules.tally(&[]),
            content: content.clone(),
            spec,
            seeds: self.args.seed..self.args.seed,
            games: Vec::new(),
            seconds: 0.0,
        };
        let reached = loop {
            let from = now.seeds.end;
            let to = from.saturating_add(chunk).min(end);
            let played = sim::run(&*now.spec, content.clone(), snapshot.scripts(), from..to, &players, jobs, &|| {});
            match played {
                Ok(g) => now.games.extend(g),
                Err(e) => {
                    writeln!(stderr, "error: sim: {e}")?;
                    // The last good batch stays the one to compare with.
                    self.previous = before;
                    return Ok(false);
                }
            }
            now.seeds = now.seeds.start..to;
            now.tally = rules.tally(&now.games);
            if let Some((b, scripts)) = &mut before {
                // The previous content on the same seeds, so the two pair.
                if b.seeds.start == now.seeds.start && b.seeds.end < to {
                    let more =
                        sim::run(&*b.spec, b.content.clone(), scripts.clone(), b.seeds.end..to, &players, jobs, &|| {});
                    if let Ok(g) = more {
                        b.games.extend(g);
                        b.seeds = b.seeds.start..to;
                        b.tally = rules.tally(&b.games);
                    }
                }
            }
            if !auto {
                break None;
            }
            let half = before
                .as_mut()
                .and_then(|(b, _)| with_seeds(b, &now.seeds, |b| rules.watch_paired_half_width(&now, b)).flatten())
                .or_else(|| seat.half_width(&now.tally.report_json()));
            if half.is_some_and(|h| h <= precision) || to >= end {
                break half;
            }
        };
        now.seconds = started.elapsed().as_secs_f64();
        let text = match &mut before {
            Some((b, _)) => with_seeds(b, &now.seeds, |b| rules.watch_text(&now, Some(b))).unwrap_or_default(),
            None => rules.watch_text(&now, None),
        };
        write!(stdout, "{}", text.out)?;
        if auto {
            let of = if before.is_some() { "the widest difference read" } else { "every seat's win rate" };
            match reached {
                Some(h) if h <= precision => writeln!(
                    stdout,
                    "  --games auto: {} until the 95% interval of {of} was within ±{h:.1} points (asked ±{:.1})",
                    now.games.len(),
                    precision
                )?,
                Some(h) => writeln!(
                    stdout,
                    "  --games auto: stopped at --max-games {most}: the 95% interval of {of} is ±{h:.1} points (asked ±{:.1})",
                    precision
                )?,
                None => writeln!(stdout, "  --games auto: stopped at --max-games {most}: no interval to read")?,
            }
        }
        write!(stderr, "{}", text.err)?;
        self.previous = Some((now, snapshot.scripts()));
        Ok(true)
    }
}

/// `f` of the batch `b` cut to `seeds` (its games and tally for those seeds
/// only: a previous batch that played more), the batch whole again after;
/// `None` when `b` does not hold every seed of `seeds`.
fn with_seeds<T>(
    b: &mut arena_engine::sim::WatchBatch,
    seeds: &std::ops::Range<u64>,
    f: impl FnOnce(&arena_engine::sim::WatchBatch) -> T,
) -> Option<T> {
    if b.seeds.start != seeds.start || b.seeds.end < seeds.end {
        return None;
    }
    let keep = usize::try_from(seeds.end - seeds.start).ok()?;
    if keep >= b.games.len() {
        return Some(f(b));
    }
    let rules = b.spec.rules();
    let extra = b.games.split_off(keep);
    let (whole_tally, whole_seeds) = (std::mem::replace(&mut b.tally, rules.tally(&b.games)), b.seeds.clone());
    b.seeds = seeds.clone();
    let out = f(b);
    b.games.extend(extra);
    b.tally = whole_tally;
    b.seeds = whole_seeds;
    Some(out)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Up to three paths, then a count.
fn list(paths: &[PathBuf]) -> String {
    let mut shown: Vec<String> = paths.iter().take(3).map(|p| p.display().to_string()).collect();
    if paths.len() > 3 {
        shown.push(format!("{} more", paths.len() - 3));
    }
    shown.join(", ")
}
