//! Balance runs across machines: `arena sim --games N --shard I/N` (one part
//! of a batch's seeds), `arena sim merge FILES...` (the parts' reports added up
//! into the figures of the whole batch), and `arena sim --digest` (a hash of
//! each game, to show speed work left every game the same), written once for
//! every game: the game of a shard is found in the registry by its JSON's
//! `kind` (`sim::game_of_batch`), its tally read and merged by its game.
//! docs/balance-runs.md.

use super::*;
use arena_engine::sim::{AristeiaRules, BatchTally, Policy, Rules, Shard, Spec, game_of_batch};
use std::collections::BTreeSet;

#[derive(clap::Subcommand, Debug)]
pub(crate) enum SimCommand {
    /// Add up the `--format json` reports of the shards of one batch (`arena
    /// sim --games N --shard I/N`) into exactly the report, JSON or table, the
    /// whole batch gives on one machine. Every shard 1..N must be given once;
    /// the packs must be the ones the shards played (their content hash).
    Merge(MergeArgs),
}

#[derive(clap::Args, Debug)]
pub(crate) struct MergeArgs {
    /// The shards' reports (`arena sim ... --shard I/N --format json > FILE`),
    /// in any order; one of them may be `-`, standard input.
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Packs to load (for the content hash check and the per-Character rows). Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Output format: the table (`human`) or the batch's JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
    /// The base packs of a comparison's shards (`sim --compare`), as they were played.
    #[arg(long = "compare", value_name = "BASE_PACK")]
    compare: Vec<PathBuf>,
}

/// `--games auto` plays its games in chunks of this many, checking the
/// interval after each: the figures are those of `--games N` for the N
/// reached (the same seeds from the first on), so a run is reproducible.
pub(crate) const AUTO_CHUNK: u64 = 200;

/// `--games auto`'s ceiling when `--max-games` is not given.
pub(crate) const AUTO_MAX_GAMES: u64 = 10_000;

/// What `sim --games auto` plays until (docs/balance-runs.md § How many games).
pub(crate) struct Auto {
    /// The half-width of the 95% interval to reach, in percentage points.
    pub precision: f64,
    /// Whose interval decides.
    pub figure: Figure,
    /// The most games to play.
    pub max_games: u64,
}

/// The figure whose interval `--games auto` narrows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Figure {
    /// Every seat's win rate: the widest interval decides.
    Seat,
    /// An Aristeia! Character's side win rate (its row of the readout).
    Character(String),
    /// An Invictus god's win rate (its row).
    God(String),
}

impl Auto {
    /// `--precision`, `--precision-of` (`seat`, `character:ID`, `god:ID`) and `--max-games`.
    ///
    /// # Errors
    /// The figure is none of those, or its id is not loaded.
    pub fn new(loaded: &Loaded, precision: f64, of: &str, max_games: u64) -> Result<Auto, String> {
        let figure = match of.split_once(':') {
            None if of == "seat" => Figure::Seat,
            Some(("character", id)) => {
                if !loaded.content.characters.contains_key(id) {
                    return Err(format!("no Character `{id}` is loaded"));
                }
                Figure::Character(id.to_string())
            }
            Some(("god", id)) => {
                if !loaded.content.gods.contains_key(id) {
                    return Err(format!("no god `{id}` is loaded"));
                }
                Figure::God(id.to_string())
            }
            _ => return Err(format!("`{of}`: `seat`, `character:ID` or `god:ID`")),
        };
        Ok(Auto { precision, figure, max_games })
    }

