//! `arena`: the command-line tool for Aristeia! and Invictus content packs.
//!
//! The only crate that prints; `main.rs` is the only place that exits. [`run`]
//! takes the arguments and two writers so tests drive the whole CLI in-process.
//! Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage or IO failure.

mod content_cmds;
mod packs;
mod scaffold;

use anyhow::Context;
use arena_engine::diag::{self, Code, Diagnostic, Severity};
use arena_engine::load::{self, Loaded};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

mod watch;

/// An exit code: 0 clean, 1 content errors, 2 usage or IO failure.
pub type Exit = u8;

/// The `"version"` of the JSON that `sim`, `show` and `diff` print (docs/json.md);
/// raised only when a field changes meaning or goes away, never for an added one.
pub const JSON_VERSION: u32 = 1;

/// Make, patch, validate and play-test content for Aristeia! and Invictus.
#[derive(Parser, Debug)]
#[command(name = "arena", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour: `auto` (when the output is a terminal and `NO_COLOR` is unset or
    /// empty), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Print less: no progress bar and no notes or status lines on stderr;
    /// results, warnings and errors still.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: the packs loaded, with their versions and folders; every
    /// game with a failed effect (not only the first five).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    verbose: u8,
}

/// The global options every command honours: colour and how much to print.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ui {
    /// `--color`.
    pub(crate) color: ColorChoice,
    /// -1 with `--quiet`, 0 by default, one more per `-v`.
    pub(crate) verbosity: i8,
}

impl Ui {
    /// Whether to colour what goes to stderr.
    pub(crate) fn color(&self) -> bool {
        use_color(self.color)
    }

    /// `--quiet`.
    pub(crate) fn quiet(&self) -> bool {
        self.verbosity < 0
    }

    /// `-v` or more.
    pub(crate) fn verbose(&self) -> bool {
        self.verbosity > 0
    }

