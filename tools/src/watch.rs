//! `arena watch`: hot reload for designers. The engine's `watch::Watcher` does
//! the watching, loading and swapping and reports events; this prints them, and
//! after each good reload can play a short seeded batch and compare it with the
//! previous content.

use super::{Exit, PlayerKind, Ui, default_paths, seats, summary_line};
use arena_engine::diag::{self, Diagnostic, Severity};
use arena_engine::load;
use arena_engine::sim::CharacterReport;
use arena_engine::watch::{SimStats, Snapshot, WaitReason, WatchEvent, WatchOptions, Watcher};
use std::collections::BTreeMap;
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
    /// first ready-made setup) or setup, and compare it with the previous content.
    #[arg(long, value_name = "SCENARIO")]
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
    /// Controllers of player 1 and player 2 in --sim, `greedy` or `random` (one value: both).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    players: Vec<PlayerKind>,
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
    let mut printer = Printer {
        args: &args,
        color: ui.color(),
        previous: None,
        previous_characters: BTreeMap::new(),
        previous_invictus: None,
        previous_content: None,
    };
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
    /// The last simulation played, to compare with.
    previous: Option<(u64, SimStats)>,
    /// Each Character of the content of that simulation, with its Tactics, as
    /// JSON: what tells which Characters a change touched.
    previous_characters: BTreeMap<String, String>,
    /// The last Invictus batch (`--sim invictus`), to compare with.
    previous_invictus: Option<arena_engine::sim::invictus::Report>,
    /// The content of the last simulation, to pair the next one with.
    previous_content: Option<Arc<arena_engine::content::Content>>,
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

    /// `--sim invictus`: a 4-player batch, each god's win rate beside the last batch's.
    fn simulate_invictus(
        &mut self,
        snapshot: &Arc<Snapshot>,
        seeds: std::ops::Range<u64>,
        jobs: usize,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> anyhow::Result<()> {
        use arena_engine::sim::invictus as isim;
        let setup = arena_engine::invictus::InvictusSetup::teams(4);
        let policies = seats(&self.args.players, setup.players);
        let games =
            match isim::batch(snapshot.content(), snapshot.scripts(), &setup, seeds.clone(), &policies, jobs, &|| {}) {
                Ok(g) => g,
                Err(e) => {
                    writeln!(stderr, "error: sim: {e}")?;
                    return Ok(());
                }
            };
        let r = isim::Report::of(&games);
        writeln!(
            stdout,
            "  sim invictus: {} games, seeds {}-{}; mean {:.1} turns; {} engine errors, {} effect failures",
            r.games,
            seeds.start,
            seeds.end.saturating_sub(1),
            r.mean_turns,
            r.errors,
            r.effect_failures
        )?;
        let failed = games.iter().filter(|g| g.effect_failures > 0).count();
        if let Some(line) = crate::balance::failures_warning(r.games, failed, r.errors) {
            writeln!(stdout, "  {line}")?;
        }
        for (god, line) in &r.gods {
            let was = self.previous_invictus.as_ref().and_then(|p| p.gods.get(god));
            writeln!(
                stdout,
                "  {god:<12} {:5.1}%{}",
                line.rate.rate * 100.0,
                was.map(|w| format!(" (was {:5.1}%)", w.rate.rate * 100.0)).unwrap_or_default()
            )?;
        }
        self.previous_invictus = Some(r);
        Ok(())
    }

    /// Play the --sim batch on a new snapshot and compare it with the last one.
    fn simulate(
        &mut self,
        snapshot: &Arc<Snapshot>,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let Some(scenario) = &self.args.sim else { return Ok(()) };
        let jobs = self.args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let seeds = self.args.seed..self.args.seed + self.args.games;
        if scenario == "invictus" {
            return self.simulate_invictus(snapshot, seeds, jobs, stdout, stderr);
        }
        let started = Instant::now();
        let stats = match snapshot.simulate(
            scenario,
            seeds.clone(),
            &seats(&self.args.players, self.args.players.len().max(2)),
            jobs,
            self.args.random_teams,
        ) {
            Ok(s) => s,
            Err(e) => {
                let content = &snapshot.loaded.content;
                let known =
                    content.scenarios.contains_key(scenario.as_str()) || content.setups.contains_key(scenario.as_str());
                let mut ids: Vec<String> =
                    content.setups.keys().chain(content.scenarios.keys()).map(|k| k.to_string()).collect();
                ids.push("invictus".into());
                let hint = if known { String::new() } else { crate::did_you_mean(scenario, &ids) };
                writeln!(stderr, "error: sim: {e}{hint}")?;
                return Ok(());
            }
        };
        let r = &stats.report;
        writeln!(
            stdout,
            "  sim {}: {} games, seeds {}-{}, {:.1}s{}",
            stats.setup,
            r.games,
            seeds.start,
            seeds.end.saturating_sub(1),
            started.elapsed().as_secs_f64(),
            match &self.previous {
                Some((g, _)) => format!(", compared with [{g}]"),
                None => String::new(),
            }
        )?;
        let was = self.previous.as_ref().map(|(_, s)| s);
        if let Some(line) = crate::balance::failures_warning(r.games, r.games_with_effect_failures, r.errors) {
            writeln!(stdout, "  {line}")?;
        }
        for side in 0..2 {
            writeln!(stdout, "  {}", side_line(&stats, was, side))?;
        }
        let mut extra = format!("draws {}", r.draws);
        if let Some(w) = was {
            extra.push_str(&format!(" (was {})", w.report.draws));
        }
        if r.errors + r.games_with_effect_failures > 0 {
            extra.push_str(&format!(
                "; {} games with failed effects, {} engine errors",
                r.games_with_effect_failures, r.errors
            ));
        }
        writeln!(stdout, "  {extra}")?;
        // The Characters the change touched (their card or their Tactics), each
        // with the figures of the content before it beside its own.
        let characters = character_prints(&snapshot.loaded);
        let mut touched = Vec::new();
        if let Some(w) = was {
            for (id, print) in &characters {
                if self.previous_characters.get(id) == Some(print) {
                    continue;
                }
                touched.push(id.clone());
                let line = match (r.per_character.get(id.as_str()), w.report.per_character.get(id.as_str())) {
                    (Some(now), before) => character_line(now, before),
                    (None, _) => "did not play in this batch (--random-teams draws every loaded Character)".to_string(),
                };
                let what = if self.previous_characters.contains_key(id) { "changed" } else { "new" };
                writeln!(stdout, "  {id} ({what}): {line}")?;
            }
        }
        if let (Some((generation, w)), Some(content)) = (&self.previous, &self.previous_content) {
            paired_lines(*generation, content, w, &snapshot.content(), &stats, &touched, stdout)?;
        }
        self.previous_characters = characters;
        self.previous = Some((snapshot.generation, stats));
        self.previous_content = Some(snapshot.content());
        Ok(())
    }
}