    /// The half-width, in percentage points, of the 95% interval of the
    /// figure in a batch's report (`BatchTally::report_json`): the widest of
    /// the seats'; `None` while the figure has no row (a Character not yet
    /// dealt) or the report has no such figure (a Character in Invictus).
    pub fn half_width(&self, report: &serde_json::Value) -> Option<f64> {
        let half = |r: &serde_json::Value| Some((r.get("high")?.as_f64()? - r.get("low")?.as_f64()?) * 50.0);
        match &self.figure {
            Figure::Seat => {
                // Aristeia!: `win_rate` per seat; Invictus: `seats[i].rate`.
                let rows: Vec<&serde_json::Value> = match (report.get("win_rate"), report.get("seats")) {
                    (Some(serde_json::Value::Array(rows)), _) => rows.iter().collect(),
                    (_, Some(serde_json::Value::Array(rows))) => rows.iter().filter_map(|r| r.get("rate")).collect(),
                    _ => return None,
                };
                rows.into_iter().map(half).collect::<Option<Vec<f64>>>()?.into_iter().reduce(f64::max)
            }
            Figure::Character(id) => half(report.get("characters")?.get(id)?),
            Figure::God(id) => half(report.get("gods")?.get(id)?.get("rate")?),
        }
    }

    /// What a run that played `games` games found (`reached`: the half-width
    /// when it stopped, `None` if the figure never had a row).
    pub fn outcome(&self, games: u64, reached: Option<f64>) -> AutoOutcome {
        AutoOutcome {
            games,
            precision: self.precision,
            figure: match &self.figure {
                Figure::Seat => "seat".into(),
                Figure::Character(id) => format!("character:{id}"),
                Figure::God(id) => format!("god:{id}"),
            },
            half_width: reached,
            max_games: self.max_games,
        }
    }
}

/// How `--games auto` ended.
pub(crate) struct AutoOutcome {
    games: u64,
    precision: f64,
    figure: String,
    half_width: Option<f64>,
    max_games: u64,
}

impl AutoOutcome {
    fn reached(&self) -> bool {
        self.half_width.is_some_and(|h| h <= self.precision)
    }

    /// The line printed under the heading.
    pub fn line(&self) -> String {
        let of = if self.figure == "seat" { "every seat's win rate".to_string() } else { self.figure.clone() };
        let games = arena_engine::rules::event::count(self.games.min(u64::from(u32::MAX)) as u32, "game");
        match self.half_width {
            Some(h) if self.reached() => format!(
                "--games auto: {games} until the 95% interval of {of} was within ±{h:.1} points (asked: ±{:.1}; in chunks of {AUTO_CHUNK})",
                self.precision
            ),
            Some(h) => format!(
                "--games auto: stopped at the ceiling of {games} (--max-games {}): the 95% interval of {of} is ±{h:.1} points, wider than the ±{:.1} asked",
                self.max_games, self.precision
            ),
            None => format!(
                "--games auto: stopped at the ceiling of {games} (--max-games {}): {of} has no row in these games",
                self.max_games
            ),
        }
    }

    /// The batch JSON's `"auto"`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "figure": self.figure,
            "precision": self.precision,
            "half_width": self.half_width,
            "reached": self.reached(),
            "games": self.games,
            "max_games": self.max_games,
            "chunk": AUTO_CHUNK,
        })
    }
}

/// The games a `sim --games` run plays.
pub(crate) struct Batch {
    pub first_seed: u64,
    pub games: u64,
    pub shard: Option<Shard>,
    pub players: Vec<Policy>,
    pub jobs: Option<usize>,
    pub without_games: bool,
    /// The head of the batch JSON: its `setup` and the game's own keys
    /// (`Spec::head`; Aristeia!'s `optional_rules`).
    pub head: serde_json::Map<String, serde_json::Value>,
}

impl Batch {
    /// The seeds this run plays: all of the batch's, or its shard's.
    pub fn seeds(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(s) => s.seeds(self.first_seed, self.games),
            None => self.first_seed..self.first_seed + self.games,
        }
    }

    /// The worker threads it plays on: `--jobs`, or the machine's cores.
    pub fn worker_jobs(&self) -> usize {
        self.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// The batch's last seed (of every shard).
    pub fn last_seed(&self) -> u64 {
        (self.first_seed + self.games).saturating_sub(1)
    }
}

