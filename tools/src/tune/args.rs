//! `arena tune`'s arguments: the command line (`TuneArgs`), the figure it
//! aims at (`Target`) and the fields it may change (`Field`), each read and
//! checked against the loaded content.

use crate::*;
use arena_engine::sim::tune::Reading;
use arena_engine::sim::{self, Policy};

#[derive(clap::Args, Debug)]
pub(crate) struct TuneArgs {
    /// The Scenario, setup or game the batches play (as `arena sim` takes it).
    #[arg(add = complete::games())]
    pub(super) scenario: String,
    /// The figure to bring to --at: `seat:N` (player N's win rate),
    /// `character:ID` (a Character's adjusted strength, the readout's
    /// logistic fit over team compositions: give --random-teams so teams
    /// vary) or `god:ID` (an Invictus god's win rate)
    #[arg(long, value_name = "FIGURE")]
    pub(super) target: String,
    /// The target, in percent [default: the even share for `seat:N` (50 at
    /// 2 players, 33.3 at 3, 25 at 4; 50 in Invictus's team games), else 50]
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub(super) at: Option<f64>,
    /// A whole-number field it may change, and its range:
    /// `KIND:ID.PATH=LOW..HIGH` (`character:laxmee.hit_points=3..8`,
    /// `character:parvati.actions[id=submachine-guns].cost=1..2`; paths as
    /// patches write them, docs/patches.md). Repeat for more: each is
    /// searched in turn, the next only when the one before cannot reach the
    /// target, from the closest value it found
    #[arg(long = "field", value_name = "KIND:ID.PATH=LOW..HIGH", required = true, value_parser = parse_field)]
    pub(super) fields: Vec<FieldArg>,
    /// The half-width of the band around --at that counts as reached, and of
    /// the 95% interval a value's reading must have, in percentage points
    #[arg(long, value_name = "POINTS", default_value_t = 2.0, value_parser = parse_points)]
    pub(super) precision: f64,
    /// The most games played for one value (chunks of 200 until the reading
    /// is within the precision or clearly outside the band)
    #[arg(long, value_name = "N", default_value_t = balance::AUTO_MAX_GAMES, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) max_games: u64,
    /// Where to write the patch pack (a folder; its name, made an id, is the pack's id)
    /// [default: tuned-ID, ID the first field's entry]
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Replace the pack.toml and tune.toml of an --out folder that already has them
    #[arg(long)]
    pub(super) force: bool,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    pub(super) packs: Vec<PathBuf>,
    /// One controller per seat (greedy, random, mcts, mcts:N), as `arena sim` takes them.
    #[arg(long, value_delimiter = ',', default_value = "greedy", value_parser = parse_engine_player, add = complete::players())]
    pub(super) players: Vec<Policy>,
    /// How many players, as `arena sim --seats`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=6))]
    pub(super) seats: Option<u8>,
    /// Random teams from every loaded Character, one draw per seed (the
    /// same teams for every value tried).
    #[arg(long)]
    pub(super) random_teams: bool,
    /// An optional rule of Prime Time (repeat for more), as `arena sim --optional-rule`.
    #[arg(long = "optional-rule", value_name = "NAME")]
    pub(super) optional_rules: Vec<String>,
    /// Invictus only: the gods of the seats, as `arena sim --gods`.
    #[arg(long, value_delimiter = ',', value_name = "GOD,...", add = complete::gods())]
    pub(super) gods: Vec<String>,
    /// The first seed: every value is played on the seeds from it on.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub(super) jobs: Option<usize>,
    /// Output format: the search as it goes (`human`) or one JSON document at the end.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    pub(super) format: Output,
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
    pub(super) reference: String,
    pub(super) path: String,
    pub(super) low: i64,
    pub(super) high: i64,
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
pub(super) enum Target {
    /// A seat's win rate (index from 0).
    Seat(usize),
    /// An Aristeia! Character's adjusted strength (`report.strength`).
    Character(String),
    /// An Invictus god's win rate.
    God(String),
}

impl Target {
    pub(super) fn parse(s: &str, loaded: &Loaded) -> Result<Target, String> {
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

    pub(super) fn name(&self) -> String {
        match self {
            Target::Seat(i) => format!("seat:{}", i + 1),
            Target::Character(id) => format!("character:{id}"),
            Target::God(id) => format!("god:{id}"),
        }
    }

    /// What it is, in words.
    pub(super) fn words(&self) -> String {
        match self {
            Target::Seat(i) => format!("player {}'s win rate", i + 1),
            Target::Character(id) => format!("the adjusted strength of {id}"),
            Target::God(id) => format!("{id}'s win rate"),
        }
    }

    /// Its reading in a batch's report (`BatchTally::report_json`); `None`
    /// while it has no row (a Character not yet dealt, no strength fit).
    pub(super) fn read(&self, report: &serde_json::Value) -> Option<Reading> {
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
pub(super) struct Field {
    pub(super) reference: String,
    pub(super) path: String,
    pub(super) current: i64,
    pub(super) low: i64,
    pub(super) high: i64,
}

impl Field {
    pub(super) fn resolve(arg: &FieldArg, loaded: &Loaded) -> Result<Field, String> {
        let Some(entry) = arena_engine::patch::entry_json(loaded, &arg.reference) else {
            let known = arena_engine::patch::references(loaded);
            return Err(format!("no entry `{}` is loaded{}", arg.reference, did_you_mean(&arg.reference, &known)));
        };
        let (pointer, _) = arena_engine::patch::keyed_pointer(&entry, &arg.path).map_err(|e| {
            // A misspelt key of the entry itself: the nearest of its keys.
            let first = arg.path.split(['.', '[']).next().unwrap_or_default();
            let keys: Vec<String> = entry.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
            let hint = if keys.iter().any(|k| k == first) { String::new() } else { did_you_mean(first, &keys) };
            format!("{}: no {e}{hint}", arg.name())
        })?;
        let value = entry.pointer(&pointer).cloned().unwrap_or_default();
        let Some(current) = value.as_i64() else {
            return Err(format!("{} is {value}, not a whole number: tune changes whole-number fields", arg.name()));
        };
        Ok(Field { reference: arg.reference.clone(), path: arg.path.clone(), current, low: arg.low, high: arg.high })
    }

    pub(super) fn name(&self) -> String {
        format!("{}.{}", self.reference, self.path)
    }
}

impl FieldArg {
    pub(super) fn name(&self) -> String {
        format!("{}.{}", self.reference, self.path)
    }
}

/// The options of `arena sim` that play the games the search played
/// (` --random-teams --players mcts`), for the command it suggests.
pub(super) fn same_play(args: &TuneArgs) -> String {
    let mut out = String::new();
    if args.random_teams {
        out.push_str(" --random-teams");
    }
    if args.players.iter().any(|p| *p != Policy::Greedy) {
        let names: Vec<String> = args.players.iter().map(|p| p.name()).collect();
        out.push_str(&format!(" --players {}", names.join(",")));
    }
    if let Some(n) = args.seats {
        out.push_str(&format!(" --seats {n}"));
    }
    for r in &args.optional_rules {
        out.push_str(&format!(" --optional-rule {r}"));
    }
    if !args.gods.is_empty() {
        out.push_str(&format!(" --gods {}", args.gods.join(",")));
    }
    out
}

/// What `arena sim` would be asked for the same options.
pub(super) fn request(args: &TuneArgs) -> sim::Request {
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
