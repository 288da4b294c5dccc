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
    /// Games in each --sim batch (the same seeds every time).
    #[arg(long, default_value_t = 100, value_name = "N")]
    games: u64,
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

/// Watch until the event channel closes (or, with --once, until one change is handled).
pub fn run(args: WatchArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
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
    /// The last batch played (its content, games and tally), to compare with.
    previous: Option<arena_engine::sim::WatchBatch>,
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
                if simulate {
                    self.simulate(snapshot, stdout, stderr)?;
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
    ) -> anyhow::Result<()> {
        use arena_engine::sim::{self, Request};
        let Some(name) = &self.args.sim else { return Ok(()) };
        let jobs = self.args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let Some(end) = self.args.seed.checked_add(self.args.games) else {
            writeln!(
                stderr,
                "error: sim: --seed {} with --games {} {}",
                self.args.seed,
                self.args.games,
                crate::PAST_THE_LAST_SEED
            )?;
            return Ok(());
        };
        let seeds = self.args.seed..end;
        let content = snapshot.content();
        let Some(rules) = sim::game_of_setup(&content, name) else {
            let hint = crate::did_you_mean(name, &sim::setup_names(&content));
            writeln!(
                stderr,
                "error: sim: no setup, and no Scenario with a ready-made setup, is called `{name}`{hint}"
            )?;
            return Ok(());
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
                return Ok(());
            }
        };
        let players: Vec<sim::Policy> = sim::cycle(&self.args.players, spec.seats());
        let started = Instant::now();
        let games = match sim::run(&*spec, content.clone(), snapshot.scripts(), seeds.clone(), &players, jobs, &|| {}) {
            Ok(g) => g,
            Err(e) => {
                writeln!(stderr, "error: sim: {e}")?;
                return Ok(());
            }
        };
        let now = sim::WatchBatch {
            generation: snapshot.generation,
            content,
            seconds: started.elapsed().as_secs_f64(),
            tally: rules.tally(&games),
            spec,
            seeds,
            games,
        };
        // The last batch is compared with when it was of the same game.
        let before = self.previous.as_ref().filter(|b| b.spec.rules().name() == rules.name());
        let text = rules.watch_text(&now, before);
        write!(stdout, "{}", text.out)?;
        write!(stderr, "{}", text.err)?;
        self.previous = Some(now);
        Ok(())
    }
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