/// The paired difference of this batch against the previous content's
/// (docs/balance-runs.md, "Paired comparisons"): when both contents draw the
/// same setups for every seed, the two batches are already paired game for
/// game; per seat and per Character the change touched, the difference in
/// win rate with its interval, z and Holm-corrected p across every row.
fn paired_lines(
    generation: u64,
    was_content: &arena_engine::content::Content,
    was: &SimStats,
    content: &arena_engine::content::Content,
    now: &SimStats,
    touched: &[String],
    stdout: &mut dyn Write,
) -> anyhow::Result<()> {
    use arena_engine::sim::compare::{PairedGame, PairedTally, same_setups};
    let seats = now.report.win_rate.as_slice().len();
    let seeds = |s: &SimStats| s.games.iter().map(|g| g.seed).collect::<Vec<_>>();
    let range = now.games.first().map_or(0..0, |g| g.seed..g.seed + now.games.len() as u64);
    let paired = was.teams == now.teams
        && seeds(was) == seeds(now)
        && now.teams.as_ref().is_some_and(|t| same_setups(was_content, content, t, range, seats));
    if !paired {
        writeln!(
            stdout,
            "  not paired with [{generation}]: the change draws other teams, decks or zones, so the figures above are of two separate batches"
        )?;
        return Ok(());
    }
    let games: Vec<PairedGame> =
        was.games.iter().zip(&now.games).map(|(b, c)| PairedGame { base: b.clone(), changed: c.clone() }).collect();
    let report = PairedTally::of(&games, seats).report();
    writeln!(
        stdout,
        "  paired with [{generation}] (the same seeds and teams): change in win rate, points [95%]; p: exact McNemar, Holm across {} rows; * significant at 5%",
        report.holm_rows
    )?;
    let line = |r: &arena_engine::sim::compare::PairedRow| {
        let p = if r.p_holm < 0.001 { "<0.001".to_string() } else { format!("{:.3}", r.p_holm) };
        format!(
            "{:+.1} [{:+.1}, {:+.1}], z {:+.2}, p {p}{}, {} {} changed",
            r.difference * 100.0,
            r.low * 100.0,
            r.high * 100.0,
            r.z,
            if r.significant { " *" } else { "" },
            r.outcome_changed,
            if r.outcome_changed == 1 { "game" } else { "games" }
        )
    };
    for (i, r) in report.seats.iter().enumerate() {
        writeln!(stdout, "    player {} {}", i + 1, line(r))?;
    }
    for id in touched {
        if let Some(r) = report.characters.get(id.as_str()) {
            writeln!(stdout, "    {id} {}", line(r))?;
        }
    }
    Ok(())
}

