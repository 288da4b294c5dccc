//! Balance runs across machines: `arena sim --games N --shard I/N` (one part
//! of a batch's seeds), `arena sim merge FILES...` (the parts' reports added up
//! into the figures of the whole batch), and `arena sim --digest` (a hash of
//! each game, to show speed work left every game the same). docs/balance-runs.md.

use super::*;
use arena_engine::sim::{Policy, Report, Shard, Tally, Teams};
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
    /// The shards' reports (`arena sim ... --shard I/N --format json > FILE`), in any order.
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

/// The games a `sim --games` run plays.
pub(crate) struct Batch {
    pub first_seed: u64,
    pub games: u64,
    pub shard: Option<Shard>,
    pub players: Vec<Policy>,
    pub jobs: Option<usize>,
    pub without_games: bool,
    /// The optional rules every game plays (`001 § Additional Rules`).
    pub optional_rules: std::collections::BTreeSet<arena_engine::rules::game::OptionalRule>,
}

impl Batch {
    /// The seeds this run plays: all of the batch's, or its shard's.
    pub fn seeds(&self) -> std::ops::Range<u64> {
        match self.shard {
            Some(s) => s.seeds(self.first_seed, self.games),
            None => self.first_seed..self.first_seed + self.games,
        }
    }

    /// The batch's last seed (of every shard).
    pub fn last_seed(&self) -> u64 {
        (self.first_seed + self.games).saturating_sub(1)
    }
}

pub(crate) fn setup_name(teams: &Teams) -> String {
    match teams {
        Teams::Setup(s) => s.clone(),
        Teams::Random(s) => format!("{s} (random teams)"),
    }
}

pub(crate) fn policy_name(p: &Policy) -> &'static str {
    match p {
        Policy::Greedy => "greedy",
        Policy::Random => "random",
    }
}

/// The `sim-batch` JSON (docs/json.md): a shard's carries `"shard"`, and
/// `"games"` is left out with `--without-games`.
pub(crate) fn batch_json(
    loaded: &Loaded,
    setup: &str,
    batch: &Batch,
    report: &Report,
    tally: &Tally,
    games: Option<serde_json::Value>,
) -> anyhow::Result<serde_json::Value> {
    let seeds = batch.seeds();
    let mut v = serde_json::json!({
        "version": JSON_VERSION,
        "kind": "sim-batch",
        "setup": setup,
        "seeds": [seeds.start, seeds.end.saturating_sub(1)],
        "players": batch.players.iter().map(policy_name).collect::<Vec<_>>(),
        "content_hash": loaded.content_hash(),
    });
    let o = v.as_object_mut().expect("a JSON object");
    if !batch.optional_rules.is_empty() {
        o.insert("optional_rules".into(), serde_json::to_value(&batch.optional_rules)?);
    }
    if let Some(s) = batch.shard {
        o.insert(
            "shard".into(),
            serde_json::json!({ "index": s.index, "count": s.count, "first_seed": batch.first_seed, "games": batch.games }),
        );
    }
    o.insert("report".into(), serde_json::to_value(report)?);
    o.insert("tally".into(), serde_json::to_value(tally)?);
    if let Some(g) = games {
        o.insert("games".into(), g);
    }
    Ok(v)
}

/// The warning above a batch's figures when some of its games had failed
/// effects (undone, so the games went on without them) or stopped on an
/// engine error: the figures are then of games the content did not play as
/// written. `None` for a clean batch.
pub(crate) fn failures_warning(games: usize, with_failed_effects: usize, errors: usize) -> Option<String> {
    (with_failed_effects + errors > 0).then(|| {
        format!(
            "warning: {with_failed_effects} of {games} games had failed effects and {errors} stopped on an engine error: the figures below are of games the content did not play as written"
        )
    })
}

/// The table under the first line of `sim --games` (and of `sim merge`),
/// under [`failures_warning`]'s line when the batch had failures.
pub(crate) fn report_text(loaded: &Loaded, report: &Report, players: &[Policy]) -> String {
    use std::fmt::Write as _;
    let pct =
        |r: &arena_engine::sim::Rate| format!("{:5.1}% [{:.1}-{:.1}]", r.rate * 100.0, r.low * 100.0, r.high * 100.0);
    let mut out = String::new();
    if let Some(line) = failures_warning(report.games, report.games_with_effect_failures, report.errors) {
        let _ = writeln!(out, "{line}");
    }
    for (p, _) in report.win_rate.enumerate() {
        let name = p.to_string();
        let _ = writeln!(
            out,
            "{name} wins {}  mean VP {:.2}  mean Frags {:.2}",
            pct(&report.win_rate[p]),
            report.mean_victory_points[p],
            report.mean_frags[p]
        );
    }
    let _ = writeln!(
        out,
        "draws {}  mean Rounds {:.2}  games with failed effects {}  engine errors {}",
        report.draws, report.mean_rounds, report.games_with_effect_failures, report.errors
    );
    // Each rate beside the table's even share; the seat rows are of the same
    // games, so they are not independent figures.
    let seats = report.win_rate.table().len().max(1);
    let _ = writeln!(
        out,
        "(even share {:.1}% a seat at {seats} seats; the seat rows are of the same games{})",
        100.0 / seats as f64,
        if seats == 2 {
            ": complementary, one side's wins are the other's losses, with the draws making 100%"
        } else {
            ": they add up, with the draws, to 100%"
        }
    );
    // 001 § Preparation: position 1 received the Prime Time marker at Team
    // Creation (it picked first and last); the others follow clockwise.
    for (i, at) in report.by_position.iter().enumerate() {
        let who = if i == 0 { "(first Prime Time)".to_string() } else { format!("({i} left of it)") };
        let _ = writeln!(
            out,
            "position {} {who:<19} wins {}  mean VP {:.2}",
            i + 1,
            pct(&at.win_rate),
            at.mean_victory_points
        );
    }
    out + &play::character_table(loaded, report, players)
}