    /// With `-v`: the packs loaded, one line each, on stderr.
    pub(crate) fn loaded(&self, loaded: &Loaded, stderr: &mut dyn Write) -> std::io::Result<()> {
        if self.verbose() {
            for p in &loaded.packs {
                writeln!(stderr, "loaded pack {}@{} from {}", p.manifest.id, p.manifest.version, p.root.display())?;
            }
        }
        Ok(())
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Validate packs: manifests, dependencies, schemas, references, dice limits, scripts.
    ///
    /// With no PATH, checks the bundled `content/` and `mods/`. A PATH is a pack
    /// folder (holding pack.toml) or a folder of packs. Exit 0 when clean
    /// (warnings allowed), 1 on content errors, 2 on usage or IO failure.
    Check(CheckArgs),
    /// Run a Lua file in the effect sandbox against a recording test host, and
    /// print what it returned and every API call it made (exit 1 on an error).
    ///
    /// The file runs as an effect: it receives `(game, ctx)` as `...`; if it
    /// returns a function, that function is called with `(game, ctx)` too.
    Script(ScriptArgs),
    /// Play games headless on the bundled (or given) packs.
    ///
    /// One game (the default) prints its narrative; `--games N` plays N seeded
    /// games in parallel and prints win rates with 95% intervals, mean VP,
    /// Frags and game length. Exit 1 when an effect failed in any game.
    Sim(SimArgs),
    /// Play one Activation from a situation file (a position, forced dice,
    /// answers) and print what happens (exit 1 on a missing answer or a failed effect).
    Run(RunArgs),
    /// Print an entry's effective form (patches applied) and where each patched
    /// field was set, with what it replaced.
    Show(content_cmds::ShowArgs),
    /// Compare the effective content of two pack selections, field by field
    /// (`--base content --with mods/errata-1.6`).
    Diff(content_cmds::DiffArgs),
    /// Play a replay file again and check every event is the same (exit 1 if not).
    Replay(ReplayArgs),
    /// Write `arena.lock`: the resolved packs, versions and content hashes, so a
    /// CI run can check it sees exactly these (`arena check --locked`).
    Lock(LockArgs),
    /// Write the generated files (JSON Schemas, Lua API definitions and reference,
    /// diagnostics reference) from their sources in the engine.
    Generate(GenerateArgs),
    /// Make a new pack, Character, Tactic, Scenario or map: a valid entry with
    /// every required key and a comment on each, and for effects a Lua script
    /// and its test, so `arena check` passes at once.
    New(scaffold::NewArgs),
    /// Print a shell completion script for arena (`arena completions bash >
    /// ~/.local/share/bash-completion/completions/arena`).
    Completions(CompletionsArgs),
    /// Print arena's man page (roff), or write one page per command into a
    /// folder (`arena man --out-dir man/`).
    Man(ManArgs),
    /// Watch packs and reload them on every save; the last good content stays
    /// live while a save is broken.
    ///
    /// Prints each reload (or the diagnostics of a rejected save) as it
    /// happens; with `--sim SCENARIO`, plays a short seeded batch after each
    /// good reload and compares win rates and mean VP with the previous
    /// content. Runs until Ctrl-C (or, with `--once`, one change).
    Watch(watch::WatchArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// Pack folders, or folders of packs. Default: the bundled content/ and mods/.
    paths: Vec<PathBuf>,
    /// The same as a PATH: `--pack` spells packs the same way for every command.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also list provisional content and effects the engine cannot run yet.
    #[arg(long)]
    strict: bool,
    /// Largest file read, in bytes.
    #[arg(long, default_value_t = load::Options::default().max_file_size, value_name = "BYTES")]
    max_file_size: u64,
    /// Also play N seeded games of every Scenario and report failed effects,
    /// engine errors and games that do not end.
    #[arg(long, value_name = "N")]
    sims: Option<u64>,
    /// Fail if the packs differ from the lockfile (`arena lock` writes it).
    #[arg(long)]
    locked: bool,
    /// The lockfile for --locked.
    #[arg(long, value_name = "FILE", default_value = "arena.lock")]
    lockfile: PathBuf,
    /// The repository root: `--format github` and `sarif` give paths relative
    /// to it. Default: the nearest folder upward holding `.git`, else the current folder.
    #[arg(long, value_name = "DIR")]
    repo_root: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(clap::Args, Debug)]
struct ManArgs {
    /// Write `arena.1` and one `arena-COMMAND.1` per command into this folder
    /// instead of printing `arena.1`.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct LockArgs {
    /// Pack folders, or folders of packs. Default: the bundled content/ and mods/.
    paths: Vec<PathBuf>,
    /// The same as a PATH: `--pack` spells packs the same way for every command.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// Where to write the lockfile.
    #[arg(long, value_name = "FILE", default_value = "arena.lock")]
    output: PathBuf,
}

#[derive(clap::Args, Debug)]
struct ScriptArgs {
    /// The Lua file.
    file: PathBuf,
    /// Packs whose content the script may query (`game:character_card`...). Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// `ctx.self`: the Character whose effect it is.
    #[arg(long = "self", value_name = "CHARACTER")]
    self_id: Option<String>,
    /// `ctx.target`: the declared Target.
    #[arg(long, value_name = "CHARACTER")]
    target: Option<String>,
    /// `ctx.successes`.
    #[arg(long)]
    successes: Option<i64>,
    /// Seed of the game RNG (`math.random`).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// For a file that returns a table of functions: the one to call.
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// Answer the next call of an API function: NAME=VALUE, VALUE as JSON
    /// (`damage=2`, `enemies_within=["hannibal"]`). Repeat to queue answers.
    #[arg(long = "answer", value_name = "NAME=VALUE")]
    answers: Vec<String>,
    /// Output format (`human` or `json`).
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
}

#[derive(clap::Args, Debug)]
struct SimArgs {
    /// A Scenario id (`assault`: its first ready-made setup is used) or a setup id (`first-game`).
    scenario: String,
    /// The RNG seed: the same seed and content give the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Output format: the narrative (`human`) or the events as JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
    /// Controllers of player 1 and player 2, `greedy` or `random` (one value: both).
    #[arg(long, value_delimiter = ',', default_value = "greedy")]
    players: Vec<PlayerKind>,
    /// Play this many games (at least 1), with seeds from --seed on, and print statistics.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Worker threads for --games (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Write a replay file of the game (content hash, seed, answers, events).
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Random teams from every loaded Character, drawn from the seed (with
    /// --games, one draw per seed), instead of the ready-made setup
    #[arg(long)]
    random_teams: bool,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The situation file (TOML; see docs/situations.md).
    file: PathBuf,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Output format: the narrative or the events as JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    /// The replay file written by `arena sim --replay FILE`.
    file: PathBuf,
    /// Packs to load. Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum PlayerKind {
    /// The greedy heuristic: toward the Scoring Zone, attacks when it can, uses Switches.
    Greedy,
    /// Uniformly random legal options (seeded).
    Random,
    /// You, at the terminal: each Decision's options are numbered; type a number.
    Human,
}

/// A person at the terminal: prints each Decision with numbered options on
/// stderr and reads the choice from stdin. At the end of input it falls back to
/// the greedy controller, so a game always finishes.
struct HumanController {
    fallback: arena_engine::players::GreedyController,
    closed: bool,
    /// Events already shown to this player.
    shown: usize,
}

impl arena_engine::rules::decision::Controller for HumanController {
    fn decide(
        &mut self,
        d: &arena_engine::rules::decision::Decision,
        view: &arena_engine::rules::state::View<'_>,
    ) -> usize {
        use std::io::BufRead;
        if self.closed {
            return self.fallback.decide(d, view);
        }
        // What happened since this player last answered, then their hand.
        for e in view.events.iter().skip(self.shown) {
            eprintln!("{e}");
        }
        self.shown = view.events.len();
        let hand = &view.state.players[d.player].hand;
        if !hand.is_empty() {
            eprintln!("({}'s hand: {})", d.player, hand.join(", "));
        }
        let who = d.character.as_deref().map(|c| format!(" ({c})")).unwrap_or_default();
        eprintln!("\n{}{who}: {}", d.player, d.prompt);
        for (i, o) in d.options.iter().enumerate() {
            eprintln!("  {:>2}. {o}", i + 1);
        }
        let stdin = std::io::stdin();
        loop {
            eprint!("> ");
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    eprintln!("(end of input: the greedy controller plays on)");
                    self.closed = true;
                    return self.fallback.decide(d, view);
                }
                Ok(_) => match line.trim().parse::<usize>() {
                    Ok(n) if (1..=d.options.len()).contains(&n) => return n - 1,
                    _ => eprintln!("type a number from 1 to {}", d.options.len()),
                },
            }
        }
    }
}

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

const P1: arena_engine::rules::seats::PlayerId = arena_engine::rules::seats::PlayerId::seat(0);
const P2: arena_engine::rules::seats::PlayerId = arena_engine::rules::seats::PlayerId::seat(1);

fn seats(kinds: &[PlayerKind]) -> Vec<arena_engine::sim::Policy> {
    let a = kinds.first().copied().unwrap_or(PlayerKind::Greedy);
    let b = kinds.get(1).copied().unwrap_or(a);
    vec![a.engine(), b.engine()]
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// The repository root to write into.
    #[arg(long, default_value = ".", value_name = "DIR")]
    root: PathBuf,
    /// Write nothing; exit 1 if any generated file is stale.
    #[arg(long)]
    check: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// Source lines with carets, for people.
    Human,
    /// One JSON document: {"version": 1, "diagnostics": [...], "summary": {...}} (docs/diagnostics.md).
    Json,
    /// GitHub Actions workflow commands (annotations on the offending lines).
    Github,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
}

/// Output of the commands other than `check`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// Text for people.
    Human,
    /// JSON for programs.
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Run the CLI with `args` (the first is the program name), writing to `out` and
/// `err`. Returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own messages follow `--color` too, read from the raw
            // arguments since they did not parse.
            let choice = color_in_args(&args);
            let code = if e.use_stderr() { 2 } else { 0 };
            let terminal = if e.use_stderr() { err_is_terminal() } else { std::io::stdout().is_terminal() };
            let text = if color_for(choice, terminal) { e.render().ansi().to_string() } else { e.render().to_string() };
            let _ = if e.use_stderr() { write!(err, "{text}") } else { write!(out, "{text}") };
            return code;
        }
    };
    let ui = Ui { color: cli.color, verbosity: if cli.quiet { -1 } else { cli.verbose.min(100) as i8 } };
    let result = match cli.command {
        Command::Check(args) => check(args, &ui, out, err),
        Command::Generate(args) => generate(args, out, err),
        Command::Script(args) => script(args, &ui, out, err),
        Command::Sim(args) => sim(args, &ui, out, err),
        Command::Replay(args) => replay(args, &ui, out, err),
        Command::Lock(args) => lock(args, &ui, out, err),
        Command::Show(args) => content_cmds::show(args, &ui, out, err),
        Command::Diff(args) => content_cmds::diff(args, &ui, out, err),
        Command::Run(args) => run_situation(args, &ui, out, err),
        Command::Watch(args) => watch::run(args, &ui, out, err),
        Command::Completions(args) => completions(args, out),
        Command::New(args) => scaffold::run(args, out, err),
        Command::Man(args) => man(args, out),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`arena sim | head`): not an error of ours.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            0
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            2
        }
    }
}

