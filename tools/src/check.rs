//! `arena check` and `arena lock`: validation of the packs, smoke games, situations and the lockfile, rendered in every format, with the one-line summary and exit code.

use super::*;

pub(super) fn check(args: CheckArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    // Dependencies the given paths lack are taken from the bundled packs (a mod
    // is checked against the base games it names), and said so.
    let selection = packs::select(&[args.paths.clone(), args.pack.clone()].concat(), default_paths);
    let strict = args.strict || args.strict_all;
    let options = load::Options { max_file_size: args.max_file_size, notes: strict, ..load::Options::default() };
    let mut loaded = load::load(&selection.paths, &options);
    ui.loaded(&loaded, stderr)?;
    note_borrowed(&selection, ui, stderr)?;
    // Whether the content itself is clean: the games and the situations are
    // played on it, and a failed simulated game must not hide a failing
    // situation (both are reported).
    let content_clean = !loaded.has_errors();
    let mut simulated = None;
    if let Some(n) = args.sims.filter(|n| *n > 0) {
        if content_clean {
            let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
            let check = arena_engine::sim::check_sims(&loaded, n, jobs);
            let failures = check.diagnostics.iter().filter(|d| d.is_error()).count();
            // Coverage of the packs under test: not of the dependencies taken
            // from the bundled packs, which a mod's author cannot change.
            let borrowed: std::collections::BTreeSet<&str> =
                selection.borrowed.iter().filter_map(|b| b.split(" (").next()).collect();
            let under_test: std::collections::BTreeSet<String> = loaded
                .packs
                .iter()
                .map(|p| p.manifest.id.to_string())
                .filter(|id| !borrowed.contains(id.as_str()))
                .collect();
            let cov = check.coverage.of_packs(&under_test);
            let ignored: std::collections::BTreeSet<(String, String)> = check
                .coverage
                .never
                .iter()
                .filter(|n| !under_test.contains(&n.3))
                .map(|n| (n.0.clone(), n.1.clone()))
                .collect();
            loaded.diagnostics.extend(check.diagnostics.into_iter().filter(|d| {
                d.code != Code::EffectNotExercised
                    || !ignored
                        .iter()
                        .any(|(card, effect)| d.content_path.as_deref() == Some(&format!("{card} {effect}")))
            }));
            loaded.coverage = Some(cov.clone());
            simulated = Some(format!(
                "simulated {}: {}; {} of {} scripted effects ran{}",
                check.played.join(", and "),
                if failures == 0 { "no failure".to_string() } else { format!("{failures} problem(s)") },
                cov.exercised,
                cov.scripted,
                if cov.exercised < cov.scripted && !strict { " (--strict lists the others)" } else { "" }
            ));
        }
    }
    // The packs' own situations (`situations/*.toml`) must play as written.
    let mut situations = None;
    if content_clean && loaded.packs.iter().any(|p| !p.situations.is_empty()) {
        let (found, texts) = arena_engine::sim::check_situations(&loaded);
        let count: usize = loaded.packs.iter().map(|p| p.situations.len()).sum();
        let failed: std::collections::BTreeSet<_> =
            found.iter().filter_map(|d| d.location.as_ref().map(|l| l.file.clone())).collect();
        situations = Some(format!(
            "played {count} situation(s) of the packs: {}",
            if failed.is_empty() {
                "all as written".to_string()
            } else {
                format!("{} did not play as written", failed.len())
            }
        ));
        for (file, text) in texts {
            loaded.sources.insert(file, text.into());
        }
        loaded.diagnostics.extend(found);
    }
    if args.locked {
        // At most 64 MiB, as for every file the tool reads whole (`/dev/zero`
        // fails at once); a lockfile that exists but cannot be read is said so.
        match ui.stdin.read_text_limited(&args.lockfile, arena_engine::read::MAX_TOOL_FILE) {
            Ok(text) => loaded.diagnostics.extend(arena_engine::lock::check(&loaded, Some(&text), &args.lockfile)),
            Err(_) if !crate::stdio::is_dash(&args.lockfile) && !args.lockfile.exists() => {
                loaded.diagnostics.extend(arena_engine::lock::check(&loaded, None, &args.lockfile))
            }
            // Unreadable (a folder, too large, not UTF-8): an IO failure, exit 2.
            Err(e) => loaded
                .diagnostics
                .push(Diagnostic::error(Code::Io, e).help("give the lockfile `arena lock` wrote (a UTF-8 TOML file)")),
        }
    }
    // A note is about a pack checked, not a bundled one borrowed for a
    // dependency, unless --strict-all.
    let borrowed_roots: Vec<PathBuf> = loaded
        .packs
        .iter()
        .filter(|p| selection.borrowed.iter().any(|b| b.split(" (").next() == Some(&*p.manifest.id)))
        .map(|p| p.root.clone())
        .collect();
    let of_borrowed =
        |d: &Diagnostic| d.location.as_ref().is_some_and(|l| borrowed_roots.iter().any(|r| l.file.starts_with(r)));
    let shown: Vec<Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity != Severity::Note || args.strict_all || (args.strict && !of_borrowed(d)))
        .cloned()
        .collect();
    let summary = loaded.summary();
    match args.format {
        Format::Human => {
            write!(stderr, "{}", diag::render_human(&shown, &loaded.sources, ui.color()))?;
            writeln!(stdout, "{}", summary_line(&loaded, strict))?;
            if let Some(line) = &situations {
                writeln!(stdout, "{line}")?;
            }
            if let Some(line) = &simulated {
                writeln!(stdout, "{line}")?;
            }
        }
        Format::Json => {
            let value = serde_json::to_value(&summary).context("serializing the summary")?;
            write!(stdout, "{}", diag::render_json(&shown, &value))?;
        }
        Format::Github => {
            write!(stdout, "{}", diag::render_github(&shown, &loaded.sources, &repo_root(args.repo_root.as_deref())?))?;
            // One notice with the summary, the situations and the smoke
            // games, shown on the run's summary page.
            let said: Vec<String> = [Some(summary_line(&loaded, strict)), situations.clone(), simulated.clone()]
                .into_iter()
                .flatten()
                .collect();
            writeln!(stdout, "::notice title=arena check::{}", diag::github_data(&said.join("; ")))?;
        }
        Format::Sarif => {
            // Code scanning wants a place for every result: one about no
            // file (a lockfile missing, a dependency) is put on the first
            // checked pack's manifest, else on the folder given.
            let manifest = loaded
                .packs
                .iter()
                .find(|p| !borrowed_roots.contains(&p.root))
                .or(loaded.packs.first())
                .map(|p| p.root.join(load::MANIFEST))
                // No pack loaded (`not-a-pack`): the folder given.
                .or_else(|| selection.paths.first().cloned());
            let placed: Vec<Diagnostic> = shown
                .into_iter()
                .map(|mut d| {
                    if d.location.is_none() {
                        d.location = manifest.as_ref().map(|m| diag::Location {
                            file: m.clone(),
                            span: None,
                            line: 1,
                            column: 1,
                        });
                    }
                    d
                })
                .collect();
            write!(stdout, "{}", diag::render_sarif(&placed, &loaded.sources, &repo_root(args.repo_root.as_deref())?))?
        }
    }
    Ok(exit_code(&loaded))
}

