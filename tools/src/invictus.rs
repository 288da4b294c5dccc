//! `arena sim invictus`: headless
//! Invictus games (one with its narrative, or a batch with per-god and
//! per-seat win rates), and a human seat at the terminal.

use super::*;
use arena_engine::invictus::{Controller, InvictusSetup, Seating};
use arena_engine::sim::invictus as isim;
use play::{load_for_play, with_progress};

fn policy(k: PlayerKind) -> arena_engine::sim::Policy {
    match k {
        PlayerKind::Random => arena_engine::sim::Policy::Random,
        // Batches never wait on a person: a human seat plays greedy there.
        PlayerKind::Greedy | PlayerKind::Human => arena_engine::sim::Policy::Greedy,
    }
}

/// `arena sim invictus --seats N`: one game, or `--games N`.
pub(super) fn sim(args: SimArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let seating = match args.seating.unwrap_or(SeatingArg::Standard) {
        SeatingArg::Standard => Seating::Standard,
        SeatingArg::EveryOther => Seating::EveryOther,
        SeatingArg::Random => Seating::Random,
        SeatingArg::FreeForAll => Seating::FreeForAll,
    };
    let mut setup = InvictusSetup::teams(args.seats.map_or(4, usize::from));
    setup.seating = seating;
    let loaded = match load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    if loaded.content.gods.is_empty() {
        writeln!(stderr, "error: no Invictus god is loaded: add --pack content/invictus")?;
        return Ok(2);
    }
    let kinds: Vec<PlayerKind> = args.players.clone();
    let policies: Vec<arena_engine::sim::Policy> = kinds.iter().map(|k| policy(*k)).collect();
    let content = std::sync::Arc::new(loaded.content.clone());
    if let Some(games) = args.games {
        if args.replay.is_some() {
            writeln!(stderr, "error: --replay writes the file of one game; leave out --games")?;
            return Ok(2);
        }
        let Some(end) = args.seed.checked_add(games) else {
            writeln!(stderr, "error: --seed {} with --games {games} runs past the largest seed", args.seed)?;
            return Ok(2);
        };
        let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let started = std::time::Instant::now();
        let results = with_progress(games, !ui.quiet(), |tick| {
            isim::batch(content.clone(), loaded.script_set.clone(), &setup, args.seed..end, &policies, jobs, tick)
        })
        .map_err(|e| anyhow::anyhow!(e))?;
        let report = isim::Report::of(&results);
        match args.format {
            Output::Json => {
                let v = serde_json::json!({ "version": JSON_VERSION, "kind": "invictus-sim-batch", "setup": setup, "seeds": [args.seed, end - 1], "report": report, "games": results });
                writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
            }
            Output::Human => {
                writeln!(
                    stdout,
                    "{games} Invictus games, {} players, seeds {}-{}, {jobs} jobs, {:.1}s",
                    setup.players,
                    args.seed,
                    end - 1,
                    started.elapsed().as_secs_f64()
                )?;
                let failed = results.iter().filter(|g| g.effect_failures > 0).count();
                let stopped = results.iter().filter(|g| g.error.is_some()).count();
                if let Some(line) = crate::balance::failures_warning(results.len(), failed, stopped) {
                    writeln!(stdout, "{line}")?;
                }
                write!(stdout, "{report}")?;
                for g in results.iter().filter(|g| g.error.is_some() || g.last_failure.is_some()).take(5) {
                    writeln!(
                        stdout,
                        "seed {}: {}",
                        g.seed,
                        g.error.as_deref().or(g.last_failure.as_deref()).unwrap_or_default()
                    )?;
                }
            }
        }
        return Ok(if report.errors > 0 || report.effect_failures > 0 { 1 } else { 0 });
    }
    let runtime = isim::runtime(content.clone(), loaded.script_set.clone()).map_err(|e| anyhow::anyhow!(e))?;
    let controllers: Vec<Box<dyn Controller>> = (0..setup.players)
        .map(|s| match kinds[s % kinds.len()] {
            PlayerKind::Human => Box::new(super::human::HumanPlayer::default()) as Box<dyn Controller>,
            k => isim::controller(policy(k), args.seed, s),
        })
        .collect();
    let record = match isim::play_with(&content, &runtime, &setup, args.seed, controllers) {
        Ok(r) => r,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    if let Some(path) = &args.replay {
        let file = arena_engine::replay_file::ReplayFile::record_invictus(
            &content,
            &runtime,
            &setup,
            args.seed,
            &record.answers,
            &loaded,
        )
        .map_err(|e| anyhow::anyhow!("cannot record the replay: {e}"))?;
        crate::write_atomically(path, (serde_json::to_string(&file)? + "\n").as_bytes())?;
    }
    match args.format {
        Output::Json => {
            let v = serde_json::json!({ "version": JSON_VERSION, "kind": "invictus-sim-game", "setup": setup, "record": record });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        Output::Human => write!(stdout, "{}", record.narrative())?,
    }
    Ok(if record.effect_failures > 0 { 1 } else { 0 })
}

/// `arena run FILE` for an Invictus situation (`game = "invictus"`): the
/// `turns` turns from the position, answered by the option texts, checked
/// against `expect` and `absent`; exit 1 on a missing or wrong answer, a
/// failed effect, or an unmet `expect` / a met `absent`.
pub(super) fn run_situation(
    text: &str,
    args: &RunArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let file = &args.file;
    let sit = match arena_engine::invictus::situation::Situation::from_toml(text) {
        Ok(s) => s,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", file.display())?;
            return Ok(1);
        }
    };
    // `--pack` first; else the situation's own `packs`, relative to its file.
    let packs: Vec<PathBuf> = if args.packs.is_empty() && !sit.packs.is_empty() {
        let dir = file.parent().unwrap_or(std::path::Path::new("."));
        sit.packs.iter().map(|p| dir.join(p)).collect()
    } else {
        args.packs.clone()
    };
    let loaded = match load_for_play(&packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let content = std::sync::Arc::new(loaded.content.clone());
    let runtime = isim::runtime(content.clone(), loaded.script_set.clone()).map_err(|e| anyhow::anyhow!(e))?;
    let played = match sit.play(&content, Some(&runtime)) {
        Ok(p) => p,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", file.display())?;
            return Ok(1);
        }
    };
    match args.format {
        Output::Json if args.state => writeln!(
            stdout,
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "events": played.events, "state": played.state }))?
        )?,
        Output::Json => writeln!(stdout, "{}", serde_json::to_string_pretty(&played.events)?)?,
        Output::Human => {
            for e in &played.events {
                writeln!(stdout, "{e}")?;
            }
            if args.state {
                writeln!(stdout, "\nstate:")?;
                for line in played.state.summary() {
                    writeln!(stdout, "{line}")?;
                }
            }
        }
    }
    for e in &played.problems {
        writeln!(stderr, "error: {}: {e}", file.display())?;
    }
    if !ui.quiet() && played.problems.is_empty() && played.expected > 0 {
        writeln!(stderr, "all {} expected events happened", played.expected)?;
    }
    Ok(if played.problems.is_empty() { 0 } else { 1 })
}
