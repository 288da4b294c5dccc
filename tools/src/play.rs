//! Playing games: `arena sim` (one game, a batch with progress and per-Character rows), `arena replay`, `arena run` (situations), `arena script` (an effect alone), and the human seat at the terminal.

use super::*;

impl PlayerKind {
    fn engine(self) -> arena_engine::sim::Policy {
        match self {
            PlayerKind::Greedy => arena_engine::sim::Policy::Greedy,
            PlayerKind::Random => arena_engine::sim::Policy::Random,
            // Batches never wait on a person: a human seat plays greedy there.
            PlayerKind::Human => arena_engine::sim::Policy::Greedy,
        }
    }
}

/// The policy of each of `n` seats: one per `kinds` value, or the one value for all.
pub(super) fn seats(kinds: &[PlayerKind], n: usize) -> Vec<arena_engine::sim::Policy> {
    let a = kinds.first().copied().unwrap_or(PlayerKind::Greedy);
    (0..n).map(|i| kinds.get(i).copied().unwrap_or(a).engine()).collect()
}

pub(super) fn script(
    args: ScriptArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    use arena_engine::script::api;
    use arena_engine::script::host::RecordingHost;
    use arena_engine::script::runtime::{Ctx, Limits, Runtime, ScriptSource};
    let text = match arena_engine::read::read_limited(&args.file, arena_engine::read::MAX_TOOL_FILE) {
        Ok(b) if arena_engine::script::compile::wide_encoding(&b).is_some() => {
            let encoding = arena_engine::script::compile::wide_encoding(&b).unwrap_or_default();
            let d = Diagnostic::error(Code::NotUtf8, arena_engine::script::compile::wide_encoding_message(encoding))
                .at(diag::Location { file: args.file.clone(), span: None, line: 1, column: 1 })
                .help("save the file as UTF-8 (Lua source is read as UTF-8 only)");
            write!(stderr, "{}", diag::render_human(&[d], &diag::SourceMap::default(), false))?;
            return Ok(1);
        }
        Ok(b) if arena_engine::script::is_bytecode(&b) => {
            let d = Diagnostic::error(Code::ScriptBytecode, "script is precompiled bytecode")
                .at(diag::Location { file: args.file.clone(), span: None, line: 1, column: 1 })
                .help("only Lua source is accepted");
            write!(stderr, "{}", diag::render_human(&[d], &diag::SourceMap::default(), false))?;
            return Ok(1);
        }
        Ok(b) => String::from_utf8(b).map_err(|_| anyhow::anyhow!("{} is not UTF-8", args.file.display()))?,
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
        card: args.file.display().to_string(),
        effect: String::new(),
        file: args.file.clone(),
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
                    sources.insert(args.file.clone(), text.as_str().into());
                    let mut d = e.to_diagnostic();
                    if let Some(line) = e.line {
                        d.location = Some(diag::line_location(&args.file, &text, line));
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
/// How many players sit at the table of `arena sim`: --seats, else one per
/// --players value, else the setup's teams, else the Scenario's default (2,
/// or Prime Time's 3). `Err(2)` (a usage error, already written to `stderr`)
/// when they disagree or the Scenario is not for that many.
fn seat_count(
    args: &SimArgs,
    content: &arena_engine::content::Content,
    scenario: &str,
    setup_id: &str,
    stderr: &mut dyn Write,
) -> anyhow::Result<Result<usize, Exit>> {
    // How many seats: --seats, else one per --players value, else the
    // setup's teams, else the Scenario's default (2, or Prime Time's 3).
    let setup_seats = (!args.random_teams).then(|| content.setups.get(setup_id).map(|s| s.value.teams.len())).flatten();
    let scenario_of = if content.scenarios.contains_key(scenario) {
        scenario.to_string()
    } else {
        content.setups.get(setup_id).map(|s| s.value.scenario.to_string()).unwrap_or_default()
    };
    let default_seats = content
        .scenarios
        .get(scenario_of.as_str())
        .map_or(2, |s| arena_engine::rules::game::GameSetup::default_seats(&s.value));
    let n_seats = match (args.seats, args.players.len()) {
        (Some(n), k) if k > 1 && k != n as usize => {
            writeln!(
                stderr,
                "error: --seats {n} but --players names {k} controllers: give one per seat, or one for all"
            )?;
            return Ok(Err(2));
        }
        (Some(n), _) => n as usize,
        (None, k) if k > 1 => k,
        (None, _) => setup_seats.unwrap_or(default_seats),
    };
    if !(2..=4).contains(&n_seats) {
        writeln!(stderr, "error: {n_seats} players: a game has 2 to 4 (--players names one controller per seat)")?;
        return Ok(Err(2));
    }
    if let Some(sc) = content.scenarios.get(scenario_of.as_str()) {
        let p = &sc.value.players;
        if !(p.min as usize..=p.max as usize).contains(&n_seats) {
            writeln!(
                stderr,
                "error: `{scenario_of}` is a {}-{} player Scenario, not for {n_seats} (use --seats N or one --players value per seat)",
                p.min, p.max
            )?;
            return Ok(Err(2));
        }
    }
    if let Some(k) = setup_seats.filter(|k| *k != n_seats) {
        writeln!(
            stderr,
            "error: setup `{setup_id}` seats {k} players, not {n_seats} (add --random-teams for other tables)"
        )?;
        return Ok(Err(2));
    }
    Ok(Ok(n_seats))
}

/// The Scenario a `sim` argument names: itself, or its setup's.
fn random_scenario_of(content: &arena_engine::content::Content, scenario: &str, setup_id: &str) -> String {
    if content.scenarios.contains_key(scenario) {
        scenario.to_string()
    } else {
        content.setups.get(setup_id).map(|s| s.value.scenario.to_string()).unwrap_or_default()
    }
}

pub(super) fn sim(mut args: SimArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    use arena_engine::script::runtime::{Limits, Runtime};
    if let Some(balance::SimCommand::Merge(merge)) = args.command {
        return balance::merge(merge, ui, stdout, stderr);
    }
    let Some(scenario) = args.scenario.clone() else {
        writeln!(stderr, "error: arena sim needs a Scenario or setup id (or `arena sim merge FILES...`)")?;
        return Ok(2);
    };
    if scenario == "invictus" {
        if !args.compare.is_empty() {
            writeln!(stderr, "error: --compare is for Aristeia! batches; Invictus batches cannot be compared yet")?;
            return Ok(2);
        }
        if let Some(r) = args.optional_rules.first() {
            writeln!(
                stderr,
                "error: --optional-rule {r} is an Aristeia! Prime Time rule ({}); Invictus has none",
                r.section()
            )?;
            return Ok(2);
        }
        return super::invictus::sim(args, ui, stdout, stderr);
    }
    if args.seating.is_some() {
        writeln!(
            stderr,
            "error: --seating is for Invictus (`arena sim invictus --seating ...`); an Aristeia! table seats its players clockwise in the order of --players"
        )?;
        return Ok(2);
    }
    let loaded = match load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let content = &loaded.content;
    let setup_id = if content.setups.contains_key(scenario.as_str()) {
        scenario.clone()
    } else {
        match content.setups.values().find(|s| s.value.scenario == scenario) {
            Some(s) => s.value.id.to_string(),
            // Random teams need only the Scenario.
            None if args.random_teams && content.scenarios.contains_key(scenario.as_str()) => String::new(),
            // A Prime Time Scenario (3-4 players) without a ready-made setup:
            // its teams are picked at the table (`001 § Preparations`), so
            // random teams, as --random-teams would draw them.
            None if content.scenarios.get(scenario.as_str()).is_some_and(|s| s.value.players.min > 2) => {
                args.random_teams = true;
                String::new()
            }
            None => {
                let hint = if content.scenarios.contains_key(scenario.as_str()) {
                    " (it has no ready-made setup: add --random-teams)".to_string()
                } else {
                    let mut ids: Vec<String> =
                        content.setups.keys().chain(content.scenarios.keys()).map(|k| k.to_string()).collect();
                    ids.push("invictus".into());
                    super::did_you_mean(&scenario, &ids)
                };
                writeln!(
                    stderr,
                    "error: no setup, and no Scenario with a ready-made setup, is called `{}`{hint}",
                    scenario
                )?;
                return Ok(2);
            }
        }
    };
    let n_seats = match seat_count(&args, content, &scenario, &setup_id, stderr)? {
        Ok(n) => n,
        Err(code) => return Ok(code),
    };
    if args.games.is_some() && args.replay.is_some() {
        writeln!(
            stderr,
            "error: --replay writes the file of one game; leave out --games (or use --seed N for that game)"
        )?;
        return Ok(2);
    }
    if let Some(n) = args.games {
        if args.seed.checked_add(n).is_none() {
            writeln!(stderr, "error: --seed {} with --games {n} runs past the largest seed", args.seed)?;
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
    }
    // The optional rules (`001 § Additional Rules`): a rule 001 gives only
    // for Prime Time tables is a usage error at another table.
    let rules: std::collections::BTreeSet<arena_engine::rules::game::OptionalRule> =
        args.optional_rules.iter().copied().collect();
    if let Some(why) = arena_engine::rules::game::OptionalRule::refuse_any(&rules, n_seats) {
        let prime_time_scenario = content
            .scenarios
            .get(random_scenario_of(content, &scenario, &setup_id).as_str())
            .is_some_and(|sc| sc.value.players.max > 2);
        let hint = if n_seats == 2 && prime_time_scenario {
            " (--seats 3 or 4 plays Prime Time; with --random-teams for a 2-player setup)"
        } else {
            ""
        };
        writeln!(stderr, "error: {why}{hint}")?;
        return Ok(2);
    }
    let players = seats(&args.players, n_seats);
    let random_scenario = random_scenario_of(content, &scenario, &setup_id);
    if let Some(n) = args.games {
        let teams = if args.random_teams {
            arena_engine::sim::Teams::Random(random_scenario.clone())
        } else {
            arena_engine::sim::Teams::Setup(setup_id.clone())
        };
        if args.digest {
            return balance::digest_batch(&loaded, &teams, &rules, args.seed..args.seed + n, &players, stdout);
        }
        let batch = balance::Batch {
            first_seed: args.seed,
            games: n,
            shard: args.shard,
            players,
            jobs: args.jobs,
            without_games: args.without_games,
            optional_rules: rules,
        };
        if !args.compare.is_empty() {
            return super::compare::sim_compare(&loaded, &args.compare, &teams, batch, args.format, ui, stdout, stderr);
        }
        return sim_batch(&loaded, &teams, batch, args.format, ui, stdout, stderr);
    }
    // One game: the setup's teams, or teams drawn from the seed (`--random-teams`).
    let setup_id = if args.random_teams {
        arena_engine::sim::random_teams_name(content, &random_scenario, n_seats)
    } else {
        setup_id
    };
    let mut setup = arena_engine::sim::replay_setup(content, &setup_id, args.seed).map_err(|e| anyhow::anyhow!(e))?;
    setup.optional_rules = rules;
    let runtime = Runtime::new(std::sync::Arc::new(content.clone()), loaded.script_set.clone(), Limits::default())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let mut controllers: Vec<Box<dyn arena_engine::rules::decision::Controller>> = (0..n_seats)
        .map(|seat| {
            let kind = args.players.get(seat).or(args.players.first()).copied().unwrap_or(PlayerKind::Greedy);
            match kind {
                PlayerKind::Human => {
                    Box::new(super::human::HumanPlayer::default()) as Box<dyn arena_engine::rules::decision::Controller>
                }
                _ => players[seat].controller(args.seed, seat),
            }
        })
        .collect();
    let record = arena_engine::sim::play(
        content,
        &runtime,
        &setup,
        controllers.iter_mut().map(|c| c.as_mut() as &mut dyn arena_engine::rules::decision::Controller).collect(),
    )
    .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(path) = &args.replay {
        let recorded = arena_engine::table::AristeiaSetup {
            name: if args.random_teams { random_scenario.clone() } else { setup_id.clone() },
            random_teams: args.random_teams,
            seats: Some(n_seats),
            optional_rules: setup.optional_rules.clone(),
        };
        let file = arena_engine::replay_file::ReplayFile::record_aristeia(
            content,
            &runtime,
            &recorded,
            args.seed,
            &record.answers,
            &loaded,
        )
        .map_err(|e| anyhow::anyhow!("cannot record the replay: {e}"))?;
        write_atomically(path, (serde_json::to_string(&file)? + "\n").as_bytes())?;
    }
    match args.format {
        Output::Json => {
            let mut v = serde_json::json!({ "version": JSON_VERSION, "kind": "sim-game" });
            if let (Some(head), serde_json::Value::Object(fields)) = (v.as_object_mut(), serde_json::to_value(&record)?)
            {
                head.extend(fields);
            }
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?
        }
        _ => write!(stdout, "{}", record.narrative())?,
    }
    Ok(if record.effect_failures > 0 { 1 } else { 0 })
}

pub(super) fn sim_batch(
    loaded: &Loaded,
    teams: &arena_engine::sim::Teams,
    batch: balance::Batch,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let jobs = batch.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let seeds = batch.seeds();
    let started = std::time::Instant::now();
    let results = with_progress(seeds.end - seeds.start, !ui.quiet(), |tick| {
        arena_engine::sim::batch_with_rules(
            std::sync::Arc::new(loaded.content.clone()),
            loaded.script_set.clone(),
            teams,
            &batch.optional_rules,
            seeds.clone(),
            &batch.players,
            jobs,
            tick,
        )
    })
    .map_err(|e| anyhow::anyhow!(e))?;
    let elapsed = started.elapsed();
    let tally = arena_engine::sim::Tally::of(&results);
    let report = tally.report();
    let setup = balance::setup_name(teams);
    match format {
        Output::Json => {
            let games = (!batch.without_games).then(|| serde_json::to_value(&results)).transpose()?;
            let v = balance::batch_json(loaded, &setup, &batch, &report, &tally, games)?;
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            let shard =
                batch.shard.map(|s| format!(" (shard {s} of seeds {}-{})", batch.first_seed, batch.last_seed()));
            let rules: Vec<&str> = batch.optional_rules.iter().map(|r| r.name()).collect();
            let setup =
                if rules.is_empty() { setup } else { format!("{setup} with optional rules {}", rules.join(", ")) };
            writeln!(
                stdout,
                "{} games of {setup}, seeds {}-{}{}, {jobs} jobs, {:.1}s",
                report.games,
                seeds.start,
                seeds.end.saturating_sub(1),
                shard.unwrap_or_default(),
                elapsed.as_secs_f64()
            )?;
            write!(stdout, "{}", balance::report_text(loaded, &report, &batch.players))?;
            if report.games_ended_before_activation > 0 {
                // Suspicious: a Scenario rule that ends the game at once?
                let first = results.iter().find(|g| g.ended_before_activation);
                let by = first
                    .and_then(|g| g.ended_by.as_ref())
                    .map(|r| format!("; Scenario rule `{r}` ended it"))
                    .unwrap_or_default();
                writeln!(
                    stdout,
                    "warning: {} of {} games ended before any Activation (first: seed {}{by})",
                    report.games_ended_before_activation,
                    report.games,
                    first.map_or(0, |g| g.seed)
                )?;
            }
            for g in results
                .iter()
                .filter(|g| g.error.is_some() || !g.effect_failures.is_empty())
                .take(if ui.verbose() { usize::MAX } else { 5 })
            {
                let what = g.error.clone().unwrap_or_else(|| g.effect_failures.join("; "));
                writeln!(stderr, "seed {}: {what}", g.seed)?;
            }
        }
    }
    Ok(if report.errors + report.games_with_effect_failures > 0 { 1 } else { 0 })
}

/// The balance readout per Character of `sim --games`: games, win rate with
/// its 95% interval, and per-game means of Damage dealt and taken and of times
/// sent to the Infirmary, and the strength adjusted for teammates and
/// opponents ([`arena_engine::sim::Strengths`]) with the `players` who
/// played. The Characters of the packs under test (the loaded packs that are
/// not bundled base games) come first, marked `*`.
pub(super) fn character_table(
    loaded: &Loaded,
    report: &arena_engine::sim::Report,
    players: &[arena_engine::sim::Policy],
) -> String {
    use std::fmt::Write as _;
    let bundled: std::collections::BTreeSet<PathBuf> =
        load::discover(&content_paths()).0.iter().filter_map(|r| r.canonicalize().ok()).collect();
    let under_test: Vec<&str> = loaded
        .packs
        .iter()
        .filter(|p| p.root.canonicalize().map_or(true, |r| !bundled.contains(&r)))
        .map(|p| p.manifest.id.as_str())
        .collect();
    let tested =
        |c: &str| loaded.content.characters.get(c).is_some_and(|e| under_test.contains(&e.origin.pack.as_str()));
    let mut rows: Vec<(&arena_engine::model::Id, &arena_engine::sim::CharacterReport)> =
        report.per_character.iter().collect();
    rows.sort_by_key(|(c, _)| (!tested(c), c.as_str()));
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    let width = rows.iter().map(|(c, _)| c.len()).max().unwrap_or(0).max("Character".len());
    // 001 § Bench: a Prime Time table has no Infirmary; the count is of times
    // sent to the Bench at Hit Points.
    let sent_to = if report.win_rate.table().prime_time() { "Bench" } else { "Infirmary" };
    let _ = writeln!(
        out,
        "\n  {:<width$} {:>5}  {:<20} {:<23} {:>8} {:>6} {:>6} {:>9}",
        "Character", "games", "side wins [95%]", "adjusted strength [95%]", "log-odds", "dealt", "taken", sent_to
    );
    let strength = report.strength.as_ref();
    for (c, r) in rows {
        let mark = if tested(c) { "* " } else { "  " };
        let wins =
            format!("{:5.1}% [{:.1}-{:.1}]", r.win_rate.rate * 100.0, r.win_rate.low * 100.0, r.win_rate.high * 100.0);
        let (adjusted, log_odds) = match strength.and_then(|s| s.characters.get(c.as_str())) {
            Some(s) => {
                let p = s.win_probability;
                let p = format!("{:5.1}% [{:.1}-{:.1}]", p.estimate * 100.0, p.low * 100.0, p.high * 100.0);
                (p, format!("{:+.2}", s.log_odds.estimate))
            }
            None => ("-".to_string(), "-".to_string()),
        };
        let _ = writeln!(
            out,
            "{mark}{c:<width$} {:>5}  {wins:<20} {adjusted:<23} {log_odds:>8} {:>6.2} {:>6.2} {:>9.2}",
            r.games, r.mean_damage_dealt, r.mean_damage_taken, r.mean_infirmary,
        );
    }
    let seats = report.win_rate.table().len();
    let who: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(i, p)| format!("player {} {}", i + 1, super::balance::policy_name(p)))
        .collect();
    let _ = match strength {
        Some(s) => writeln!(
            out,
            "(adjusted strength: a conditional-logit{} fit over the team compositions of the {} games some team won ({} draws left out{}), played by {}: the chance that a team of this Character and average ones beats {} seat advantage aside (even share {:.0}%); log-odds 0 is the average Character)",
            if seats == 2 { " (Bradley-Terry)" } else { "" },
            s.games,
            s.left_out,
            if s.converged { "" } else { "; the fit did not converge" },
            who.join(", "),
            if seats == 2 { "an average team,".to_string() } else { format!("{} average teams,", seats - 1) },
            100.0 / seats as f64
        ),
        None => writeln!(out, "(adjusted strength: no game had a winner to fit; played by {})", who.join(", ")),
    };
    let _ = writeln!(
        out,
        "(means per game: Damage its Enemies suffered in its Activations, Damage it suffered, times sent to the {sent_to}{})",
        if under_test.is_empty() {
            String::new()
        } else {
            format!("; * from the packs under test: {}", under_test.join(", "))
        }
    );
    out
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
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
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

pub(super) fn run_situation(
    args: RunArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    use arena_engine::rules::situation::Situation;
    use arena_engine::script::runtime::{Limits, Runtime};
    let text = arena_engine::read::read_text_limited(&args.file, arena_engine::read::MAX_TOOL_FILE)
        .map_err(|e| anyhow::anyhow!(e))?;
    if toml::from_str::<toml::Table>(&text).is_ok_and(|t| t.get("game").and_then(|g| g.as_str()) == Some("invictus")) {
        return super::invictus::run_situation(&text, &args, ui, stdout, stderr);
    }
    let sit: Situation = match toml::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", args.file.display())?;
            return Ok(1);
        }
    };
    // `--pack` first; else the situation's own `packs`, relative to its file.
    let packs = if args.packs.is_empty() && !sit.packs.is_empty() {
        let dir = args.file.parent().unwrap_or(std::path::Path::new("."));
        sit.packs.iter().map(|p| dir.join(p)).collect()
    } else {
        args.packs.clone()
    };
    let loaded = match load_for_play(&packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let runtime =
        Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
            .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let played = match sit.play(&loaded.content, &runtime) {
        Ok(p) => p,
        Err(e) => {
            // FILE:LINE:COLUMN at the key concerned, when the error names one.
            match e.locate(&text) {
                Some((_, line, column)) => writeln!(stderr, "error: {}:{line}:{column}: {e}", args.file.display())?,
                None => writeln!(stderr, "error: {}: {e}", args.file.display())?,
            }
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
        _ => {
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
    for p in &played.problems {
        writeln!(stderr, "error: {}: {}", args.file.display(), p.message)?;
    }
    if !ui.quiet() && !played.problems.iter().any(|p| p.message.starts_with("expected ")) && played.expected > 0 {
        writeln!(stderr, "all {} expected events happened", played.expected)?;
    }
    Ok(if played.problems.is_empty() { 0 } else { 1 })
}