/// The repository root for code-scanning output: `--repo-root`, else found from the current folder.
pub(super) fn repo_root(given: Option<&std::path::Path>) -> anyhow::Result<diag::RepoRoot> {
    let cwd = std::env::current_dir().context("reading the current folder")?;
    Ok(match given {
        Some(root) => diag::RepoRoot::new(&cwd, root),
        None => diag::RepoRoot::discover(&cwd),
    })
}

pub(crate) fn exit_code(loaded: &Loaded) -> Exit {
    let io = loaded.diagnostics.iter().any(|d| d.is_error() && matches!(d.code, Code::Io | Code::NotAPack));
    if io {
        2
    } else if loaded.has_errors() {
        1
    } else {
        0
    }
}

/// `checked 4 packs (23 files): 6 die, 16 state, ...; 12 scripts; 0 errors, 0 warnings`.
pub(super) fn summary_line(loaded: &Loaded, strict: bool) -> String {
    let s = loaded.summary();
    let entries: Vec<String> = s.entries.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut line = format!(
        "checked {} ({}): {}; {}{}; {}, {}",
        plural(s.packs.len(), "pack", "packs"),
        plural(s.files, "file", "files"),
        if entries.is_empty() { "no entries".to_string() } else { entries.join(", ") },
        plural(s.scripts, "script", "scripts"),
        if s.script_tests > 0 {
            format!(", {}", plural(s.script_tests, "script test", "script tests"))
        } else {
            String::new()
        },
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
    );
    if s.provisional + s.unsupported_effects + s.gaps + s.text_only_rules > 0 {
        let mut gaps = if s.gaps > 0 { format!(", {} declared", plural(s.gaps, "gap", "gaps")) } else { String::new() };
        if s.text_only_rules > 0 {
            gaps.push_str(&format!(", {} text only", plural(s.text_only_rules, "Scenario rule", "Scenario rules")));
        }
        line.push_str(&format!(
            "; {} provisional, {} without Lua{gaps}{}",
            plural(s.provisional, "entry", "entries"),
            plural(s.unsupported_effects, "effect", "effects"),
            if strict { "" } else { " (--strict lists them)" }
        ));
    }
    line
}

pub(super) fn lock(args: LockArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let selection = packs::select(&[args.paths.clone(), args.pack.clone()].concat(), default_paths);
    note_borrowed(&selection, ui, stderr)?;
    let paths = selection.paths;
    let loaded = load::load(&paths, &load::Options { run_script_tests: false, ..load::Options::default() });
    if loaded.has_errors() {
        let errors: Vec<Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        write!(stderr, "{}", diag::render_human(&errors, &loaded.sources, ui.color()))?;
        writeln!(stderr, "the packs have errors: nothing written")?;
        return Ok(1);
    }
    // `-`: the lockfile is standard output, and the note goes to stderr.
    crate::stdio::write_output(&args.output, arena_engine::lock::lockfile(&loaded).as_bytes(), stdout)?;
    if crate::stdio::is_dash(&args.output) {
        if !ui.quiet() {
            writeln!(stderr, "wrote the lockfile to standard output ({} packs)", loaded.packs.len())?;
        }
    } else {
        writeln!(stdout, "wrote {} ({} packs)", args.output.display(), loaded.packs.len())?;
    }
    Ok(0)
}