/// `player 1 win rate 52.0% [45.1-58.8] (was 48.0% [41.2-54.9]), mean VP 3.10 [2.85-3.35] (was ...)`.
fn side_line(now: &SimStats, was: Option<&SimStats>, side: usize) -> String {
    let rate = |s: &SimStats| {
        let r = &s.report.win_rate[arena_engine::rules::seats::PlayerId::seat(side)];
        format!("{:.1}% [{:.1}-{:.1}]", r.rate * 100.0, r.low * 100.0, r.high * 100.0)
    };
    let vp = |s: &SimStats| {
        let side = arena_engine::rules::seats::PlayerId::seat(side);
        let (lo, hi) = s.victory_points_interval[side];
        format!("{:.2} [{lo:.2}-{hi:.2}]", s.report.mean_victory_points[side])
    };
    let was_rate = was.map(|w| format!(" (was {})", rate(w))).unwrap_or_default();
    let was_vp = was.map(|w| format!(" (was {})", vp(w))).unwrap_or_default();
    format!("player {} win rate {}{was_rate}, mean VP {}{was_vp}", side + 1, rate(now), vp(now))
}

/// Every Character of the content with its Tactics, as JSON, by id.
fn character_prints(loaded: &load::Loaded) -> BTreeMap<String, String> {
    let content = &loaded.content;
    content
        .characters
        .iter()
        .map(|(id, e)| {
            let mut print = serde_json::to_string(&e.value).unwrap_or_default();
            for t in content.tactics.values().filter(|t| t.value.character.as_deref() == Some(id.as_str())) {
                print.push_str(&serde_json::to_string(&t.value).unwrap_or_default());
            }
            (id.to_string(), print)
        })
        .collect()
}

/// `12 games, side wins 58.3% [32.0-80.7] (was 41.7% [...]), dealt 2.50 (was 1.75), taken ..., Infirmary ...`.
fn character_line(now: &CharacterReport, was: Option<&CharacterReport>) -> String {
    let rate = |r: &CharacterReport| {
        format!("{:.1}% [{:.1}-{:.1}]", r.win_rate.rate * 100.0, r.win_rate.low * 100.0, r.win_rate.high * 100.0)
    };
    let beside = |f: &dyn Fn(&CharacterReport) -> String| was.map(|w| format!(" (was {})", f(w))).unwrap_or_default();
    let games = |r: &CharacterReport| r.games.to_string();
    let dealt = |r: &CharacterReport| format!("{:.2}", r.mean_damage_dealt);
    let taken = |r: &CharacterReport| format!("{:.2}", r.mean_damage_taken);
    let infirmary = |r: &CharacterReport| format!("{:.2}", r.mean_infirmary);
    format!(
        "{} games{}, side wins {}{}, dealt {}{}, taken {}{}, Infirmary {}{} per game",
        games(now),
        beside(&games),
        rate(now),
        beside(&rate),
        dealt(now),
        beside(&dealt),
        taken(now),
        beside(&taken),
        infirmary(now),
        beside(&infirmary),
    )
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
