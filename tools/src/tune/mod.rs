//! `arena tune`: the whole value of one or more numeric fields (a Character's
//! `hit_points`, a die count, a Scoring Zone's VP, an Artifact's price) that
//! brings a figure of the balance readout to a target, found with batches
//! played on the same seeds (`sim::tune`'s search), and written as a guarded
//! patch pack (docs/patches.md) whose note quotes the evidence.
//! docs/balance.md § arena tune.

mod args;
mod pack;

use crate::*;
use arena_engine::sim;
use arena_engine::sim::tune::{Goal, Reading, Search, Step};
pub(crate) use args::TuneArgs;
use args::{Field, Target, request, same_play};
use std::collections::BTreeMap;

/// What the search read: the values of every field, and the reading.
#[derive(Debug, Clone, serde::Serialize)]
struct Read {
    /// The field whose search read it.
    #[serde(skip_serializing_if = "String::is_empty")]
    field: String,
    values: BTreeMap<String, i64>,
    /// The same values in `--field` order, for the lines printed.
    #[serde(skip)]
    in_order: Vec<i64>,
    #[serde(flatten)]
    reading: Reading,
    /// The reading of a value read before, with more games (`Step::Refine`).
    refined: bool,
}

/// The games one assignment of values has played so far.
struct Played {
    /// The figure's reading over them (`None` before any).
    reading: Option<Reading>,
    results: Vec<Box<dyn sim::Summary>>,
    /// The seed after the last one played.
    next: u64,
}

/// What the search found.
struct Found {
    /// Every field's value, in `--field` order.
    values: Vec<i64>,
    outcome: Outcome,
    /// The reading of `values`.
    reading: Reading,
    /// Every batch played, in order.
    reads: Vec<Read>,
    /// Every game played.
    games: u64,
    /// The answer's reading stopped at --max-games before it could say
    /// whether it reaches the target.
    capped: bool,
}

impl Found {
    /// `FIELD OLD -> NEW` (or `FIELD V (unchanged)`) of every field.
    fn changes(&self, fields: &[Field]) -> Vec<String> {
        fields
            .iter()
            .zip(&self.values)
            .map(|(f, v)| {
                if f.current == *v {
                    format!("{} {v} (unchanged)", f.name())
                } else {
                    format!("{} {} -> {v}", f.name(), f.current)
                }
            })
            .collect()
    }

    fn unchanged(&self, fields: &[Field]) -> bool {
        fields.iter().zip(&self.values).all(|(f, v)| f.current == *v)
    }
}

/// How the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// A value reads within the precision of the target.
    Reached,
    /// Neighbouring whole values bracket the target; the closer one.
    Between,
    /// No value of the ranges reaches the target's side; the closest.
    OutOfRange,
}

impl Outcome {
    fn name(self) -> &'static str {
        match self {
            Outcome::Reached => "reached",
            Outcome::Between => "between",
            Outcome::OutOfRange => "out-of-range",
        }
    }
}

/// Everything a run knows once its fields and target are read.
struct Tuner<'a> {
    args: &'a TuneArgs,
    selection: Vec<PathBuf>,
    target: Target,
    goal: Goal,
    fields: Vec<Field>,
    /// The patch pack's dependencies: every pack that defines or patches a tuned entry.
    dependencies: BTreeMap<String, String>,
    game: String,
    /// The packs searched, `id version`, for the pack's comments.
    played_on: Vec<String>,
    /// The packs searched as the command line names them (by id when they
    /// were the bundled default), for the commands it suggests.
    base: Vec<String>,
    /// Their content hash.
    content_hash: String,
    /// Where the pack goes.
    out: PathBuf,
    ui: &'a Ui<'a>,
}