/// The batch JSON (docs/json.md; `kind` is its game's: `sim-batch`,
/// `invictus-sim-batch`): a shard's carries `"shard"`, and `"games"` is
/// left out with `--without-games`.
pub(crate) fn batch_json(
    loaded: &Loaded,
    kind: &str,
    batch: &Batch,
    tally: &dyn BatchTally,
    games: Option<serde_json::Value>,
) -> anyhow::Result<serde_json::Value> {
    batch_json_of(loaded, kind, batch, tally.report_json(), tally.to_json(), games)
}

/// [`batch_json`] with the report and tally given as JSON.
pub(crate) fn batch_json_of(
    loaded: &Loaded,
    kind: &str,
    batch: &Batch,
    report: serde_json::Value,
    tally: serde_json::Value,
    games: Option<serde_json::Value>,
) -> anyhow::Result<serde_json::Value> {
    let seeds = batch.seeds();
    let mut v = serde_json::json!({
        "version": JSON_VERSION,
        "kind": kind,
        "setup": batch.head.get("setup").cloned().unwrap_or_default(),
        "seeds": [seeds.start, seeds.end.saturating_sub(1)],
        "players": batch.players.iter().map(|p| p.name()).collect::<Vec<_>>(),
        "content_hash": loaded.content_hash(),
    });
    let o = v.as_object_mut().expect("a JSON object");
    for (key, value) in batch.head.iter().filter(|(k, _)| *k != "setup") {
        o.insert(key.clone(), value.clone());
    }
    if let Some(s) = batch.shard {
        o.insert(
            "shard".into(),
            serde_json::json!({ "index": s.index, "count": s.count, "first_seed": batch.first_seed, "games": batch.games }),
        );
    }
    o.insert("report".into(), report);
    o.insert("tally".into(), tally);
    if let Some(g) = games {
        o.insert("games".into(), g);
    }
    Ok(v)
}

/// `arena sim --games N --digest`: one line per game, `seed DIGEST`, then `all DIGEST`.
pub(crate) fn digest_batch(
    loaded: &Loaded,
    spec: &dyn Spec,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    stdout: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let (each, all) = arena_engine::sim::digests_of(spec, &loaded.content, loaded.script_set.clone(), seeds, players)
        .map_err(|e| anyhow::anyhow!(e))?;
    for (seed, d) in &each {
        writeln!(stdout, "{seed} {d}")?;
    }
    writeln!(stdout, "all {all}")?;
    Ok(0)
}

/// One shard's report, as read back.
struct ShardFile {
    path: PathBuf,
    json: serde_json::Value,
    shard: Shard,
    first_seed: u64,
    games: u64,
    /// The game whose batch it is.
    rules: &'static dyn arena_engine::sim::Rules,
    tally: Box<dyn BatchTally>,
}

/// The keys of a batch JSON that are the runner's, not the game's own
/// (`Spec::head`) nor of one batch as a whole: a comparison's counts, each
/// shard's part.
const ENVELOPE: [&str; 12] = [
    "version",
    "kind",
    "seeds",
    "players",
    "content_hash",
    "shard",
    "report",
    "tally",
    "games",
    "base_content_hash",
    "base_tally",
    "paired",
];

