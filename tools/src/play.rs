//! Playing games: `arena sim` (one game, a batch with progress and per-Character rows), `arena replay`, `arena run` (situations), `arena script` (an effect alone), and the human seat at the terminal.

use super::*;

pub(super) fn script(
    args: ScriptArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    use arena_engine::script::api;
    use arena_engine::script::host::RecordingHost;
    use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptSource};
    // `-`: the script is standard input, named `<stdin>` in what is printed.
    let shown = std::path::PathBuf::from(crate::stdio::name(&args.file));
    let text = match ui.stdin.read_limited(&args.file, arena_engine::read::MAX_TOOL_FILE) {
        Ok(b) if arena_engine::script::compile::wide_encoding(&b).is_some() => {
            let encoding = arena_engine::script::compile::wide_encoding(&b).unwrap_or_default();
            let d = Diagnostic::error(Code::NotUtf8, arena_engine::script::compile::wide_encoding_message(encoding))
                .at(diag::Location { file: shown.clone(), span: None, line: 1, column: 1 })
                .help("save the file as UTF-8 (Lua source is read as UTF-8 only)");
            write!(stderr, "{}", diag::render_human(&[d], &diag::SourceMap::default(), false))?;
            return Ok(1);
        }
        Ok(b) if arena_engine::script::is_bytecode(&b) => {
            let d = Diagnostic::error(Code::ScriptBytecode, "script is precompiled bytecode")
                .at(diag::Location { file: shown.clone(), span: None, line: 1, column: 1 })
                .help("only Lua source is accepted");
            write!(stderr, "{}", diag::render_human(&[d], &diag::SourceMap::default(), false))?;
            return Ok(1);
        }
        Ok(b) => String::from_utf8(b).map_err(|_| anyhow::anyhow!("{} is not UTF-8", shown.display()))?,
        Err(e) => anyhow::bail!(e),
    };
    let selection = packs::select(&args.packs, content_paths);
    note_borrowed(&selection, ui, stderr)?;
    let options = load::Options { run_script_tests: false, ..load::Options::default() };
    let loaded = load::load(&selection.paths, &options);
    let unreadable: Vec<Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| matches!(d.code, Code::Io | Code::NotAPack) && d.is_error())
        .cloned()
        .collect();
    if !unreadable.is_empty() {
        write!(stderr, "{}", diag::render_human(&unreadable, &loaded.sources, ui.color()))?;
        return Ok(2);
    }
    let mut host = RecordingHost::new(args.seed);
    for a in &args.answers {
        let (name, value) = a.split_once('=').ok_or_else(|| anyhow::anyhow!("--answer takes NAME=VALUE, got `{a}`"))?;
        let f =
            api::find(name).ok_or_else(|| anyhow::anyhow!("`{name}` is not an API function (see docs/lua-api.md)"))?;
        let Ok(json) = serde_json::from_str::<serde_json::Value>(value) else {
            writeln!(
                stderr,
                "error: --answer {name}={value}: the value is not JSON (strings need quotes: {name}='\"{value}\"')"
            )?;
            return Ok(2);
        };
        let v = match api::value_from_json(&json, f.returns) {
            Ok(v) => v,
            Err(e) => {
                writeln!(stderr, "error: --answer {name}={value}: `{name}` returns {}: {e}", f.returns.lua_name())?;
                return Ok(2);
            }
        };
        host.answer(name, v);
    }
    let characters: Vec<String> = loaded.content.characters.keys().map(|k| k.to_string()).collect();
    let rt = Runtime::new(std::sync::Arc::new(loaded.content), loaded.script_set, Limits::default())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let source = ScriptSource {
        pack: String::new(),
        card: shown.display().to_string(),
        effect: String::new(),
        file: shown.clone(),
        first_line: 1,
        source: text.as_str().into(),
        module: args.function.clone().map(Some),
    };
    // A Character id near a loaded one is likely a typo: say so (the
    // recording host answers for any id, so the script still runs).
    for (flag, id) in [("--self", &args.self_id), ("--target", &args.target)] {
        if let Some(id) = id.as_deref().filter(|id| !characters.iter().any(|c| c == id)) {
            let hint = super::did_you_mean(id, &characters);
            if !hint.is_empty() {
                writeln!(stderr, "warning: {flag} `{id}` is not a loaded Character{hint}")?;
            }
        }
    }
    let ctx = Ctx {
        self_id: args.self_id.as_deref().map(arena_engine::model::Id::from),
        target: args.target.as_deref().map(arena_engine::model::Id::from),
        successes: args.successes,
        ..Ctx::default()
    };
    let result = rt.run_source(&source, &mut host, &ctx);
    let calls = if result.is_ok() { &host.calls } else { &host.rolled_back };
    match args.format {
        Output::Json => {
            let value = serde_json::json!({
                "version": JSON_VERSION,
                "kind": "script",
                "ok": result.is_ok(),
                "result": result.as_ref().ok(),
                "calls": calls.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "diagnostics": result.as_ref().err().map(|e| vec![e.to_diagnostic()]).unwrap_or_default(),
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&value)?)?;
        }
        _ => {
            let heading = if result.is_ok() { "calls:" } else { "calls (rolled back):" };
            writeln!(stdout, "{heading}")?;
            if calls.is_empty() {
                writeln!(stdout, "  (none)")?;
            }
            for (i, c) in calls.iter().enumerate() {
                writeln!(stdout, "  {}. {c}", i + 1)?;
            }
            match &result {
                Ok(v) => writeln!(stdout, "result: {v}")?,
                Err(e) => {
                    let mut sources = diag::SourceMap::default();
                    sources.insert(shown.clone(), text.as_str().into());
                    let mut d = e.to_diagnostic();
                    if let Some(line) = e.line {
                        d.location = Some(diag::line_location(&shown, &text, line));
                    }
                    write!(stderr, "{}", diag::render_human(&[d], &sources, ui.color()))?;
                }
            }
        }
    }
    Ok(if result.is_ok() { 0 } else { 1 })
}