/// `arena sim --games N --digest`: one line per game, `seed DIGEST`, then `all DIGEST`.
pub(crate) fn digest_batch(
    loaded: &Loaded,
    teams: &Teams,
    rules: &std::collections::BTreeSet<arena_engine::rules::game::OptionalRule>,
    seeds: std::ops::Range<u64>,
    players: &[Policy],
    stdout: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let content = std::sync::Arc::new(loaded.content.clone());
    let (each, all) =
        arena_engine::sim::digests_with_rules(content, loaded.script_set.clone(), teams, rules, seeds, players)
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
    tally: Tally,
}

fn read_shard(path: &std::path::Path) -> Result<ShardFile, String> {
    // At most 64 MiB, as `run` and `replay` read (`/dev/zero` fails at once).
    let text = arena_engine::read::read_text_limited(path, arena_engine::read::MAX_TOOL_FILE).map_err(|e| {
        if e.contains(" is larger than ") {
            format!(
                "{e} (a shard's list of games is about 1 KiB a game: play more, smaller shards, or add --without-games)"
            )
        } else {
            e
        }
    })?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not a JSON report: {e}", path.display()))?;
    if json["kind"] != "sim-batch" && json["kind"] != "sim-compare" {
        return Err(format!("{}: not the JSON of `arena sim --games N --format json`", path.display()));
    }
    let s = &json["shard"];
    let (Some(index), Some(count), Some(first_seed), Some(games)) =
        (s["index"].as_u64(), s["count"].as_u64(), s["first_seed"].as_u64(), s["games"].as_u64())
    else {
        return Err(format!("{}: not a shard's report (run `arena sim` with --shard I/N)", path.display()));
    };
    let shard = format!("{index}/{count}").parse::<Shard>().map_err(|e| format!("{}: {e}", path.display()))?;
    let tally = serde_json::from_value(json["tally"].clone())
        .map_err(|e| format!("{}: its `tally` does not read: {e}", path.display()))?;
    Ok(ShardFile { path: path.to_path_buf(), json, shard, first_seed, games, tally })
}

/// Check the shards are the N parts of one batch, each once, on these packs,
/// and sort them in seed order.
fn check_shards(mut shards: Vec<ShardFile>, content_hash: &str) -> Result<Vec<ShardFile>, String> {
    shards.sort_by_key(|s| s.shard.index);
    let first = &shards[0];
    let same = ["kind", "setup", "players", "content_hash", "optional_rules"];
    for s in &shards {
        for key in same {
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
        match read_shard(f) {
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
    let mut tally = shards[0].tally.clone();
    for s in &shards[1..] {
        if let Err(e) = tally.merge(&s.tally) {
            writeln!(stderr, "error: {}: {e}", s.path.display())?;
            return Ok(2);
        }
    }
    let report = tally.report();
    let first = &shards[0];
    let setup = first.json["setup"].as_str().unwrap_or_default().to_string();
    let players = first.json["players"].as_array().cloned().unwrap_or_default();
    let batch = Batch {
        first_seed: first.first_seed,
        games: first.games,
        shard: None,
        players: players.iter().map(|p| if p == "random" { Policy::Random } else { Policy::Greedy }).collect(),
        jobs: None,
        without_games: false,
        optional_rules: first.json["optional_rules"]
            .as_array()
            .map(|rules| rules.iter().filter_map(|r| r.as_str()?.parse().ok()).collect())
            .unwrap_or_default(),
    };
    if first.json["kind"] == "sim-compare" {
        let parts: Vec<super::compare::Part> = shards
            .iter()
            .map(|s| super::compare::Part { path: &s.path, json: &s.json, seeds: s.shard.seeds(s.first_seed, s.games) })
            .collect();
        return super::compare::merge(
            &args.compare,
            &parts,
            &loaded,
            &setup,
            &batch,
            &tally,
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
            let v = batch_json(&loaded, &setup, &batch, &report, &tally, games)?;
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            writeln!(
                stdout,
                "{} games of {setup}, seeds {}-{}, merged from {} shards",
                report.games,
                batch.first_seed,
                batch.last_seed(),
                shards.len()
            )?;
            write!(stdout, "{}", report_text(&loaded, &report, &batch.players))?;
            for f in tally.failures.iter().take(if ui.verbose() { usize::MAX } else { 5 }) {
                writeln!(stderr, "seed {}: {}", f.seed, f.what)?;
            }
        }
    }
    Ok(if report.errors + report.games_with_effect_failures > 0 { 1 } else { 0 })
}