/// Whether to colour stderr: `always`, `never`, or (`auto`) when stderr is a
/// terminal and `NO_COLOR` is unset or empty (no-color.org).
pub(crate) fn use_color(choice: ColorChoice) -> bool {
    color_for(choice, err_is_terminal())
}

fn color_for(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// The last `--color X` / `--color=X` among arguments that did not parse (`auto` if none or unknown).
fn color_in_args(args: &[std::ffi::OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut next_is_value = false;
    for a in args.iter().skip(1) {
        let a = a.to_string_lossy();
        if a == "--" {
            break;
        }
        let value = if next_is_value {
            next_is_value = false;
            Some(a.as_ref())
        } else if a == "--color" {
            next_is_value = true;
            None
        } else {
            a.strip_prefix("--color=")
        };
        if let Some(v) = value.and_then(|v| ColorChoice::from_str(v, true).ok()) {
            choice = v;
        }
    }
    choice
}

/// `arena completions SHELL`: the script clap_complete generates from the CLI's definitions.
fn completions(args: CompletionsArgs, stdout: &mut dyn Write) -> anyhow::Result<Exit> {
    use clap::CommandFactory;
    use clap_complete::Generator;
    let mut cmd = Cli::command();
    cmd.set_bin_name("arena");
    cmd.build();
    // `try_generate`, not `generate`: a closed pipe is an error to return, not a panic.
    args.shell.try_generate(&cmd, stdout).context("writing the completion script")?;
    Ok(0)
}

/// `arena man`: the man page clap_mangen generates from the CLI's definitions.
fn man(args: ManArgs, stdout: &mut dyn Write) -> anyhow::Result<Exit> {
    use clap::CommandFactory;
    let cmd = Cli::command();
    match args.out_dir {
        None => clap_mangen::Man::new(cmd).render(stdout).context("writing the man page")?,
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(cmd, &dir).with_context(|| format!("writing man pages into {}", dir.display()))?;
            writeln!(stdout, "wrote man pages into {}", dir.display())?;
        }
    }
    Ok(0)
}

fn err_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// The bundled packs: `content/` and `mods/` of the current folder when it is an
/// arena checkout, else of the workspace this binary was built from.
pub(crate) fn default_paths() -> Vec<PathBuf> {
    bundled(&["content", "mods"])
}

/// The bundled base games only (`content/`): what games, shows and diffs use by
/// default; mods such as errata are opted into with `--pack`.
pub(crate) fn content_paths() -> Vec<PathBuf> {
    bundled(&["content"])
}

pub(crate) use packs::bundled_root;

/// Say which bundled packs were added for missing dependencies (not with `-q`).
pub(crate) fn note_borrowed(selection: &packs::Selection, ui: &Ui, stderr: &mut dyn Write) -> anyhow::Result<()> {
    if !selection.borrowed.is_empty() && !ui.quiet() {
        writeln!(stderr, "note: dependencies taken from the bundled packs: {}", selection.borrowed.join(", "))?;
    }
    Ok(())
}

fn bundled(dirs: &[&str]) -> Vec<PathBuf> {
    let Some(base) = bundled_root() else { return Vec::new() };
    dirs.iter()
        .map(|d| base.join(d))
        .filter(|p| p.is_dir() && has_pack(p))
        .map(|p| p.strip_prefix("./").map(PathBuf::from).unwrap_or(p))
        .collect()
}

fn has_pack(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).any(|e| e.path().join(load::MANIFEST).is_file()))
        .unwrap_or(false)
}