impl Tuner<'_> {
    /// The packs searched with the fields at `values`: the patch pack
    /// written to a temporary folder and loaded after them by the standard
    /// loader. `Err`: its errors, rendered (the temporary folder named
    /// `<tune candidate>`).
    fn load(&self, values: &[i64]) -> anyhow::Result<Result<Loaded, String>> {
        let dir = tempfile::Builder::new().prefix("arena-tune-").tempdir()?;
        let pack = dir.path().join("arena-tune-candidate");
        std::fs::create_dir(&pack)?;
        write_atomically(&pack.join("pack.toml"), self.pack_toml("arena-tune-candidate", "", values, true).as_bytes())?;
        write_atomically(&pack.join("tune.toml"), self.patch_toml(values, "candidate", &[]).as_bytes())?;
        let mut paths = self.selection.clone();
        paths.push(pack.clone());
        let options = load::Options { run_script_tests: false, ..load::Options::default() };
        let loaded = load::load(&paths, &options);
        if loaded.has_errors() {
            let errors: Vec<Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
            let text = diag::render_human(&errors, &loaded.sources, false);
            return Ok(Err(text.replace(&pack.display().to_string(), "<tune candidate>")));
        }
        Ok(Ok(loaded))
    }

    /// The reading of the content with the fields at `values`: a batch on
    /// the seeds from `--seed` (or, going on from `so_far`, the seeds after
    /// its), chunk by chunk until `enough` says so or --max-games are
    /// played; `Err` when that content does not load or play (a value the
    /// schema refuses).
    fn read(
        &self,
        values: &[i64],
        so_far: Option<Played>,
        enough: impl Fn(&Reading) -> bool,
    ) -> anyhow::Result<Result<Played, String>> {
        let loaded = match self.load(values)? {
            Ok(loaded) => loaded,
            Err(e) => return Ok(Err(e)),
        };
        let Some(rules) = sim::game_of_setup(&loaded.content, &self.args.scenario) else {
            return Ok(Err(format!("no setup or Scenario `{}` in the tuned content", self.args.scenario)));
        };
        let spec = match rules.resolve(&loaded.content, &request(self.args)) {
            Ok(spec) => spec,
            Err(e) => return Ok(Err(e)),
        };
        let players = sim::cycle(&self.args.players, spec.seats());
        let batch = balance::Batch {
            first_seed: self.args.seed,
            games: self.args.max_games,
            shard: None,
            players,
            jobs: self.args.jobs,
            without_games: true,
            head: spec.head(),
        };
        let end = self.args.seed + self.args.max_games;
        let Played { mut next, mut results, .. } =
            so_far.unwrap_or(Played { reading: None, results: Vec::new(), next: self.args.seed });
        loop {
            let to = (next + balance::AUTO_CHUNK).min(end);
            results.extend(play::play_seeds(&loaded, &*spec, &batch, next..to, self.ui)?);
            next = to;
            let reading = self.target.read(&spec.rules().tally(&results).report_json());
            match reading {
                Some(r) if enough(&r) || next >= end => return Ok(Ok(Played { reading: Some(r), results, next })),
                None if next >= end => {
                    return Ok(Err(format!(
                        "{} games give no reading of {}{}",
                        results.len(),
                        self.target.words(),
                        match self.target {
                            Target::Character(_) =>
                                " (no strength fit: do its games have a winner, and teams that vary? --random-teams)",
                            _ => "",
                        }
                    )));
                }
                _ => {}
            }
        }
    }

    fn values_map(&self, values: &[i64]) -> BTreeMap<String, i64> {
        self.fields.iter().zip(values).map(|(f, v)| (f.name(), *v)).collect()
    }

    fn line(&self, read: &Read) -> String {
        let values: Vec<String> =
            self.fields.iter().zip(&read.in_order).map(|(f, v)| format!("{} = {v}", f.name())).collect();
        let r = &read.reading;
        format!(
            "  {}{}: {} [{}-{}] over {}",
            values.join(", "),
            if read.refined { " (read further)" } else { "" },
            percent(r.estimate),
            percent_bare(r.low),
            percent_bare(r.high),
            sim::games_text(r.games)
        )
    }
}

