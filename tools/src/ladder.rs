//! `arena ladder`: the players against each other on the same seeds, each
//! pairing from both sides (`arena_engine::sim::ladder`), as a table of win
//! rates with 95% intervals, Bradley-Terry ratings and core seconds a game.

use super::*;

#[derive(clap::Args, Debug)]
pub(crate) struct LadderArgs {
    /// A Scenario id (`assault`), a setup id or a game (`invictus`), as for `arena sim`.
    #[arg(add = crate::complete::games())]
    scenario: String,
    /// The players, two or more (`greedy`, `random`, `mcts`, `mcts:N`): every
    /// pairing plays the seeds from both sides.
    #[arg(long, value_delimiter = ',', default_value = "greedy,mcts", value_parser = super::parse_engine_player, add = crate::complete::players())]
    players: Vec<arena_engine::sim::Policy>,
    /// Seeds per side of each pairing (each pairing plays twice as many
    /// games). A pairing of `greedy` and `mcts` takes about 2 s a game of one core in Assault.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many players at the table (Prime Time: 3-4; Invictus: 2, 4 or 6).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=6))]
    seats: Option<u8>,
    /// Random teams drawn from the seed (Aristeia!), instead of the ready-made setup.
    #[arg(long)]
    random_teams: bool,
    /// Worker threads (default: the machine's cores).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    jobs: Option<usize>,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Output format: a Markdown table (`human`) or JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
}

pub(crate) fn ladder(
    args: LadderArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    use arena_engine::sim::{self, Request};
    let loaded = match super::play::load_for_play(&args.packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let content = &loaded.content;
    let Some(rules) = sim::game_of_setup(content, &args.scenario) else {
        let hint = super::did_you_mean(&args.scenario, &sim::setup_names(content));
        writeln!(
            stderr,
            "error: no setup, and no Scenario with a ready-made setup, is called `{}`{hint}",
            args.scenario
        )?;
        return Ok(2);
    };
    let request = Request {
        name: args.scenario.clone(),
        seats: args.seats.map(usize::from),
        players: 1,
        random_teams: args.random_teams,
        ..Request::default()
    };
    let spec = match rules.resolve(content, &request) {
        Ok(spec) => spec,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    let Some(end) = args.seed.checked_add(args.games) else {
        writeln!(stderr, "error: --seed {} with --games {} {}", args.seed, args.games, super::PAST_THE_LAST_SEED)?;
        return Ok(2);
    };
    let n = args.players.len() as u64;
    let total = n * n.saturating_sub(1) * args.games;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let result = super::play::with_progress(total, !ui.quiet(), |tick| {
        sim::ladder::play(
            &*spec,
            std::sync::Arc::new(content.clone()),
            loaded.script_set.clone(),
            &args.players,
            args.seed..end,
            jobs,
            tick,
        )
    });
    let ladder = match result {
        Ok(l) => l,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    let players: Vec<String> = args.players.iter().map(|p| p.name()).collect();
    match args.format {
        Output::Json => {
            let v = serde_json::json!({
                "version": 1,
                "kind": "ladder",
                "scenario": args.scenario,
                "seats": spec.seats(),
                "players": players,
                "content_hash": loaded.content_hash(),
                "seeds": [args.seed, end - 1],
                "ladder": ladder,
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        Output::Human => {
            let seeds = sim::seeds_text(&(args.seed..end));
            writeln!(stdout, "ladder of {} at {} seats, {seeds} from both sides", args.scenario, spec.seats())?;
            write!(stdout, "{}", sim::ladder::text(&ladder))?;
        }
    }
    let errors: u64 = ladder.pairings.iter().map(|p| p.errors).sum();
    if errors > 0 {
        writeln!(
            stderr,
            "warning: {errors} games stopped on an engine error and are in no count above (`arena sim` with their seed shows it)"
        )?;
        return Ok(1);
    }
    Ok(0)
}