fn check(args: CheckArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    // Dependencies the given paths lack are taken from the bundled packs (a mod
    // is checked against the base games it names), and said so.
    let selection = packs::select(&[args.paths.clone(), args.pack.clone()].concat(), default_paths);
    let options = load::Options { max_file_size: args.max_file_size, notes: args.strict, ..load::Options::default() };
    let mut loaded = load::load(&selection.paths, &options);
    ui.loaded(&loaded, stderr)?;
    note_borrowed(&selection, ui, stderr)?;
    let mut simulated = None;
    if let Some(n) = args.sims.filter(|n| *n > 0) {
        if !loaded.has_errors() {
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
                .map(|p| p.manifest.id.clone())
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
            let two_player = loaded
                .content
                .scenarios
                .values()
                .filter(|s| (s.value.players.min..=s.value.players.max).contains(&2))
                .count();
            simulated = Some(format!(
                "simulated {n} seeded games of each of {two_player} 2-player Scenario(s), with their setups and with random teams: {}; {} of {} scripted effects ran{}",
                if failures == 0 { "no failure".to_string() } else { format!("{failures} problem(s)") },
                cov.exercised,
                cov.scripted,
                if cov.exercised < cov.scripted && !args.strict { " (--strict lists the others)" } else { "" }
            ));
        }
    }
    // The packs' own situations (`situations/*.toml`) must play as written.
    let mut situations = None;
    if !loaded.has_errors() && loaded.packs.iter().any(|p| !p.situations.is_empty()) {
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
        match arena_engine::read::read_text_limited(&args.lockfile, arena_engine::read::MAX_TOOL_FILE) {
            Ok(text) => loaded.diagnostics.extend(arena_engine::lock::check(&loaded, Some(&text), &args.lockfile)),
            Err(_) if !args.lockfile.exists() => {
                loaded.diagnostics.extend(arena_engine::lock::check(&loaded, None, &args.lockfile))
            }
            Err(e) => loaded.diagnostics.push(
                Diagnostic::error(Code::LockMismatch, e)
                    .at(diag::Location { file: args.lockfile.clone(), span: None, line: 1, column: 1 })
                    .help("give the lockfile `arena lock` wrote (a UTF-8 TOML file)"),
            ),
        }
    }
    let shown: Vec<Diagnostic> =
        loaded.diagnostics.iter().filter(|d| args.strict || d.severity != Severity::Note).cloned().collect();
    let summary = loaded.summary();
    match args.format {
        Format::Human => {
            write!(stderr, "{}", diag::render_human(&shown, &loaded.sources, ui.color()))?;
            writeln!(stdout, "{}", summary_line(&loaded, args.strict))?;
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
            writeln!(stdout, "{}", summary_line(&loaded, args.strict))?;
        }
        Format::Sarif => {
            write!(stdout, "{}", diag::render_sarif(&shown, &loaded.sources, &repo_root(args.repo_root.as_deref())?))?
        }
    }
    Ok(exit_code(&loaded))
}

