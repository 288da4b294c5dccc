//! `arena tune`: the whole value of one or more numeric fields (a Character's
//! `hit_points`, a die count, a Scoring Zone's VP, an Artifact's price) that
//! brings a figure of the balance readout to a target, found with batches
//! played on the same seeds (`sim::tune`'s search), and written as a guarded
//! patch pack (docs/patches.md) whose note quotes the evidence.
//! docs/balance-runs.md § arena tune.

use super::*;
use arena_engine::sim::tune::{Goal, Reading, Search, Step};
use arena_engine::sim::{self, Policy};
use std::collections::BTreeMap;

#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// The Scenario, setup or game the batches play (as `arena sim` takes it).
    #[arg(add = complete::games())]
    scenario: String,
    /// The figure to bring to --at: `seat:N` (player N's win rate),
    /// `character:ID` (a Character's adjusted strength, the readout's
    /// logistic fit over team compositions: give --random-teams so teams
    /// vary) or `god:ID` (an Invictus god's win rate)
    #[arg(long, value_name = "FIGURE")]
    target: String,
    /// The target, in percent [default: the even share for `seat:N` (50 at
    /// 2 players, 33.3 at 3, 25 at 4; 50 in Invictus's team games), else 50]
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    at: Option<f64>,
    /// A whole-number field it may change, and its range:
    /// `KIND:ID.PATH=LOW..HIGH` (`character:laxmee.hit_points=3..8`,
    /// `character:maximus.actions[id=spear-attack].dice=1..4`; paths as
    /// patches write them, docs/patches.md). Repeat for more: each is
    /// searched in turn, the next only when the one before cannot reach the
    /// target, from the closest value it found
    #[arg(long = "field", value_name = "KIND:ID.PATH=LOW..HIGH", required = true, value_parser = parse_field)]
    fields: Vec<FieldArg>,
    /// The half-width of the band around --at that counts as reached, and of
    /// the 95% interval a value's reading must have, in percentage points
    #[arg(long, value_name = "POINTS", default_value_t = 2.0, value_parser = parse_points)]
    precision: f64,
    /// The most games played for one value (chunks of 200 until the reading
    /// is within the precision or clearly outside the band)
    #[arg(long, value_name = "N", default_value_t = balance::AUTO_MAX_GAMES, value_parser = clap::value_parser!(u64).range(1..))]
    max_games: u64,
    /// Where to write the patch pack (a folder; its name, made an id, is the pack's id)
    /// [default: tuned-ID, ID the first field's entry]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Replace the pack.toml and tune.toml of an --out folder that already has them
    #[arg(long)]
    force: bool,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// One controller per seat (greedy, random, mcts, mcts:N), as `arena sim` takes them.
    #[arg(long, value_delimiter = ',', default_value = "greedy", value_parser = parse_engine_player, add = complete::players())]
    players: Vec<Policy>,
    /// How many players, as `arena sim --seats`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=6))]
    seats: Option<u8>,
    /// Random teams from every loaded Character, one draw per seed (the
    /// same teams for every value tried).
    #[arg(long)]
    random_teams: bool,
    /// An optional rule of Prime Time (repeat for more), as `arena sim --optional-rule`.
    #[arg(long = "optional-rule", value_name = "NAME")]
    optional_rules: Vec<String>,
    /// Invictus only: the gods of the seats, as `arena sim --gods`.
    #[arg(long, value_delimiter = ',', value_name = "GOD,...", add = complete::gods())]
    gods: Vec<String>,
    /// The first seed: every value is played on the seeds from it on.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    jobs: Option<usize>,
    /// Output format: the search as it goes (`human`) or one JSON document at the end.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
}