/// `s` as one shell word: as it is when it is plain, else in single quotes.
fn quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_./:=@%+,-".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn percent_bare(p: f64) -> String {
    format!("{:.1}", p * 100.0)
}

fn points(p: f64) -> String {
    format!("{:.1}", p * 100.0)
}

/// `arena tune`: the content's fields and target read and checked, the
/// search field by field, the pack written, the outcome printed.
pub(crate) fn tune(args: TuneArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let started = std::time::Instant::now();
    let loaded = match play::load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let tuner = match prepare(&args, &loaded, ui) {
        Ok(t) => t,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    for warning in tuner.warnings() {
        writeln!(stderr, "warning: {warning}")?;
    }
    // Every range's ends must load before any game is played.
    if let Err(e) = tuner.check_ranges() {
        writeln!(stderr, "error: {e}")?;
        return Ok(2);
    }
    if args.format == Output::Human {
        writeln!(stdout, "{}", tuner.heading())?;
    }
    let found = match search(&tuner, stdout, stderr)? {
        Ok(found) => found,
        Err(code) => return Ok(code),
    };
    // The pack, unless nothing changes.
    let wrote = if found.unchanged(&tuner.fields) { None } else { Some(tuner.write(&found)?) };
    match args.format {
        Output::Json => writeln!(stdout, "{}", serde_json::to_string_pretty(&tuner.json(&found, wrote.as_deref()))?)?,
        _ => tuner.print(&found, wrote.as_deref(), started.elapsed(), stdout)?,
    }
    Ok(if found.outcome == Outcome::Reached { 0 } else { 1 })
}

/// The run's [`Tuner`] from its arguments and the packs searched; `Err`:
/// a usage error (exit 2), said in one line.
fn prepare<'a>(args: &'a TuneArgs, loaded: &Loaded, ui: &'a Ui<'a>) -> Result<Tuner<'a>, String> {
    let Some(rules) = sim::game_of_setup(&loaded.content, &args.scenario) else {
        let hint = did_you_mean(&args.scenario, &sim::setup_names(&loaded.content));
        return Err(format!("no setup, and no Scenario with a ready-made setup, is called `{}`{hint}", args.scenario));
    };
    let target = Target::parse(&args.target, loaded).map_err(|e| format!("--target: {e}"))?;
    let fields = args
        .fields
        .iter()
        .map(|f| Field::resolve(f, loaded).map_err(|e| format!("--field: {e}")))
        .collect::<Result<Vec<Field>, String>>()?;
    for (i, f) in fields.iter().enumerate() {
        if fields[..i].iter().any(|g| g.name() == f.name()) {
            return Err(format!("--field {}: given twice; give each field once", f.name()));
        }
    }
    match (&target, rules.name()) {
        (Target::Character(_), "invictus") => {
            return Err("--target character:ID is an Aristeia! figure: Invictus has god:ID and seat:N".into());
        }
        (Target::God(_), name) if name != "invictus" => {
            return Err(format!(
                "--target god:ID is an Invictus figure: `{}` is Aristeia!'s (character:ID, seat:N)",
                args.scenario
            ));
        }
        _ => {}
    }
    if args.seed.checked_add(args.max_games).is_none() {
        return Err(format!("--seed {} with --max-games {} {}", args.seed, args.max_games, PAST_THE_LAST_SEED));
    }
    let spec = rules.resolve(&loaded.content, &request(args))?;
    if let Target::Seat(i) = target
        && i >= spec.seats()
    {
        return Err(format!("--target seat:{}: the game has {} players", i + 1, spec.seats()));
    }
    let even = match target {
        Target::Seat(_) if rules.name() == "aristeia" => 1.0 / spec.seats() as f64,
        _ => 0.5,
    };
    let goal = Goal { target: args.at.map_or(even, |p| p / 100.0), precision: args.precision / 100.0 };
    let out = pack::out_folder(args, &fields, loaded)?;
    let (dependencies, game) = pack::dependencies(&fields, loaded);
    Ok(Tuner {
        args,
        selection: packs::select(&args.packs, content_paths).paths,
        target,
        goal,
        fields,
        dependencies,
        game,
        played_on: loaded.packs.iter().map(|p| format!("{} {}", p.manifest.id, p.manifest.version)).collect(),
        base: if args.packs.is_empty() {
            loaded.packs.iter().map(|p| p.manifest.id.to_string()).collect()
        } else {
            args.packs.iter().map(|p| p.display().to_string()).collect()
        },
        content_hash: loaded.content_hash(),
        out,
        ui,
    })
}