/// Load packs for playing: errors are printed and the load refused.
/// The packs loaded, or the exit code for their errors (2 when a folder
/// cannot be read, as `arena check` gives; 1 for content errors).
pub(super) fn load_for_play(
    packs: &[PathBuf],
    ui: &Ui,
    stderr: &mut dyn Write,
) -> anyhow::Result<std::result::Result<Loaded, Exit>> {
    let selection = packs::select(packs, content_paths);
    note_borrowed(&selection, ui, stderr)?;
    let options = load::Options { run_script_tests: false, ..load::Options::default() };
    let loaded = load::load(&selection.paths, &options);
    if loaded.has_errors() {
        let errors: Vec<Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        write!(stderr, "{}", diag::render_human(&errors, &loaded.sources, ui.color()))?;
        let code = exit_code(&loaded);
        if code != 2 {
            writeln!(stderr, "the packs have errors: run `arena check` first")?;
        }
        return Ok(Err(code));
    }
    ui.loaded(&loaded, stderr)?;
    Ok(Ok(loaded))
}
/// The packs under test of a load: the loaded packs that are not bundled
/// base games (their Characters' rows come first in a batch's readout).
pub(super) fn under_test(loaded: &Loaded) -> Vec<String> {
    let bundled: std::collections::BTreeSet<PathBuf> =
        load::discover(&content_paths()).0.iter().filter_map(|r| r.canonicalize().ok()).collect();
    loaded
        .packs
        .iter()
        .filter(|p| p.root.canonicalize().map_or(true, |r| !bundled.contains(&r)))
        .map(|p| p.manifest.id.to_string())
        .collect()
}