fn parse_percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{s}`: a percentage from 0 to 100")),
    }
}

fn parse_points(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p.is_finite() && (0.1..=50.0).contains(&p) => Ok(p),
        _ => Err(format!("`{s}`: a precision in percentage points, from 0.1 to 50")),
    }
}

/// A `--field` as written.
#[derive(Debug, Clone)]
pub(crate) struct FieldArg {
    reference: String,
    path: String,
    low: i64,
    high: i64,
}

fn parse_field(s: &str) -> Result<FieldArg, String> {
    let usage = "KIND:ID.PATH=LOW..HIGH, such as character:laxmee.hit_points=3..8";
    let (field, range) = s.rsplit_once('=').ok_or_else(|| format!("`{s}`: no range: {usage}"))?;
    let (kind, rest) = field.split_once(':').ok_or_else(|| format!("`{field}`: no kind: {usage}"))?;
    let (id, path) = rest.split_once('.').ok_or_else(|| format!("`{field}`: no field after the id: {usage}"))?;
    if kind.is_empty() || id.is_empty() || path.is_empty() {
        return Err(format!("`{field}`: {usage}"));
    }
    let (low, high) = range.split_once("..").ok_or_else(|| format!("`{range}`: a range LOW..HIGH, such as 3..8"))?;
    let whole = |v: &str| v.trim().parse::<i64>().map_err(|_| format!("`{v}` in `{range}` is not a whole number"));
    let (low, high) = (whole(low)?, whole(high.trim_start_matches('='))?);
    if low >= high {
        return Err(format!("`{range}`: the range must hold at least two values, LOW < HIGH"));
    }
    Ok(FieldArg { reference: format!("{kind}:{id}"), path: path.to_string(), low, high })
}

/// The figure the search aims at.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    /// A seat's win rate (index from 0).
    Seat(usize),
    /// An Aristeia! Character's adjusted strength (`report.strength`).
    Character(String),
    /// An Invictus god's win rate.
    God(String),
}

impl Target {
    fn parse(s: &str, loaded: &Loaded) -> Result<Target, String> {
        match s.split_once(':') {
            Some(("seat" | "player", n)) => match n.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Target::Seat(n - 1)),
                _ => Err(format!("`{s}`: a player number from 1, such as seat:1")),
            },
            Some(("character", id)) => {
                if !loaded.content.characters.contains_key(id) {
                    let known: Vec<String> = loaded.content.characters.keys().map(|k| k.to_string()).collect();
                    return Err(format!("no Character `{id}` is loaded{}", did_you_mean(id, &known)));
                }
                Ok(Target::Character(id.into()))
            }
            Some(("god", id)) => {
                if !loaded.content.gods.contains_key(id) {
                    let known: Vec<String> = loaded.content.gods.keys().map(|k| k.to_string()).collect();
                    return Err(format!("no god `{id}` is loaded{}", did_you_mean(id, &known)));
                }
                Ok(Target::God(id.into()))
            }
            _ => Err(format!("`{s}`: seat:N, character:ID or god:ID")),
        }
    }

    fn name(&self) -> String {
        match self {
            Target::Seat(i) => format!("seat:{}", i + 1),
            Target::Character(id) => format!("character:{id}"),
            Target::God(id) => format!("god:{id}"),
        }
    }

    /// What it is, in words.
    fn words(&self) -> String {
        match self {
            Target::Seat(i) => format!("player {}'s win rate", i + 1),
            Target::Character(id) => format!("the adjusted strength of {id}"),
            Target::God(id) => format!("{id}'s win rate"),
        }
    }

    /// Its reading in a batch's report (`BatchTally::report_json`); `None`
    /// while it has no row (a Character not yet dealt, no strength fit).
    fn read(&self, report: &serde_json::Value) -> Option<Reading> {
        let games = report.get("games")?.as_u64()?;
        let rate = |r: &serde_json::Value, key: &str| {
            Some(Reading {
                estimate: r.get(key)?.as_f64()?,
                low: r.get("low")?.as_f64()?,
                high: r.get("high")?.as_f64()?,
                games,
            })
        };
        match self {
            Target::Seat(i) => match (report.get("win_rate"), report.get("seats")) {
                (Some(rows), _) => rate(rows.get(*i)?, "rate"),
                (_, Some(rows)) => rate(rows.get(*i)?.get("rate")?, "rate"),
                _ => None,
            },
            Target::Character(id) => {
                rate(report.get("strength")?.get("characters")?.get(id)?.get("win_probability")?, "estimate")
            }
            Target::God(id) => rate(report.get("gods")?.get(id)?.get("rate")?, "rate"),
        }
    }
}

/// A field the search may change, resolved in the loaded content.
#[derive(Debug, Clone)]
struct Field {
    reference: String,
    path: String,
    current: i64,
    low: i64,
    high: i64,
}

impl Field {
    fn resolve(arg: &FieldArg, loaded: &Loaded) -> Result<Field, String> {
        let Some(entry) = arena_engine::patch::entry_json(loaded, &arg.reference) else {
            let known = arena_engine::patch::references(loaded);
            return Err(format!("no entry `{}` is loaded{}", arg.reference, did_you_mean(&arg.reference, &known)));
        };
        let (pointer, _) =
            arena_engine::patch::keyed_pointer(&entry, &arg.path).map_err(|e| format!("{}: no {e}", arg.name()))?;
        let value = entry.pointer(&pointer).cloned().unwrap_or_default();
        let Some(current) = value.as_i64() else {
            return Err(format!("{} is {value}, not a whole number: tune changes whole-number fields", arg.name()));
        };
        Ok(Field { reference: arg.reference.clone(), path: arg.path.clone(), current, low: arg.low, high: arg.high })
    }

    fn name(&self) -> String {
        format!("{}.{}", self.reference, self.path)
    }
}

impl FieldArg {
    fn name(&self) -> String {
        format!("{}.{}", self.reference, self.path)
    }
}

/// What the search read: the values of every field, and the reading.
#[derive(Debug, Clone, serde::Serialize)]
struct Read {
    values: BTreeMap<String, i64>,
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
    ui: &'a Ui<'a>,
}

impl Tuner<'_> {
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
        let dir = tempfile::Builder::new().prefix("arena-tune-").tempdir()?;
        let pack = dir.path().join("arena-tune-candidate");
        std::fs::create_dir(&pack)?;
        std::fs::write(pack.join("pack.toml"), self.pack_toml("arena-tune-candidate", "", values))?;
        std::fs::write(pack.join("tune.toml"), self.patch_toml(values, "candidate", &[]))?;
        let mut paths = self.selection.clone();
        paths.push(pack);
        let options = load::Options { run_script_tests: false, ..load::Options::default() };
        let loaded = load::load(&paths, &options);
        if loaded.has_errors() {
            let errors: Vec<Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
            return Ok(Err(diag::render_human(&errors, &loaded.sources, false)));
        }
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

    /// The patch pack's manifest.
    fn pack_toml(&self, id: &str, schema: &str, values: &[i64]) -> String {
        let changes: Vec<String> = self
            .fields
            .iter()
            .zip(values)
            .filter(|(f, v)| f.current != **v)
            .map(|(f, v)| format!("{} {} -> {v}", f.name(), f.current))
            .collect();
        let title = format!(
            "Tuned by arena tune: {}",
            if changes.is_empty() { "no change".into() } else { changes.join(", ") }
        );
        let mut out = format!(
            "{schema}# Written by `arena tune` (docs/balance-runs.md § arena tune); the evidence is in tune.toml.\nid = {}\nversion = \"0.1.0\"\ngame = {}\ntitle = {}\nauthors = [\"arena tune\"]\ndescription = {}\n\n[dependencies]\n",
            toml_string(id),
            toml_string(&self.game),
            toml_string(&title),
            toml_string(&format!(
                "{} brought to {} ± {} points in {}",
                self.target.words(),
                percent(self.goal.target),
                points(self.goal.precision),
                self.args.scenario
            )),
        );
        for (pack, req) in &self.dependencies {
            out.push_str(&format!("{pack} = {}\n", toml_string(req)));
        }
        out
    }

    /// The patches: one per tuned entry, an op per field, each guarded by
    /// the value it replaces (`expect`); `reason` quotes the evidence.
    fn patch_toml(&self, values: &[i64], reason: &str, comments: &[String]) -> String {
        let mut out = String::new();
        for c in comments {
            out.push_str(&format!("# {c}\n").replace("# \n", "#\n"));
        }
        let mut entries: Vec<&str> = self.fields.iter().map(|f| f.reference.as_str()).collect();
        entries.dedup();
        for entry in entries {
            out.push_str(&format!("\n[[patch]]\ntarget = {}\nreason = {}\n", toml_string(entry), toml_string(reason)));
            for (f, v) in self.fields.iter().zip(values).filter(|(f, _)| f.reference == entry) {
                out.push_str(&format!(
                    "\n[[patch.op]]\nop = \"replace\"\npath = {}\nexpect = {}\nvalue = {v}\n",
                    toml_string(&f.path),
                    f.current
                ));
            }
        }
        out
    }

    fn values_map(&self, values: &[i64]) -> BTreeMap<String, i64> {
        self.fields.iter().zip(values).map(|(f, v)| (f.name(), *v)).collect()
    }

    fn line(&self, read: &Read) -> String {
        let values: Vec<String> = read.values.iter().map(|(f, v)| format!("{f} = {v}")).collect();
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

/// What `arena sim` would be asked for the same options.
fn request(args: &TuneArgs) -> sim::Request {
    sim::Request {
        name: args.scenario.clone(),
        seats: args.seats.map(usize::from),
        players: args.players.len(),
        random_teams: args.random_teams,
        optional_rules: args.optional_rules.clone(),
        seating: None,
        compare: false,
        gods: args.gods.clone(),
        rulebook_deal: false,
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
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

/// A folder name made a pack id (`[a-z0-9-]`).
fn pack_id(dir: &std::path::Path) -> String {
    let name = dir.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    let id: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let id = id.trim_matches('-').to_string();
    if id.is_empty() || !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        format!("tuned-{id}").trim_end_matches('-').to_string()
    } else {
        id
    }
}

/// `arena tune`.
pub(crate) fn tune(args: TuneArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let started = std::time::Instant::now();
    let selection = packs::select(&args.packs, content_paths);
    let loaded = match play::load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let usage = |stderr: &mut dyn Write, e: String| -> anyhow::Result<Exit> {
        writeln!(stderr, "error: {e}")?;
        Ok(2)
    };
    let Some(rules) = sim::game_of_setup(&loaded.content, &args.scenario) else {
        let hint = did_you_mean(&args.scenario, &sim::setup_names(&loaded.content));
        return usage(
            stderr,
            format!("no setup, and no Scenario with a ready-made setup, is called `{}`{hint}", args.scenario),
        );
    };
    let target = match Target::parse(&args.target, &loaded) {
        Ok(t) => t,
        Err(e) => return usage(stderr, format!("--target: {e}")),
    };
    let mut fields = Vec::new();
    for f in &args.fields {
        match Field::resolve(f, &loaded) {
            Ok(field) => fields.push(field),
            Err(e) => return usage(stderr, format!("--field: {e}")),
        }
    }
    if args.seed.checked_add(args.max_games).is_none() {
        return usage(
            stderr,
            format!("--seed {} with --max-games {} {}", args.seed, args.max_games, PAST_THE_LAST_SEED),
        );
    }
    let spec = match rules.resolve(&loaded.content, &request(&args)) {
        Ok(spec) => spec,
        Err(e) => return usage(stderr, e),
    };
    if let Target::Seat(i) = target
        && i >= spec.seats()
    {
        return usage(stderr, format!("--target seat:{}: the game has {} players", i + 1, spec.seats()));
    }
    let even = match target {
        Target::Seat(_) if rules.name() == "aristeia" => 1.0 / spec.seats() as f64,
        _ => 0.5,
    };
    let goal = Goal { target: args.at.map_or(even, |p| p / 100.0), precision: args.precision / 100.0 };
    // Where the pack goes: never over another pack, nor over a loaded one.
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!("tuned-{}", fields[0].reference.split_once(':').map_or("", |(_, id)| id)))
    });
    let written = ["pack.toml", "tune.toml"].iter().any(|f| out.join(f).exists());
    if written && !args.force {
        return usage(
            stderr,
            format!(
                "--out {}: it already holds a pack; give another --out, or --force to replace its pack.toml and tune.toml",
                out.display()
            ),
        );
    }
    if out.exists() && !out.is_dir() {
        return usage(stderr, format!("--out {}: not a folder", out.display()));
    }
    let out_canonical = out.canonicalize().ok();
    if loaded.packs.iter().any(|p| p.root.canonicalize().ok() == out_canonical && out_canonical.is_some()) {
        return usage(
            stderr,
            format!("--out {}: it is one of the packs loaded; write the tuned pack elsewhere", out.display()),
        );
    }
    // The pack depends on every pack that defines or patches a tuned entry.
    let mut dependencies = BTreeMap::new();
    let version_of = |id: &str| {
        loaded.packs.iter().find(|p| *p.manifest.id == *id).map(|p| match &p.version {
            Some(v) => format!("^{}.{}", v.major, v.minor),
            None => format!("^{}", p.manifest.version),
        })
    };
    let mut game = String::new();
    for f in &fields {
        let (kind, id) = f.reference.split_once(':').unwrap_or_default();
        let defining = arena_engine::model::Kind::from_key(kind)
            .and_then(|k| loaded.content.origin(k, id))
            .map(|o| o.pack.to_string());
        let patching = loaded.provenance.get(&f.reference).into_iter().flatten().map(|o| o.pack.clone());
        for pack in defining.clone().into_iter().chain(patching) {
            if let Some(req) = version_of(&pack) {
                dependencies.insert(pack, req);
            }
        }
        if game.is_empty()
            && let Some(p) = defining.and_then(|d| loaded.packs.iter().find(|p| *p.manifest.id == *d))
        {
            game = serde_json::to_value(&p.manifest.game)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
        }
    }
    let tuner = Tuner { args: &args, selection: selection.paths, target, goal, fields, dependencies, game, ui };
    let human = args.format == Output::Human;
    let players: Vec<String> = args.players.iter().map(|p| p.name()).collect();
    let heading = format!(
        "arena tune {}: {} ({}) to {} ± {} points; {} players; seeds from {}, chunks of {}, at most {} a value",
        args.scenario,
        tuner.target.words(),
        tuner.target.name(),
        percent(goal.target),
        points(goal.precision),
        players.join(","),
        args.seed,
        balance::AUTO_CHUNK,
        sim::games_text(args.max_games)
    );
    if human {
        writeln!(stdout, "{heading}")?;
    }
    // The search, field by field; a reading is never played twice.
    let mut values: Vec<i64> = tuner.fields.iter().map(|f| f.current).collect();
    let mut reads: Vec<Read> = Vec::new();
    let mut cache: BTreeMap<Vec<i64>, Played> = BTreeMap::new();
    let mut outcome = Outcome::OutOfRange;
    'fields: for i in 0..tuner.fields.len() {
        let f = &tuner.fields[i];
        let mut search = Search::new(f.low, f.high, values[i]);
        loop {
            let step = search.next(&goal);
            match step {
                Step::Read(v) | Step::Refine(v) => {
                    values[i] = v;
                    // A value read before (by the field before) is not played again.
                    if let (Step::Read(_), Some(r)) = (step, cache.get(&values).and_then(|p| p.reading)) {
                        search.record(v, r);
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
                            writeln!(
                                stderr,
                                "error: --field {} = {v}: the content does not load or play:\n{e}",
                                f.name()
                            )?;
                            return Ok(1);
                        }
                    };
                    let reading = played.reading.unwrap_or(Reading { estimate: 0.0, low: 0.0, high: 1.0, games: 0 });
                    cache.insert(values.clone(), played);
                    let read =
                        Read { values: tuner.values_map(&values), reading, refined: matches!(step, Step::Refine(_)) };
                    if human {
                        writeln!(stdout, "{}", tuner.line(&read))?;
                    } else if !ui.quiet() {
                        writeln!(stderr, "{}", tuner.line(&read))?;
                    }
                    reads.push(read);
                    search.record(v, reading);
                }
                Step::Reached(v) => {
                    values[i] = v;
                    outcome = Outcome::Reached;
                    break 'fields;
                }
                Step::Between(v) => {
                    values[i] = v;
                    outcome = Outcome::Between;
                    break;
                }
                Step::OutOfRange(v) => {
                    values[i] = v;
                    outcome = Outcome::OutOfRange;
                    break;
                }
            }
        }
    }
    let found =
        cache.get(&values).and_then(|p| p.reading).unwrap_or(Reading { estimate: 0.0, low: 0.0, high: 1.0, games: 0 });
    let games: u64 = cache.values().map(|p| p.results.len() as u64).sum();
    let unchanged = tuner.fields.iter().zip(&values).all(|(f, v)| f.current == *v);
    let changes: Vec<String> = tuner
        .fields
        .iter()
        .zip(&values)
        .map(|(f, v)| {
            if f.current == *v {
                format!("{} {v} (unchanged)", f.name())
            } else {
                format!("{} {} -> {v}", f.name(), f.current)
            }
        })
        .collect();
    let evidence = format!(
        "arena tune: {} in {} reads {} [{}-{}] over {} (seeds {}-{}, players {}) with {}; asked {} ± {} points{}",
        tuner.target.words(),
        args.scenario,
        percent(found.estimate),
        percent_bare(found.low),
        percent_bare(found.high),
        sim::games_text(found.games),
        args.seed,
        args.seed + found.games - 1,
        players.join(","),
        changes.join(", "),
        percent(goal.target),
        points(goal.precision),
        match outcome {
            Outcome::Reached => String::new(),
            Outcome::Between => "; no whole value reaches it: the closer of the two around it".into(),
            Outcome::OutOfRange => "; no value of the range reaches it: the closest".into(),
        }
    );
    // Write the pack, unless nothing changes.
    let wrote = if unchanged {
        None
    } else {
        std::fs::create_dir_all(&out).map_err(|e| anyhow::anyhow!("cannot make {}: {e}", out.display()))?;
        let id = pack_id(&out);
        let teams = if args.random_teams { " (random teams)" } else { "" };
        let loaded_packs: Vec<String> =
            loaded.packs.iter().map(|p| format!("{} {}", p.manifest.id, p.manifest.version)).collect();
        let mut comments = vec![
            "Written by `arena tune` (docs/balance-runs.md § arena tune). What it played:".to_string(),
            format!(
                "  {}{teams}, players {}, seeds from {}, on the packs {}",
                args.scenario,
                players.join(","),
                args.seed,
                loaded_packs.join(", ")
            ),
            format!(
                "  target: {} ({}) at {} ± {} points",
                tuner.target.words(),
                tuner.target.name(),
                percent(goal.target),
                points(goal.precision)
            ),
            "What it read (each value on the same seeds):".to_string(),
        ];
        comments.extend(reads.iter().map(|r| tuner.line(r)));
        let schema_pack = scaffold::schema_line(&out, "pack.schema.json");
        let schema_content = scaffold::schema_line(&out, "content.schema.json");
        write_atomically(&out.join("pack.toml"), tuner.pack_toml(&id, &schema_pack, &values).as_bytes())?;
        let patch = format!("{schema_content}{}", tuner.patch_toml(&values, &evidence, &comments));
        write_atomically(&out.join("tune.toml"), patch.as_bytes())?;
        Some(out.clone())
    };
    match args.format {
        Output::Json => {
            let v = serde_json::json!({
                "version": JSON_VERSION,
                "kind": "tune",
                "scenario": args.scenario,
                "target": { "figure": tuner.target.name(), "at": goal.target, "precision": goal.precision },
                "players": players,
                "seed": args.seed,
                "chunk": balance::AUTO_CHUNK,
                "max_games": args.max_games,
                "content_hash": loaded.content_hash(),
                "fields": tuner.fields.iter().zip(&values).map(|(f, v)| serde_json::json!({
                    "field": f.name(), "current": f.current, "low": f.low, "high": f.high, "value": v,
                })).collect::<Vec<_>>(),
                "reads": reads,
                "outcome": outcome.name(),
                "reading": Read { values: tuner.values_map(&values), reading: found, refined: false },
                "games": games,
                "out": wrote.as_ref().map(|p| p.display().to_string()),
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            let what = match outcome {
                Outcome::Reached => "reached",
                Outcome::Between => "not reached (no whole value reaches it; the closer of the two around it)",
                Outcome::OutOfRange => "not reached (no value of the ranges reaches it; the closest)",
            };
            writeln!(
                stdout,
                "{what}: {} reads {} [{}-{}] over {}, asked {} ± {} points",
                changes.join(", "),
                percent(found.estimate),
                percent_bare(found.low),
                percent_bare(found.high),
                sim::games_text(found.games),
                percent(goal.target),
                points(goal.precision)
            )?;
            writeln!(
                stdout,
                "{} values read, {} played, {:.1}s",
                reads.len(),
                sim::games_text(games),
                started.elapsed().as_secs_f64()
            )?;
            match &wrote {
                Some(dir) => {
                    let packs: String = args.packs.iter().map(|p| format!(" --pack {}", p.display())).collect();
                    writeln!(
                        stdout,
                        "wrote {0}/pack.toml and {0}/tune.toml (each op guarded by `expect` on the value it replaces)",
                        dir.display()
                    )?;
                    writeln!(
                        stdout,
                        "next: arena check{packs} --pack {0}   then   arena sim {1} --games 2000 --seed {2}{packs} --pack {0} --compare {3}",
                        dir.display(),
                        args.scenario,
                        args.seed + args.max_games,
                        if args.packs.is_empty() {
                            "content".to_string()
                        } else {
                            args.packs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" --compare ")
                        },
                    )?;
                }
                None => writeln!(
                    stdout,
                    "nothing to change: the current values already read within the precision; no pack written"
                )?,
            }
        }
    }
    Ok(if outcome == Outcome::Reached { 0 } else { 1 })
}