/// The search, field by field (`sim::tune::Search`); no values are played
/// twice. `Err`: the exit code, when a value's content does not load or
/// play (said on `stderr`).
fn search(tuner: &Tuner, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Result<Found, Exit>> {
    let goal = tuner.goal;
    let mut values: Vec<i64> = tuner.fields.iter().map(|f| f.current).collect();
    let mut reads: Vec<Read> = Vec::new();
    let mut cache: BTreeMap<Vec<i64>, Played> = BTreeMap::new();
    let mut outcome = Outcome::OutOfRange;
    // Passes over the fields (coordinate search): a later field's change
    // may bring an earlier one's answer elsewhere, so the fields are searched
    // again, from the values found, until one reaches the target or a pass
    // changes nothing.
    'passes: for _ in 0..MAX_PASSES {
        let before = values.clone();
        for (i, f) in tuner.fields.iter().enumerate() {
            let mut search = Search::new(f.low, f.high, values[i]);
            loop {
                let step = search.next(&goal);
                let v = match step {
                    Step::Read(v) | Step::Refine(v) => v,
                    Step::Reached(v) => {
                        values[i] = v;
                        outcome = Outcome::Reached;
                        break 'passes;
                    }
                    Step::Between(v) | Step::OutOfRange(v) => {
                        values[i] = v;
                        outcome = if matches!(step, Step::Between(_)) { Outcome::Between } else { Outcome::OutOfRange };
                        break;
                    }
                };
                values[i] = v;
                // A value read before (by the field before) is not played again.
                if let (Step::Read(_), Some(r)) = (step, cache.get(&values).and_then(|p| p.reading)) {
                    search.record(v, r);
                    continue;
                }
                // A value read to --max-games already cannot be read further.
                if let (Step::Refine(_), Some(p)) = (step, cache.get(&values))
                    && p.next >= tuner.args.seed + tuner.args.max_games
                {
                    search.record(v, p.reading.unwrap_or(NO_READING));
                    continue;
                }
                let so_far = cache.remove(&values);
                let played = match step {
                    Step::Refine(_) => tuner.read(&values, so_far, |r| goal.decided(r))?,
                    _ => tuner.read(&values, so_far, |r| goal.settled(r))?,
                };
                let played = match played {
                    Ok(p) => p,
                    Err(e) => {
                        writeln!(stderr, "error: --field {} = {v}: the content does not load or play:\n{e}", f.name())?;
                        return Ok(Err(1));
                    }
                };
                let reading = played.reading.unwrap_or(NO_READING);
                cache.insert(values.clone(), played);
                let read = Read {
                    field: f.name(),
                    values: tuner.values_map(&values),
                    in_order: values.clone(),
                    reading,
                    refined: matches!(step, Step::Refine(_)),
                };
                if tuner.args.format == Output::Human {
                    writeln!(stdout, "{}", tuner.line(&read))?;
                } else if !tuner.ui.quiet() {
                    writeln!(stderr, "{}", tuner.line(&read))?;
                }
                reads.push(read);
                search.record(v, reading);
            }
        }
        if values == before || tuner.fields.len() == 1 {
            break;
        }
    }
    let reading = cache.get(&values).and_then(|p| p.reading).unwrap_or(NO_READING);
    let games = cache.values().map(|p| p.results.len() as u64).sum();
    let capped = !goal.decided(&reading) && reading.games >= tuner.args.max_games;
    Ok(Ok(Found { values, outcome, reading, reads, games, capped }))
}