/// `arena sim NAME`: the game NAME belongs to is found in the registry
/// (`sim::game_of_setup`), which reads the options into what it plays
/// (`Rules::resolve`: seats, setup, optional rules, seating); then one game
/// with its narrative, or a batch through the one runner.
pub(super) fn sim(args: SimArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    use arena_engine::sim::{self, Request};
    if let Some(balance::SimCommand::Merge(merge)) = args.command {
        return balance::merge(merge, ui, stdout, stderr);
    }
    let Some(name) = args.scenario.clone() else {
        writeln!(stderr, "error: arena sim needs a Scenario or setup id (or `arena sim merge FILES...`)")?;
        return Ok(2);
    };
    let loaded = match load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let content = &loaded.content;
    let Some(rules) = sim::game_of_setup(content, &name) else {
        let hint = super::did_you_mean(&name, &sim::setup_names(content));
        writeln!(stderr, "error: no setup, and no Scenario with a ready-made setup, is called `{name}`{hint}")?;
        // A bundled pack the selection left out may have it.
        if let Some(pack) =
            packs::bundled_pack_defining(&name).filter(|p| !loaded.packs.iter().any(|l| *l.manifest.id == **p))
        {
            writeln!(stderr, "help: `{name}` is in the bundled pack {pack}: add `--pack {pack}`")?;
        }
        return Ok(2);
    };
    let request = Request {
        name,
        seats: args.seats.map(usize::from),
        players: args.players.len(),
        random_teams: args.random_teams,
        optional_rules: args.optional_rules.iter().map(|r| r.name().to_string()).collect(),
        seating: args.seating.map(|s| s.name().to_string()),
        compare: !args.compare.is_empty(),
        gods: args.gods.clone(),
        rulebook_deal: args.deal == Some(DealArg::Rulebook),
    };
    let spec = match rules.resolve(content, &request) {
        Ok(spec) => spec,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    if args.games.is_some() && args.replay.is_some() {
        writeln!(
            stderr,
            "error: --replay writes the file of one game; leave out --games (or use --seed N for that game)"
        )?;
        return Ok(2);
    }
    let kinds = sim::cycle(&args.players, spec.seats());
    if args.games != Some(super::Games::Auto)
        && (args.precision.is_some() || args.precision_of.is_some() || args.max_games.is_some())
    {
        writeln!(stderr, "error: --precision, --precision-of and --max-games go with --games auto")?;
        return Ok(2);
    }
    if let Some(games) = args.games {
        // A batch never waits on a person.
        let Some(players) = kinds
            .iter()
            .map(|k| match k {
                PlayerKind::Engine(p) => Some(*p),
                PlayerKind::Human => None,
            })
            .collect::<Option<Vec<sim::Policy>>>()
        else {
            writeln!(stderr, "error: --players: {}", super::HUMAN_PLAYS_ONE_GAME)?;
            return Ok(2);
        };
        let n = match games {
            super::Games::Count(n) => n,
            super::Games::Auto => {
                if args.shard.is_some()
                    || args.digest
                    || !args.compare.is_empty()
                    || !args.restrict.is_empty()
                    || args.impact.is_some()
                {
                    writeln!(
                        stderr,
                        "error: --games auto decides its number of games as it plays: give --games N with --shard, --digest, --compare or --restrict"
                    )?;
                    return Ok(2);
                }
                let auto = match balance::Auto::new(
                    &loaded,
                    args.precision.unwrap_or(2.0),
                    args.precision_of.as_deref().unwrap_or("seat"),
                    args.max_games.unwrap_or(balance::AUTO_MAX_GAMES),
                ) {
                    Ok(a) => a,
                    Err(e) => {
                        writeln!(stderr, "error: --precision-of: {e}")?;
                        return Ok(2);
                    }
                };
                if args.seed.checked_add(auto.max_games).is_none() {
                    writeln!(
                        stderr,
                        "error: --seed {} with --max-games {} {}",
                        args.seed,
                        auto.max_games,
                        super::PAST_THE_LAST_SEED
                    )?;
                    return Ok(2);
                }
                let batch = balance::Batch {
                    first_seed: args.seed,
                    games: auto.max_games,
                    shard: None,
                    players,
                    jobs: args.jobs,
                    without_games: args.without_games,
                    head: spec.head(),
                };
                return auto_batch(&loaded, &*spec, batch, &auto, args.format, ui, stdout, stderr);
            }
        };
        if args.seed.checked_add(n).is_none() {
            writeln!(stderr, "error: --seed {} with --games {n} {}", args.seed, super::PAST_THE_LAST_SEED)?;
            return Ok(2);
        }
        // A shard with no game could not be merged (`sim merge` refuses such a count).
        if let Some(s) = args.shard.filter(|s| s.count > n) {
            writeln!(
                stderr,
                "error: --shard {s}: {} shards of {n} games; a batch has at most one shard per game",
                s.count
            )?;
            return Ok(2);
        }
        if args.digest {
            return balance::digest_batch(&loaded, &*spec, args.seed..args.seed + n, &players, stdout);
        }
        let batch = balance::Batch {
            first_seed: args.seed,
            games: n,
            shard: args.shard,
            players,
            jobs: args.jobs,
            without_games: args.without_games,
            head: spec.head(),
        };
        if let Some(impact) = &args.impact {
            let Some(aristeia) = spec.as_any().downcast_ref::<sim::AristeiaSpec>() else {
                writeln!(stderr, "error: --impact: restricted play is for Aristeia! Scenarios")?;
                return Ok(2);
            };
            let Some(("character", id)) = impact.split_once(':') else {
                writeln!(stderr, "error: --impact `{impact}`: `character:ID`")?;
                return Ok(2);
            };
            return super::compare::sim_impact(&loaded, id, aristeia, batch, args.format, ui, stdout, stderr);
        }
        if !args.restrict.is_empty() {
            let Some(aristeia) = spec.as_any().downcast_ref::<sim::AristeiaSpec>() else {
                writeln!(stderr, "error: --restrict: restricted play is for Aristeia! Scenarios")?;
                return Ok(2);
            };
            for r in &args.restrict {
                if let Err(e) = r.check(&loaded.content) {
                    writeln!(stderr, "error: --restrict {r}: {e}")?;
                    return Ok(2);
                }
                if r.seat.is_some_and(|s| s.index() >= batch.players.len()) {
                    writeln!(stderr, "error: --restrict {r}: the game has {} players", batch.players.len())?;
                    return Ok(2);
                }
            }
            // The base is the same packs, unrestricted.
            return super::compare::sim_compare(
                &loaded,
                &args.packs,
                &args.restrict,
                aristeia,
                batch,
                args.format,
                ui,
                stdout,
                stderr,
            );
        }
        if !args.compare.is_empty() {
            // Only Aristeia! compares (its `resolve` refuses `--compare` otherwise).
            if let Some(aristeia) = spec.as_any().downcast_ref::<sim::AristeiaSpec>() {
                return super::compare::sim_compare(
                    &loaded,
                    &args.compare,
                    &[],
                    aristeia,
                    batch,
                    args.format,
                    ui,
                    stdout,
                    stderr,
                );
            }
        }
        return sim_batch(&loaded, &*spec, batch, args.format, ui, stdout, stderr);
    }
    // One game, a person in the seats `--players human` names.
    let runtime = rules
        .runtime(std::sync::Arc::new(content.clone()), loaded.script_set.clone())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let mut seated: Vec<Box<dyn arena_engine::table::Player>> = kinds
        .iter()
        .enumerate()
        .map(|(seat, kind)| match kind {
            PlayerKind::Human => Box::new(super::human::HumanPlayer::default()) as Box<dyn arena_engine::table::Player>,
            PlayerKind::Engine(p) => p.player(args.seed, seat),
        })
        .collect();
    let played = spec.play(content, &runtime, args.seed, &mut seated).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(path) = &args.replay {
        let file = arena_engine::replay_file::ReplayFile::record(
            rules.name(),
            content,
            &runtime,
            spec.recorded(),
            args.seed,
            played.answers(),
            loaded.content_hash(),
            arena_engine::replay_file::packs_of(&loaded),
        )
        .map_err(|e| anyhow::anyhow!("cannot record the replay: {e}"))?;
        crate::stdio::write_output(path, (serde_json::to_string(&file)? + "\n").as_bytes(), stdout)?;
    }
    // `--replay -`: the replay file is standard output, so the game goes to stderr.
    let stdout: &mut dyn Write =
        if args.replay.as_deref().is_some_and(crate::stdio::is_dash) { stderr } else { stdout };
    match args.format {
        Output::Json => {
            let mut v = serde_json::json!({ "version": JSON_VERSION });
            if let (Some(head), serde_json::Value::Object(fields)) = (v.as_object_mut(), played.to_json()) {
                head.extend(fields);
            }
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?
        }
        _ => write!(stdout, "{}", played.narrative())?,
    }
    Ok(if played.effect_failures() > 0 { 1 } else { 0 })
}

/// `arena sim NAME --games N`: the batch through the one runner
/// (`sim::run`), its game's tally, and the readout or the batch JSON.
pub(super) fn sim_batch(
    loaded: &Loaded,
    spec: &dyn arena_engine::sim::Spec,
    batch: balance::Batch,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let started = std::time::Instant::now();
    let results = play_seeds(loaded, spec, &batch, batch.seeds(), ui)?;
    print_batch(loaded, spec, &batch, &results, started.elapsed(), None, format, ui, stdout, stderr)
}

/// The batch's games for `seeds`, on its jobs, with the progress bar.
pub(super) fn play_seeds(
    loaded: &Loaded,
    spec: &dyn arena_engine::sim::Spec,
    batch: &balance::Batch,
    seeds: std::ops::Range<u64>,
    ui: &Ui,
) -> anyhow::Result<Vec<Box<dyn arena_engine::sim::Summary>>> {
    let jobs = batch.worker_jobs();
    with_progress(seeds.end - seeds.start, !ui.quiet(), |tick| {
        arena_engine::sim::run(
            spec,
            std::sync::Arc::new(loaded.content.clone()),
            loaded.script_set.clone(),
            seeds.clone(),
            &batch.players,
            jobs,
            tick,
        )
    })
    .map_err(|e| anyhow::anyhow!(e))
}

/// `arena sim NAME --games auto`: chunks of [`balance::AUTO_CHUNK`] games
/// from the first seed on until the interval of the figure asked about is
/// narrow enough or the ceiling is reached ([`balance::Auto`]); then the
/// readout of every game played, as `--games N` of that many would print
/// it, with a line (JSON: `"auto"`) saying how many games it took.
#[allow(clippy::too_many_arguments)]
pub(super) fn auto_batch(
    loaded: &Loaded,
    spec: &dyn arena_engine::sim::Spec,
    mut batch: balance::Batch,
    auto: &balance::Auto,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let started = std::time::Instant::now();
    let rules = spec.rules();
    let end = batch.first_seed + auto.max_games;
    let mut next = batch.first_seed;
    let mut results = Vec::new();
    let reached = loop {
        let to = (next + balance::AUTO_CHUNK).min(end);
        results.extend(play_seeds(loaded, spec, &batch, next..to, ui)?);
        next = to;
        let half = auto.half_width(&rules.tally(&results).report_json());
        if half.is_some_and(|h| h <= auto.precision) || next >= end {
            break half;
        }
    };
    batch.games = next - batch.first_seed;
    let note = auto.outcome(batch.games, reached);
    print_batch(loaded, spec, &batch, &results, started.elapsed(), Some(note), format, ui, stdout, stderr)
}

/// The readout (or the batch JSON) of a batch's `results`; `auto`: what
/// `--games auto` found, printed after the heading (JSON: its `"auto"`).
#[allow(clippy::too_many_arguments)]
fn print_batch(
    loaded: &Loaded,
    spec: &dyn arena_engine::sim::Spec,
    batch: &balance::Batch,
    results: &[Box<dyn arena_engine::sim::Summary>],
    elapsed: std::time::Duration,
    auto: Option<balance::AutoOutcome>,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let jobs = batch.worker_jobs();
    let seeds = batch.seeds();
    let rules = spec.rules();
    let tally = rules.tally(results);
    match format {
        Output::Json => {
            let games =
                (!batch.without_games).then(|| serde_json::Value::Array(results.iter().map(|g| g.to_json()).collect()));
            let mut v = balance::batch_json(loaded, rules.batch_kind(), batch, &*tally, games)?;
            if let (Some(auto), Some(o)) = (&auto, v.as_object_mut()) {
                o.insert("auto".into(), auto.to_json());
            }
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            let shard =
                batch.shard.map(|s| format!(" (shard {s} of seeds {}-{})", batch.first_seed, batch.last_seed()));
            writeln!(
                stdout,
                "{}, {}{}, {jobs} jobs, {:.1}s",
                rules.heading(&serde_json::Value::Object(batch.head.clone()), results.len() as u64),
                arena_engine::sim::seeds_text(&seeds),
                shard.unwrap_or_default(),
                elapsed.as_secs_f64()
            )?;
            if let Some(auto) = &auto {
                writeln!(stdout, "{}", auto.line())?;
            }
            let context = arena_engine::sim::ReportContext {
                content: &loaded.content,
                under_test: under_test(loaded),
                verbose: ui.verbose(),
            };
            let text = tally.text(results, &batch.players, &context);
            write!(stdout, "{}", text.out)?;
            write!(stderr, "{}", text.err)?;
        }
    }
    Ok(if tally.clean() { 0 } else { 1 })
}

/// Run `work` with a progress bar of `len` steps on stderr (drawn only when
/// `show` and stderr is a terminal); `work` calls its argument once per finished step, from
/// any thread.
///
/// The bar never blocks the work: workers only send a message, and the bar is
/// drawn on the calling thread, the one that runs [`run`]. A caller that holds
/// the process's stderr lock for the whole run (`main` may) does not stall the
/// workers, since the lock is re-entrant on its own thread.
pub(crate) fn with_progress<R: Send>(len: u64, show: bool, work: impl FnOnce(&(dyn Fn() + Sync)) -> R + Send) -> R {
    let bar = indicatif::ProgressBar::new(len);
    if !show || !err_is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_min}, eta {eta}")
            .map(|style| {
                // Games a minute: the search player's batches play a few a second at most.
                style.with_key("per_min", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} games/min", state.per_sec() * 60.0);
                })
            })
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let tick = move || {
                let _ = tx.send(());
            };
            work(&tick)
        });
        // Ends when the worker is done and its sender dropped.
        for () in rx {
            bar.inc(1);
        }
        worker.join()
    });
    bar.finish_and_clear();
    match result {
        Ok(r) => r,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// `arena run FILE`: the situation's game is its `game` key, found in the
/// registry (`sim::game_of_situation`; Aristeia! without one), which reads
/// and plays it; the events (and `--state`), each problem, exit 1 on any.
pub(super) fn run_situation(
    args: RunArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    // `-`: the situation is standard input; its `packs` are then relative to the current folder.
    let shown = crate::stdio::name(&args.file);
    let text =
        ui.stdin.read_text_limited(&args.file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| anyhow::anyhow!(e))?;
    let sit = match arena_engine::sim::game_of_situation(&text).and_then(|rules| Ok((rules, rules.situation(&text)?))) {
        Ok(s) => s,
        Err(e) => {
            // FILE:LINE:COLUMN where the file stops reading.
            match e.at {
                Some((line, column)) => writeln!(stderr, "error: {shown}:{line}:{column}: {}", e.message)?,
                None => writeln!(stderr, "error: {shown}: {}", e.message)?,
            }
            return Ok(1);
        }
    };
    let (rules, sit) = sit;
    // `--pack` first; else the situation's own `packs`, relative to its file.
    let packs = if args.packs.is_empty() && !sit.packs().is_empty() {
        let dir = args.file.parent().unwrap_or(std::path::Path::new("."));
        sit.packs().iter().map(|p| dir.join(p)).collect()
    } else {
        args.packs.clone()
    };
    let loaded = match load_for_play(&packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let runtime = rules
        .runtime(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let played = match sit.play(&loaded.content, &runtime) {
        Ok(p) => p,
        Err(e) => {
            // FILE:LINE:COLUMN at the key concerned, when the error names one.
            match e.at {
                Some((line, column)) => writeln!(stderr, "error: {}:{line}:{column}: {}", shown, e.message)?,
                None => writeln!(stderr, "error: {}: {}", shown, e.message)?,
            }
            return Ok(1);
        }
    };
    match args.format {
        Output::Json => {
            // docs/json.md § arena run: the version first, the events, and with --state the state.
            let mut v = serde_json::json!({ "version": JSON_VERSION, "kind": "situation", "events": played.events });
            if args.state {
                v["state"] = serde_json::to_value(&played.state)?;
            }
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?
        }
        _ => {
            for e in &played.lines {
                writeln!(stdout, "{e}")?;
            }
            if args.state {
                writeln!(stdout, "\nstate:")?;
                for line in &played.state_lines {
                    writeln!(stdout, "{line}")?;
                }
            }
        }
    }
    for p in &played.problems {
        writeln!(stderr, "error: {}: {p}", shown)?;
    }
    if !ui.quiet() && played.expected_met && played.expected > 0 {
        writeln!(stderr, "all {} expected events happened", played.expected)?;
    }
    Ok(if played.problems.is_empty() { 0 } else { 1 })
}