fn read_shard(path: &std::path::Path, stdin: &crate::Stdin) -> Result<ShardFile, String> {
    // At most 64 MiB, as `run` and `replay` read (`/dev/zero` fails at once).
    let text = stdin.read_text_limited(path, arena_engine::read::MAX_TOOL_FILE).map_err(|e| {
        if e.contains(" is larger than ") {
            format!(
                "{e} (a shard's list of games is about 1 KiB a game: play more, smaller shards, or add --without-games)"
            )
        } else {
            e
        }
    })?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not a JSON report: {e}", crate::stdio::name(path)))?;
    let kind = json["kind"].as_str().unwrap_or_default();
    // A comparison's shard holds the changed packs' Aristeia! batch.
    let game = if kind == super::compare::KIND { Some(&AristeiaRules as &dyn Rules) } else { game_of_batch(kind) };
    let Some(rules) = game else {
        return Err(format!("{}: not the JSON of `arena sim --games N --format json`", crate::stdio::name(path)));
    };
    let s = &json["shard"];
    let (Some(index), Some(count), Some(first_seed), Some(games)) =
        (s["index"].as_u64(), s["count"].as_u64(), s["first_seed"].as_u64(), s["games"].as_u64())
    else {
        return Err(format!("{}: not a shard's report (run `arena sim` with --shard I/N)", crate::stdio::name(path)));
    };
    let shard =
        format!("{index}/{count}").parse::<Shard>().map_err(|e| format!("{}: {e}", crate::stdio::name(path)))?;
    let tally = rules
        .read_tally(&json["tally"])
        .map_err(|e| format!("{}: its `tally` does not read: {e}", crate::stdio::name(path)))?;
    Ok(ShardFile { path: path.to_path_buf(), json, shard, first_seed, games, rules, tally })
}

/// Check the shards are the N parts of one batch, each once, on these packs,
/// and sort them in seed order.
fn check_shards(mut shards: Vec<ShardFile>, content_hash: &str) -> Result<Vec<ShardFile>, String> {
    shards.sort_by_key(|s| s.shard.index);
    let first = &shards[0];
    // Every key but each shard's own part: the game's (`kind`, `setup`,
    // its own head keys), the players and the packs.
    let keys =
        |s: &ShardFile| -> Vec<String> { s.json.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default() };
    let mut same: Vec<String> = ["kind", "players", "content_hash"].map(String::from).to_vec();
    for key in shards.iter().flat_map(keys) {
        if !same.contains(&key) && !ENVELOPE.contains(&key.as_str()) {
            same.push(key);
        }
    }
    for s in &shards {
        for key in same.iter().map(String::as_str) {
            if s.json[key] != first.json[key] {
                return Err(format!(
                    "{} and {} are not shards of one batch: their `{key}` differ ({} and {})",
                    first.path.display(),
                    s.path.display(),
                    first.json[key],
                    s.json[key]
                ));
            }
        }
        if (s.shard.count, s.first_seed, s.games) != (first.shard.count, first.first_seed, first.games) {
            return Err(format!(
                "{} and {} are not shards of one batch: {} games from seed {} in {} shards, and {} from {} in {}",
                first.path.display(),
                s.path.display(),
                first.games,
                first.first_seed,
                first.shard.count,
                s.games,
                s.first_seed,
                s.shard.count
            ));
        }
    }
    if first.json["content_hash"] != content_hash {
        return Err(format!(
            "the shards played other content (content hash {}) than these packs ({content_hash}): merge with the packs they played (--pack)",
            first.json["content_hash"]
        ));
    }
    let (count, games) = (first.shard.count, first.games);
    if count > games {
        return Err(format!(
            "{}: {count} shards of a batch of {games} games: a batch has at most one shard per game",
            first.path.display()
        ));
    }
    if first.first_seed.checked_add(games).is_none() {
        return Err(format!(
            "{}: {games} games from seed {} pass the last seed (2^64 - 1)",
            first.path.display(),
            first.first_seed
        ));
    }
    for w in shards.windows(2) {
        if w[0].shard.index == w[1].shard.index {
            return Err(format!(
                "shard {} is given twice: {} and {}",
                w[0].shard,
                w[0].path.display(),
                w[1].path.display()
            ));
        }
    }
    // Each index is given at most once and is at most `count`: the missing
    // ones are as many as the files given fall short, and the first 20 of
    // them lie among the first `files + 20` indices (no list of all of them).
    if (shards.len() as u64) < count {
        let given: BTreeSet<u64> = shards.iter().map(|s| s.shard.index).collect();
        let shown: Vec<String> =
            (1..=count).filter(|i| !given.contains(i)).take(20).map(|i| format!("{i}/{count}")).collect();
        let more = if count - shards.len() as u64 > 20 { ", ..." } else { "" };
        return Err(format!("{} of {count} shards missing: {}{more}", count - shards.len() as u64, shown.join(", ")));
    }
    let seats = first.json["players"].as_array().map_or(0, Vec::len);
    for s in &shards {
        s.tally
            .check(s.shard.seeds(s.first_seed, s.games), seats)
            .map_err(|e| format!("{}: its tally cannot be that of shard {}: {e}", s.path.display(), s.shard))?;
    }
    Ok(shards)
}

