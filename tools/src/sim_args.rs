//! `arena sim`'s arguments (`SimArgs`) and the parsers of their values:
//! `--games N|auto`, `--restrict`, `--precision`, `--optional-rule`.

use super::*;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub(crate) struct SimArgs {
    /// A Scenario id (`assault`: its first ready-made setup is used), a setup id
    /// (`first-game`) or a game (`invictus`): the registry of games says whose it is.
    #[arg(required = true, add = complete::games())]
    pub(crate) scenario: Option<String>,
    #[command(subcommand)]
    pub(crate) command: Option<balance::SimCommand>,
    /// The RNG seed: the same seed and content give the same game.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    pub(crate) packs: Vec<PathBuf>,
    /// Output format: the narrative (`human`) or the events as JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    pub(crate) format: Output,
    /// One controller per seat, clockwise from player 1: `greedy`, `random`,
    /// `mcts` (the search player, docs/players.md; `mcts:N` searches N
    /// iterations a Decision) or `human` (`--players greedy,random,greedy`
    /// seats three players). One
    /// value plays every seat; how many seats is then --seats, the setup's
    /// teams, or the Scenario's default (2, or 3 for a Prime Time Scenario).
    /// For Invictus the controllers are cycled over the --seats players.
    #[arg(long, value_delimiter = ',', default_value = "greedy", value_parser = parse_player_kind, add = complete::players())]
    pub(crate) players: Vec<PlayerKind>,
    /// How many players: 2 for Aristeia!, 3-4 for the Prime Time Scenarios
    /// (when --players gives one value for all of them); for Invictus 2, 4
    /// or 6 (3-6 with --seating free-for-all; default 4).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=6))]
    pub(crate) seats: Option<u8>,
    /// Invictus only: how the two teams sit (`003 § Team Assignment`), or a
    /// free-for-all [default: standard]
    #[arg(long, value_enum)]
    pub(crate) seating: Option<SeatingArg>,
    /// Invictus only: the god of each seat, in seat order (`--gods
    /// athena,zeus,hades,hermes` at 4 seats), instead of dealing two to each
    /// seat and choosing one; every game of a batch seats them so.
    #[arg(long, value_delimiter = ',', value_name = "GOD,...", add = complete::gods())]
    pub(crate) gods: Vec<String>,
    /// Invictus only: how gods come to the seats without --gods: one to each
    /// seat, every god equally often at every seat over a batch (`even`), or
    /// the rulebook's two dealt to each seat and one chosen (`003 § Character
    /// Assignment`; which gods play then depends on how the players choose)
    /// [default: even]
    #[arg(long, value_enum)]
    pub(crate) deal: Option<DealArg>,
    /// Play this many games (at least 1), with seeds from --seed on, and print
    /// statistics; `auto`: play until the 95% interval of --precision-of is
    /// within ±--precision points, at most --max-games (docs/balance-runs.md
    /// § How many games)
    #[arg(long, value_name = "N|auto", value_parser = parse_games)]
    pub(crate) games: Option<Games>,
    /// With --games auto: the half-width of the 95% interval to reach, in
    /// percentage points (the ± of the figure asked about) [default: 2]
    #[arg(long, value_name = "POINTS", value_parser = parse_precision)]
    pub(crate) precision: Option<f64>,
    /// With --games auto: the figure whose interval decides: `seat` (every
    /// seat's win rate; the widest decides), `character:ID` (a Character's
    /// side wins, Aristeia!) or `god:ID` (Invictus) [default: seat]
    #[arg(long, value_name = "FIGURE")]
    pub(crate) precision_of: Option<String>,
    /// With --games auto: the most games to play [default: 10000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) max_games: Option<u64>,
    /// Worker threads for --games (at least 1; default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub(crate) jobs: Option<usize>,
    /// Write a replay file of the game (format 2: game, content hash, packs,
    /// setup, seed, answers, events; `arena replay FILE` checks it). `-`:
    /// the replay is standard output, and the game's narrative (or JSON) goes to stderr.
    #[arg(long, value_name = "FILE")]
    pub(crate) replay: Option<PathBuf>,
    /// Random teams from every loaded Character, drawn from the seed (with
    /// --games, one draw per seed), instead of the ready-made setup (a Prime
    /// Time Scenario without one gets random teams anyway)
    #[arg(long)]
    pub(crate) random_teams: bool,
    /// Play only the I-th of N disjoint parts of the --games seeds (I from 1);
    /// `arena sim merge` adds the parts' `--format json` reports up (docs/balance-runs.md)
    #[arg(long, value_name = "I/N", requires = "games")]
    pub(crate) shard: Option<arena_engine::sim::Shard>,
    /// With --games and --format json: leave the per-game list out (a big
    /// balance run's reports stay small, and still merge)
    #[arg(long, requires = "games")]
    pub(crate) without_games: bool,
    /// With --games: print each game's digest (a hash of its events and
    /// answers) and one of them all, instead of statistics
    #[arg(long, requires = "games", conflicts_with = "shard")]
    pub(crate) digest: bool,
    /// An optional rule of Prime Time (3-4 players; repeat for more):
    /// underdog (001 § Underdog), remove-states (001 § Remove States),
    /// no-in-hand (001 § No!), frags-and-states (001 § Frags and States;
    /// always played, R73), running-order-restriction (001 § Running Order
    /// (Additional Rule), 3 players), draft (001 § Draft: the teams are
    /// drafted at the table), sterling-forge (001 § Sterling Forge), tcomm
    /// (001 § TComm), hidden-objectives (001 § Objective Cards (Additional
    /// Rule): 2 hidden Objective cards each). docs/optional-rules.md
    #[arg(long = "optional-rule", value_name = "NAME", value_parser = parse_optional_rule)]
    pub(crate) optional_rules: Vec<arena_engine::rules::game::OptionalRule>,
    /// With --games: a paired comparison against these base packs (repeat
    /// for more, like --pack): every seed played under both the base packs
    /// and the --pack ones, from the same teams (drawn from the base), and
    /// per seat and Character the paired difference in win rate, its 95%
    /// interval, z, and significance after Holm's correction
    /// (docs/balance-runs.md)
    #[arg(long = "compare", value_name = "BASE_PACK", requires = "games", conflicts_with = "digest")]
    pub(crate) compare: Vec<PathBuf>,
    /// Restricted play, Aristeia! (repeat for more): every seed played with
    /// and without the restriction, from the same teams, and the paired
    /// difference as --compare prints it. `[SEAT:]RULE`, RULE one of
    /// no-tactic:ID, no-tactics, no-action:ID, no-attacks, no-switch:ID,
    /// no-switches; SEAT a player number (absent: every player)
    /// (docs/balance-runs.md § Restricted play)
    #[arg(
        long = "restrict",
        value_name = "[SEAT:]RULE",
        requires = "games",
        conflicts_with_all = ["digest", "compare"],
        value_parser = parse_restriction
    )]
    pub(crate) restrict: Vec<arena_engine::rules::game::Restriction>,
    /// What each ability of a Character is worth, Aristeia!
    /// (`character:ID`): restricted play once per Action, Switch and own
    /// Tactic of it, forbidden to it alone, over the same seeds and teams;
    /// per ability the change in its side's win rate, paired
    /// (docs/balance-runs.md § Restricted play)
    #[arg(
        long,
        value_name = "character:ID",
        requires = "games",
        conflicts_with_all = ["digest", "compare", "restrict", "shard"]
    )]
    pub(crate) impact: Option<String>,
}

/// A `--optional-rule` value, by its kebab-case name.
fn parse_optional_rule(s: &str) -> Result<arena_engine::rules::game::OptionalRule, String> {
    use arena_engine::rules::game::OptionalRule;
    s.parse().map_err(|e: String| {
        let names: Vec<String> = OptionalRule::ALL.iter().map(|r| r.name().to_string()).collect();
        format!("{e}{}", did_you_mean(s, &names))
    })
}

/// `--games N` or `--games auto`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Games {
    /// This many games.
    Count(u64),
    /// As many as the precision asked for needs (`balance::auto`).
    Auto,
}

pub(crate) fn parse_games(s: &str) -> Result<Games, String> {
    if s == "auto" {
        return Ok(Games::Auto);
    }
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(Games::Count(n)),
        Ok(_) => Err("at least 1 game".into()),
        Err(_) => Err(format!("`{s}` is not a number of games or `auto`")),
    }
}

fn parse_restriction(s: &str) -> Result<arena_engine::rules::game::Restriction, String> {
    s.parse()
}

pub(crate) fn parse_precision(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p.is_finite() && (0.1..=50.0).contains(&p) => Ok(p),
        _ => Err(format!("`{s}`: a precision in percentage points, from 0.1 to 50")),
    }
}