/// The repository root for code-scanning output: `--repo-root`, else found from the current folder.
fn repo_root(given: Option<&std::path::Path>) -> anyhow::Result<diag::RepoRoot> {
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
fn summary_line(loaded: &Loaded, strict: bool) -> String {
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
    if s.provisional + s.unsupported_effects + s.gaps > 0 {
        let gaps = if s.gaps > 0 { format!(", {} declared", plural(s.gaps, "gap", "gaps")) } else { String::new() };
        line.push_str(&format!(
            "; {} provisional, {} without Lua{gaps}{}",
            plural(s.provisional, "entry", "entries"),
            plural(s.unsupported_effects, "effect", "effects"),
            if strict { "" } else { " (--strict lists them)" }
        ));
    }
    line
}

fn generate(args: GenerateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let mut stale = 0;
    for (rel, text) in arena_engine::generate::files() {
        let path = args.root.join(&rel);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        stale += 1;
        if args.check {
            writeln!(stderr, "stale: {rel} (run `arena generate`)")?;
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            }
            write_atomically(&path, text.as_bytes())?;
            writeln!(stdout, "wrote {rel}")?;
        }
    }
    Ok(if args.check && stale > 0 { 1 } else { 0 })
}

fn script(args: ScriptArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
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
    let ctx = Ctx { self_id: args.self_id.clone(), target: args.target.clone(), successes: args.successes };
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
fn load_for_play(packs: &[PathBuf], ui: &Ui, stderr: &mut dyn Write) -> anyhow::Result<Option<Loaded>> {
    let selection = packs::select(packs, content_paths);
    note_borrowed(&selection, ui, stderr)?;
    let options = load::Options { run_script_tests: false, ..load::Options::default() };
    let loaded = load::load(&selection.paths, &options);
    if loaded.has_errors() {
        let errors: Vec<Diagnostic> = loaded.diagnostics.iter().filter(|d| d.is_error()).cloned().collect();
        write!(stderr, "{}", diag::render_human(&errors, &loaded.sources, ui.color()))?;
        writeln!(stderr, "the packs have errors: run `arena check` first")?;
        return Ok(None);
    }
    ui.loaded(&loaded, stderr)?;
    Ok(Some(loaded))
}

fn sim(args: SimArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    use arena_engine::script::runtime::{Limits, Runtime};
    let Some(loaded) = load_for_play(&args.packs, ui, stderr)? else { return Ok(1) };
    let content = &loaded.content;
    // A Scenario for more than two players loads and validates, but the
    // engine plays 2-player games (Prime Time's need their own rules engine).
    if let Some(sc) = content.scenarios.get(&args.scenario) {
        let p = &sc.value.players;
        if !(p.min..=p.max).contains(&2) {
            writeln!(
                stderr,
                "error: `{}` is a {}-{} player Scenario; the engine plays 2-player games (the Prime Time Scenarios are data for now)",
                args.scenario, p.min, p.max
            )?;
            return Ok(2);
        }
    }
    let setup_id = if content.setups.contains_key(&args.scenario) {
        args.scenario.clone()
    } else {
        match content.setups.values().find(|s| s.value.scenario == args.scenario) {
            Some(s) => s.value.id.clone(),
            // Random teams need only the Scenario.
            None if args.random_teams && content.scenarios.contains_key(&args.scenario) => String::new(),
            None => {
                let hint = if content.scenarios.contains_key(&args.scenario) {
                    " (it has no ready-made setup: add --random-teams)"
                } else {
                    ""
                };
                writeln!(
                    stderr,
                    "error: no setup, and no Scenario with a ready-made setup, is called `{}`{hint}",
                    args.scenario
                )?;
                return Ok(2);
            }
        }
    };
    if args.players.len() > 2 {
        writeln!(stderr, "error: --players takes one value (both players) or two (player 1, player 2)")?;
        return Ok(2);
    }
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
    }
    let players = seats(&args.players);
    let random_scenario = if content.scenarios.contains_key(&args.scenario) {
        args.scenario.clone()
    } else {
        content.setups.get(&setup_id).map(|s| s.value.scenario.clone()).unwrap_or_default()
    };
    if let Some(n) = args.games {
        let teams = if args.random_teams {
            let scenario = if content.scenarios.contains_key(&args.scenario) {
                args.scenario.clone()
            } else {
                content.setups.get(&setup_id).map(|s| s.value.scenario.clone()).unwrap_or_default()
            };
            arena_engine::sim::Teams::Random(scenario)
        } else {
            arena_engine::sim::Teams::Setup(setup_id.clone())
        };
        return sim_batch(&loaded, &teams, args.seed, n, players, args.jobs, args.format, ui, stdout, stderr);
    }
    // One game: the setup's teams, or teams drawn from the seed (`--random-teams`).
    let setup_id =
        if args.random_teams { format!("{}{random_scenario}", arena_engine::sim::RANDOM_TEAMS) } else { setup_id };
    let setup = arena_engine::sim::replay_setup(content, &setup_id, args.seed).map_err(|e| anyhow::anyhow!(e))?;
    let runtime = Runtime::new(std::sync::Arc::new(content.clone()), loaded.script_set.clone(), Limits::default())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let mut controllers: Vec<Box<dyn arena_engine::rules::decision::Controller>> = (0..2)
        .map(|seat| {
            let kind = args.players.get(seat).or(args.players.first()).copied().unwrap_or(PlayerKind::Greedy);
            match kind {
                PlayerKind::Human => {
                    Box::new(HumanController { fallback: Default::default(), closed: false, shown: 0 })
                        as Box<dyn arena_engine::rules::decision::Controller>
                }
                _ => players[seat].controller(args.seed, seat),
            }
        })
        .collect();
    let (a, b) = controllers.split_at_mut(1);
    let record = arena_engine::sim::play(content, &runtime, &setup, vec![a[0].as_mut(), b[0].as_mut()])
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(path) = &args.replay {
        let replay = arena_engine::sim::Replay::of(&record, &setup_id, &loaded.content_hash()).with_packs(&loaded);
        write_atomically(path, (serde_json::to_string(&replay)? + "\n").as_bytes())?;
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

#[allow(clippy::too_many_arguments)]
fn sim_batch(
    loaded: &Loaded,
    teams: &arena_engine::sim::Teams,
    first_seed: u64,
    games: u64,
    players: Vec<arena_engine::sim::Policy>,
    jobs: Option<usize>,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let started = std::time::Instant::now();
    let results = with_progress(games, !ui.quiet(), |tick| {
        arena_engine::sim::batch(
            std::sync::Arc::new(loaded.content.clone()),
            loaded.script_set.clone(),
            teams,
            first_seed..first_seed + games,
            &players,
            jobs,
            tick,
        )
    })
    .map_err(|e| anyhow::anyhow!(e))?;
    let elapsed = started.elapsed();
    let report = arena_engine::sim::Report::of(&results);
    let setup = match teams {
        arena_engine::sim::Teams::Setup(s) => s.clone(),
        arena_engine::sim::Teams::Random(s) => format!("{s} (random teams)"),
    };
    match format {
        Output::Json => {
            let v = serde_json::json!({ "version": JSON_VERSION, "kind": "sim-batch", "setup": setup, "seeds": [first_seed, first_seed + games - 1], "report": report, "games": results });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            let pct = |r: &arena_engine::sim::Rate| {
                format!("{:5.1}% [{:.1}-{:.1}]", r.rate * 100.0, r.low * 100.0, r.high * 100.0)
            };
            writeln!(
                stdout,
                "{} games of {setup}, seeds {first_seed}-{}, {jobs} jobs, {:.1}s",
                report.games,
                (first_seed + games).saturating_sub(1),
                elapsed.as_secs_f64()
            )?;
            writeln!(
                stdout,
                "player 1 wins {}  mean VP {:.2}  mean Frags {:.2}",
                pct(&report.win_rate[P1]),
                report.mean_victory_points[P1],
                report.mean_frags[P1]
            )?;
            writeln!(
                stdout,
                "player 2 wins {}  mean VP {:.2}  mean Frags {:.2}",
                pct(&report.win_rate[P2]),
                report.mean_victory_points[P2],
                report.mean_frags[P2]
            )?;
            writeln!(
                stdout,
                "draws {}  mean Rounds {:.2}  games with failed effects {}  engine errors {}",
                report.draws, report.mean_rounds, report.games_with_effect_failures, report.errors
            )?;
            write!(stdout, "{}", character_table(loaded, &report))?;
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
/// sent to the Infirmary. The Characters of the packs under test (the loaded
/// packs that are not bundled base games) come first, marked `*`.
fn character_table(loaded: &Loaded, report: &arena_engine::sim::Report) -> String {
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
    let mut rows: Vec<(&String, &arena_engine::sim::CharacterReport)> = report.per_character.iter().collect();
    rows.sort_by_key(|(c, _)| (!tested(c), c.as_str()));
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    let width = rows.iter().map(|(c, _)| c.len()).max().unwrap_or(0).max("Character".len());
    let _ = writeln!(
        out,
        "\n  {:<width$} {:>5}  {:<20} {:>6} {:>6} {:>9}",
        "Character", "games", "side wins [95%]", "dealt", "taken", "Infirmary"
    );
    for (c, r) in rows {
        let mark = if tested(c) { "* " } else { "  " };
        let wins =
            format!("{:5.1}% [{:.1}-{:.1}]", r.win_rate.rate * 100.0, r.win_rate.low * 100.0, r.win_rate.high * 100.0);
        let _ = writeln!(
            out,
            "{mark}{c:<width$} {:>5}  {wins:<20} {:>6.2} {:>6.2} {:>9.2}",
            r.games, r.mean_damage_dealt, r.mean_damage_taken, r.mean_infirmary,
        );
    }
    let _ = writeln!(
        out,
        "(means per game: Damage its Enemies suffered in its Activations, Damage it suffered, times sent to the Infirmary{})",
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

fn replay(args: ReplayArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    use arena_engine::script::runtime::{Limits, Runtime};
    use arena_engine::sim::{Replay, ReplayCheck};
    let text = arena_engine::read::read_text_limited(&args.file, arena_engine::read::MAX_TOOL_FILE)
        .map_err(|e| anyhow::anyhow!(e))?;
    let replay: Replay =
        serde_json::from_str(&text).with_context(|| format!("{} is not a replay file", args.file.display()))?;
    if replay.format != 1 {
        writeln!(
            stderr,
            "error: {}: replay format {} is not supported (this arena writes format 1)",
            args.file.display(),
            replay.format
        )?;
        return Ok(1);
    }
    let Some(loaded) = load_for_play(&args.packs, ui, stderr)? else { return Ok(1) };
    let hash = loaded.content_hash();
    if hash != replay.content_hash && !ui.quiet() {
        writeln!(
            stderr,
            "note: the content has changed since the replay was recorded ({} now, {} then)",
            &hash[..12],
            &replay.content_hash[..12.min(replay.content_hash.len())]
        )?;
    }
    let runtime =
        Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
            .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let missing: Vec<&str> = replay
        .packs
        .iter()
        .filter_map(|p| p.split_whitespace().next())
        .filter(|id| !loaded.packs.iter().any(|l| l.manifest.id == *id))
        .collect();
    let checked = match arena_engine::sim::check_replay(&loaded.content, &runtime, &replay) {
        Ok(c) => c,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", args.file.display())?;
            if !missing.is_empty() {
                writeln!(
                    stderr,
                    "help: it was played with packs not loaded now ({}): pass them with --pack",
                    missing.join(", ")
                )?;
            }
            return Ok(1);
        }
    };
    match checked {
        ReplayCheck::Same { events } => {
            writeln!(stdout, "replay ok: {events} events, the same as recorded")?;
            Ok(0)
        }
        ReplayCheck::Differs { index, recorded, replayed } => {
            writeln!(stderr, "replay differs at event {index}:")?;
            writeln!(stderr, "  recorded: {}", recorded.unwrap_or_else(|| "(none)".into()))?;
            writeln!(stderr, "  replayed: {}", replayed.unwrap_or_else(|| "(none)".into()))?;
            Ok(1)
        }
    }
}

fn run_situation(args: RunArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    use arena_engine::rules::situation::Situation;
    use arena_engine::script::runtime::{Limits, Runtime};
    let text = arena_engine::read::read_text_limited(&args.file, arena_engine::read::MAX_TOOL_FILE)
        .map_err(|e| anyhow::anyhow!(e))?;
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
    let Some(loaded) = load_for_play(&packs, ui, stderr)? else { return Ok(1) };
    let runtime =
        Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
            .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let played = match sit.play(&loaded.content, &runtime) {
        Ok(p) => p,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", args.file.display())?;
            return Ok(1);
        }
    };
    match args.format {
        Output::Json => writeln!(stdout, "{}", serde_json::to_string_pretty(&played.events)?)?,
        _ => {
            for e in &played.events {
                writeln!(stdout, "{e}")?;
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

/// Write a file whole or not at all: into a temporary file beside it, synced,
/// then renamed over `path`. A full disk leaves the old file as it was; a
/// symlink at `path` is replaced by the file, its target left untouched.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let mut tmp =
        tempfile::Builder::new().prefix(".arena-").suffix(".tmp").tempfile_in(dir).with_context(|| {
            format!("writing {}: cannot create a temporary file in {}", path.display(), dir.display())
        })?;
    tmp.write_all(bytes).with_context(|| format!("writing {}", path.display()))?;
    tmp.as_file().sync_all().with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // A regular file keeps its mode; a new one (or one replacing a link) is 0644.
        let mode = match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_file() => m.permissions().mode() & 0o7777,
            _ => 0o644,
        };
        let _ = tmp.as_file().set_permissions(std::fs::Permissions::from_mode(mode));
    }
    tmp.persist(path).map_err(|e| anyhow::anyhow!("writing {}: {}", path.display(), e.error))?;
    Ok(())
}

fn lock(args: LockArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
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
    write_atomically(&args.output, arena_engine::lock::lockfile(&loaded).as_bytes())?;
    writeln!(stdout, "wrote {} ({} packs)", args.output.display(), loaded.packs.len())?;
    Ok(0)
}