/// `arena sim merge FILES...`.
pub(crate) fn merge(args: MergeArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let mut shards = Vec::new();
    for f in &args.files {
        match read_shard(f, ui.stdin) {
            Ok(s) => shards.push(s),
            Err(e) => {
                writeln!(stderr, "error: {e}")?;
                return Ok(2);
            }
        }
    }
    let loaded = match play::load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let shards = match check_shards(shards, &loaded.content_hash()) {
        Ok(s) => s,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    let mut shards = shards;
    let rules = shards[0].rules;
    let mut tally = std::mem::replace(&mut shards[0].tally, rules.tally(&[]));
    for s in &shards[1..] {
        if let Err(e) = tally.merge(&*s.tally) {
            writeln!(stderr, "error: {}: {e}", s.path.display())?;
            return Ok(2);
        }
    }
    let first = &shards[0];
    let players = first.json["players"].as_array().cloned().unwrap_or_default();
    let head: serde_json::Map<String, serde_json::Value> = first
        .json
        .as_object()
        .map(|o| {
            o.iter().filter(|(k, _)| !ENVELOPE.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()
        })
        .unwrap_or_default();
    let batch = Batch {
        first_seed: first.first_seed,
        games: first.games,
        shard: None,
        players: players.iter().map(|p| if p == "random" { Policy::Random } else { Policy::Greedy }).collect(),
        jobs: None,
        without_games: false,
        head,
    };
    if first.json["kind"] == super::compare::KIND {
        let parts: Vec<super::compare::Part> = shards
            .iter()
            .map(|s| super::compare::Part { path: &s.path, json: &s.json, seeds: s.shard.seeds(s.first_seed, s.games) })
            .collect();
        let Some(tally) = tally.as_any().downcast_ref::<arena_engine::sim::Tally>() else {
            writeln!(stderr, "error: {}: not a comparison's tally", first.path.display())?;
            return Ok(2);
        };
        let setup = first.json["setup"].as_str().unwrap_or_default().to_string();
        return super::compare::merge(
            &args.compare,
            &parts,
            &loaded,
            &setup,
            &batch,
            tally,
            args.format,
            ui,
            stdout,
            stderr,
        );
    }
    if !args.compare.is_empty() {
        writeln!(
            stderr,
            "error: --compare merges a comparison's shards; these are a batch's (`sim` without --compare)"
        )?;
        return Ok(2);
    }
    match args.format {
        Output::Json => {
            // The per-game list, when every shard kept its own: in seed order.
            let games = shards
                .iter()
                .map(|s| s.json.get("games").and_then(|g| g.as_array()).cloned())
                .collect::<Option<Vec<_>>>()
                .map(|lists| serde_json::Value::Array(lists.into_iter().flatten().collect()));
            let v = batch_json(&loaded, rules.batch_kind(), &batch, &*tally, games)?;
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            writeln!(
                stdout,
                "{}, seeds {}-{}, merged from {} shards",
                rules.heading(&serde_json::Value::Object(batch.head.clone()), batch.games),
                batch.first_seed,
                batch.last_seed(),
                shards.len()
            )?;
            let context = arena_engine::sim::ReportContext {
                content: &loaded.content,
                under_test: play::under_test(&loaded),
                verbose: ui.verbose(),
            };
            let text = tally.text(&[], &batch.players, &context);
            write!(stdout, "{}", text.out)?;
            write!(stderr, "{}", text.err)?;
        }
    }
    Ok(if tally.clean() { 0 } else { 1 })
}