/// The most passes over the fields (`tune`'s coordinate search).
const MAX_PASSES: usize = 3;

/// The reading of a batch that gave none (never kept: `Tuner::read` says
/// why instead); the widest interval.
const NO_READING: Reading = Reading { estimate: 0.0, low: 0.0, high: 1.0, games: 0 };

impl Tuner<'_> {
    /// What may mislead in the options given, said before any game.
    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(at) = self.args.at.filter(|a| *a > 0.0 && *a < 1.0) {
            out.push(format!("--at {at} is {at}%, not {:.0}%: --at takes a percentage", at * 100.0));
        }
        if matches!(self.target, Target::Character(_)) && !self.args.random_teams {
            out.push(
                "--target character:ID without --random-teams: with the same teams in every game, a Character's adjusted strength cannot be told from its teammates' (docs/balance-runs.md § Strength adjusted for teammates and opponents)"
                    .into(),
            );
        }
        // Games a reading near the target needs to be within the precision (98/√n points at 50%).
        let needed = (0.98 / self.goal.precision).powi(2).ceil() as u64;
        if self.args.max_games < needed {
            out.push(format!(
                "--max-games {} is fewer than the about {needed} games a reading near {} needs to be within ±{} points: the search may stop short of the target",
                self.args.max_games,
                percent(self.goal.target),
                points(self.goal.precision)
            ));
        }
        out
    }

    /// Each field's range ends load (the schema allows them), the other
    /// fields as they are; `Err`: which value does not, and why.
    fn check_ranges(&self) -> Result<(), String> {
        for (i, f) in self.fields.iter().enumerate() {
            for end in [f.low, f.high] {
                let mut values: Vec<i64> = self.fields.iter().map(|f| f.current).collect();
                values[i] = end;
                if let Err(e) = self.load(&values).map_err(|e| e.to_string())? {
                    return Err(format!(
                        "--field {}={}..{}: {} = {end} is not a value the content allows:\n{e}",
                        f.name(),
                        f.low,
                        f.high,
                        f.name()
                    ));
                }
            }
        }
        Ok(())
    }

    fn players(&self) -> String {
        self.args.players.iter().map(|p| p.name()).collect::<Vec<_>>().join(",")
    }

    fn heading(&self) -> String {
        format!(
            "arena tune {}: {} ({}) to {} ± {} points; {} players; seeds from {}, chunks of {}, at most {} a value",
            self.args.scenario,
            self.target.words(),
            self.target.name(),
            percent(self.goal.target),
            points(self.goal.precision),
            self.players(),
            self.args.seed,
            balance::AUTO_CHUNK,
            sim::games_text(self.args.max_games)
        )
    }

    /// The patch's `reason`: what the answer reads, over which games, by which players.
    fn evidence(&self, found: &Found) -> String {
        let r = &found.reading;
        format!(
            "arena tune: {} in {} reads {} [{}-{}] over {} (seeds {}-{}, players {}) with {}; asked {} ± {} points{}",
            self.target.words(),
            self.args.scenario,
            percent(r.estimate),
            percent_bare(r.low),
            percent_bare(r.high),
            sim::games_text(r.games),
            self.args.seed,
            (self.args.seed + r.games).saturating_sub(1),
            self.players(),
            found.changes(&self.fields).join(", "),
            percent(self.goal.target),
            points(self.goal.precision),
            match (found.outcome, found.capped) {
                (Outcome::Reached, _) => "",
                (_, true) => "; not reached within --max-games: the closest, its interval still across the band's edge",
                (Outcome::Between, false) => "; no whole value reaches it: the closer of the two around it",
                (Outcome::OutOfRange, false) => "; no value of the range reaches it: the closest",
            }
        )
    }

    fn json(&self, found: &Found, wrote: Option<&std::path::Path>) -> serde_json::Value {
        let fields: Vec<serde_json::Value> = self
            .fields
            .iter()
            .zip(&found.values)
            .map(|(f, v)| {
                serde_json::json!({ "field": f.name(), "current": f.current, "low": f.low, "high": f.high, "value": v })
            })
            .collect();
        serde_json::json!({
            "version": JSON_VERSION,
            "kind": "tune",
            "scenario": self.args.scenario,
            "target": { "figure": self.target.name(), "at": self.goal.target, "precision": self.goal.precision },
            "players": self.args.players.iter().map(|p| p.name()).collect::<Vec<_>>(),
            "seed": self.args.seed,
            "chunk": balance::AUTO_CHUNK,
            "max_games": self.args.max_games,
            "content_hash": self.content_hash,
            "fields": fields,
            "reads": found.reads,
            "outcome": found.outcome.name(),
            "capped": found.capped,
            "reading": Read {
                field: String::new(),
                values: self.values_map(&found.values),
                in_order: found.values.clone(),
                reading: found.reading,
                refined: false,
            },
            "games": found.games,
            "out": wrote.map(|p| p.display().to_string()),
        })
    }

    fn print(
        &self,
        found: &Found,
        wrote: Option<&std::path::Path>,
        elapsed: std::time::Duration,
        stdout: &mut dyn Write,
    ) -> anyhow::Result<()> {
        let capped = format!(
            "not reached within --max-games {} (the closest; its interval is still across the band's edge: more games may reach it)",
            self.args.max_games
        );
        let what = match (found.outcome, found.capped) {
            (Outcome::Reached, _) => "reached",
            (_, true) => capped.as_str(),
            (Outcome::Between, false) => "not reached (no whole value reaches it; the closer of the two around it)",
            (Outcome::OutOfRange, false) => "not reached (no value of the ranges reaches it; the closest)",
        };
        let r = &found.reading;
        writeln!(
            stdout,
            "{what}: {} reads {} [{}-{}] over {}, asked {} ± {} points",
            found.changes(&self.fields).join(", "),
            percent(r.estimate),
            percent_bare(r.low),
            percent_bare(r.high),
            sim::games_text(r.games),
            percent(self.goal.target),
            points(self.goal.precision)
        )?;
        writeln!(
            stdout,
            "{} values read, {} played, {:.1}s",
            found.reads.len(),
            sim::games_text(found.games),
            elapsed.as_secs_f64()
        )?;
        let Some(dir) = wrote else {
            let why = if found.outcome == Outcome::Reached {
                "nothing to change: the current values already read within the precision; no pack written"
            } else {
                "no pack written: the closest values found are the current ones"
            };
            writeln!(stdout, "{why}")?;
            return Ok(());
        };
        writeln!(
            stdout,
            "wrote {0}/pack.toml and {0}/tune.toml (each op guarded by `expect` on the value it replaces)",
            dir.display()
        )?;
        let packs: String = self.base.iter().map(|p| format!(" --pack {}", quote(p))).collect();
        let compare: String = self.base.iter().map(|p| format!(" --compare {}", quote(p))).collect();
        let dir = quote(&dir.display().to_string());
        writeln!(stdout, "check it:   arena check{packs} --pack {dir}")?;
        writeln!(
            stdout,
            "confirm it on seeds it never played, paired with the packs searched:\n  arena sim {}{} --games 2000 --seed {}{packs} --pack {}{compare}",
            self.args.scenario,
            same_play(self.args),
            self.args.seed + self.args.max_games,
            dir,
        )?;
        Ok(())
    }
}
