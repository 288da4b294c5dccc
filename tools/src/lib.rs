//! `arena`: the command-line tool for Aristeia! and Invictus content packs.
//!
//! The only crate that prints; `main.rs` is the only place that exits. [`run`]
//! takes the arguments and two writers so tests drive the whole CLI in-process.
//! Exit codes: 0 clean (warnings allowed), 1 content errors, 2 usage or IO failure.

mod balance;
mod chart;
mod check;
mod compare;
mod complete;
mod content_cmds;
mod human;
mod ladder;
mod manual;
mod packs;
mod play;
mod render;
mod replay;
mod scaffold;
pub mod serve;
mod sim_args;
mod stdio;
mod tune;
pub use stdio::Stdin;

use anyhow::Context;
use arena_engine::diag::{self, Code, Diagnostic, Severity};
use arena_engine::load::{self, Loaded};
use check::{check, exit_code, lock, summary_line};
use clap::{Parser, Subcommand, ValueEnum};
use play::{run_situation, script, sim};
use replay::ReplayArgs;
pub(crate) use sim_args::Games;
use sim_args::SimArgs;
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
    /// Colour: `auto` (at a terminal whose `TERM` is not `dumb`; `NO_COLOR` or
    /// `CLICOLOR=0` turn it off, `CLICOLOR_FORCE` or `FORCE_COLOR` on, even
    /// into a pipe), `always` or `never`.
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

/// The global options every command honours: colour and how much to print;
/// and the run's standard input, which a FILE of `-` reads (`stdio`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ui<'a> {
    /// `--color`.
    pub(crate) color: ColorChoice,
    /// -1 with `--quiet`, 0 by default, one more per `-v`.
    pub(crate) verbosity: i8,
    /// Standard input, for a FILE of `-`.
    pub(crate) stdin: &'a Stdin,
}

impl Ui<'_> {
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

// One value per process, parsed once: the size of its largest variant
// (`sim`'s many options) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
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
    /// Find the whole value of one or more numeric fields (`hit_points`, a
    /// die count, a Scoring Zone's VP, an Artifact's price) that brings a
    /// figure of the balance readout (a seat's win rate, a Character's
    /// adjusted strength, a god's win rate) to a target, by batches on the
    /// same seeds, and write it as a guarded patch pack quoting the evidence
    /// (docs/balance.md § arena tune).
    ///
    /// Exit 0 when a value reads within the precision (or the current one
    /// already does: nothing is written), 1 when none does (the closest is
    /// written) or a value's content does not load, 2 on usage errors.
    Tune(tune::TuneArgs),
    /// Play the players against each other on the same seeds, each pairing
    /// from both sides, and print win rates with 95% intervals, ratings
    /// (Bradley-Terry) and core seconds a game (docs/players.md).
    Ladder(ladder::LadderArgs),
    /// Play a situation file (docs/situations.md) and print what happens: a
    /// moment of either game set up as written (an Aristeia! Activation, end
    /// of Round, Planning, Deployment, Team Creation or setup; an Invictus
    /// turn or setup), with its forced dice and answers.
    ///
    /// Exit 1 when it goes otherwise than written: an answer missing, left
    /// over or not an option, an `expect` line unmet or an `absent` line met,
    /// a failed effect, or a file that does not read or set up (said at
    /// FILE:LINE:COLUMN); 2 when the file cannot be read.
    Run(RunArgs),
    /// Print an entry's effective form (patches applied) and where each patched
    /// field was set, with what it replaced.
    Show(content_cmds::ShowArgs),
    /// Compare the effective content of two pack selections, field by field
    /// (`--base content --with mods/errata-1.6`).
    Diff(content_cmds::DiffArgs),
    /// Play a replay file of either game again and check every event is the
    /// same (exit 1 if not); `--upgrade` rewrites a file of an older format
    /// as format 2 once it verifies (docs/json.md § Replay files).
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
    Completions(manual::CompletionsArgs),
    /// Print arena's man page (roff), or write one page per command into a
    /// folder (`arena man --out-dir man/`).
    Man(manual::ManArgs),
    /// Watch packs and reload them on every save; the last good content stays
    /// live while a save is broken.
    ///
    /// Prints each reload (or the diagnostics of a rejected save) as it
    /// happens; with `--sim SCENARIO`, plays a short seeded batch after each
    /// good reload and compares win rates and mean VP with the previous
    /// content. Runs until Ctrl-C (or, with `--once`, one change).
    Watch(watch::WatchArgs),
    /// Draw a map, a situation's position or a replay at one event as SVG:
    /// zones, Blocked spaces, Barriers, markers, figures with their Damage,
    /// States and Action Points; optionally Line of Sight and Range from a space.
    Render(render::RenderArgs),
    /// Serve a local viewer on 127.0.0.1: the content, maps, replays stepped
    /// forwards and backwards, balance charts, and a seat to play from the
    /// browser; the page redraws when a watched pack is saved (docs/viewer.md).
    Serve(serve::ServeArgs),
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
    /// Also list provisional content and effects the engine cannot run yet,
    /// of the packs checked (not of the bundled packs taken for their
    /// dependencies: --strict-all lists those too).
    #[arg(long)]
    strict: bool,
    /// --strict, with the notes of the bundled dependencies too.
    #[arg(long)]
    strict_all: bool,
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
    /// The lockfile for --locked (`-`: read it from standard input).
    #[arg(long, value_name = "FILE", default_value = "arena.lock")]
    lockfile: PathBuf,
    /// The repository root: `--format github` and `sarif` give paths relative
    /// to it. Default: the nearest folder upward holding `.git`, else the current folder.
    #[arg(long, value_name = "DIR")]
    repo_root: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct LockArgs {
    /// Pack folders, or folders of packs. Default: the bundled content/ and mods/.
    paths: Vec<PathBuf>,
    /// The same as a PATH: `--pack` spells packs the same way for every command.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// Where to write the lockfile (`-`: standard output).
    #[arg(long, value_name = "FILE", default_value = "arena.lock")]
    output: PathBuf,
}

#[derive(clap::Args, Debug)]
struct ScriptArgs {
    /// The Lua file (`-`: standard input).
    file: PathBuf,
    /// Packs whose content the script may query (`game:character_card`...). Default: the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// `ctx.self`: the Character whose effect it is.
    #[arg(long = "self", value_name = "CHARACTER", add = complete::characters())]
    self_id: Option<String>,
    /// `ctx.target`: the declared Target.
    #[arg(long, value_name = "CHARACTER", add = complete::characters())]
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
struct RunArgs {
    /// The situation file (TOML; see docs/situations.md). `-`: standard
    /// input (its `packs` are then relative to the current folder).
    file: PathBuf,
    /// Packs to load. Default: the situation's own `packs` (relative to its
    /// file), else the bundled ones.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Output format: the narrative or the events as JSON.
    #[arg(long, value_enum, default_value_t = Output::Human)]
    format: Output,
    /// Also print the whole state after (every unit or god, hands and piles
    /// as cards, tokens): on stdout after the narrative, or as `"state"`
    /// beside `"events"` with `--format json`.
    #[arg(long)]
    state: bool,
}

/// How Invictus gods come to the seats (`arena_engine::invictus::GodDeal`).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum DealArg {
    /// One god to each seat, every god equally often at every seat.
    Even,
    /// Two gods dealt to each seat, one chosen (`003 § Character Assignment`).
    Rulebook,
}

/// How Invictus teams sit.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum SeatingArg {
    /// Teams sit opposite each other.
    Standard,
    /// Teams alternate around the table.
    EveryOther,
    /// Teams drawn at random.
    Random,
    /// Every player for themselves.
    FreeForAll,
}

impl SeatingArg {
    /// Its name, as Invictus's rules read it (`sim::Request::seating`).
    fn name(self) -> &'static str {
        match self {
            SeatingArg::Standard => "standard",
            SeatingArg::EveryOther => "every-other",
            SeatingArg::Random => "random",
            SeatingArg::FreeForAll => "free-for-all",
        }
    }
}

/// A `--players` value; a number is answered with the option that takes it.
pub(crate) fn parse_player_kind(s: &str) -> Result<PlayerKind, String> {
    if let Ok(n) = s.parse::<u32>() {
        return Err(format!(
            "`{s}` is a number of players: write --seats {n} (--players names a controller per seat: greedy, random, mcts or human)"
        ));
    }
    if s.eq_ignore_ascii_case("human") {
        return Ok(PlayerKind::Human);
    }
    if s.to_ascii_lowercase().starts_with("mcts:") {
        return s.parse::<arena_engine::sim::Policy>().map(PlayerKind::Engine);
    }
    let names = ["greedy", "random", "mcts", "human"].map(String::from);
    s.parse::<arena_engine::sim::Policy>().map(PlayerKind::Engine).map_err(|_| {
        format!("`{s}`: expected greedy, random, mcts, mcts:N or human{}", did_you_mean(&s.to_lowercase(), &names))
    })
}

/// A `--players` value of a command that plays without a person (batches,
/// `watch --sim`, `ladder`): `human` is refused with where it plays.
pub(crate) fn parse_engine_player(s: &str) -> Result<arena_engine::sim::Policy, String> {
    match parse_player_kind(s)? {
        PlayerKind::Engine(p) => Ok(p),
        PlayerKind::Human => Err(HUMAN_PLAYS_ONE_GAME.into()),
    }
}

/// Why a batch's seeds cannot reach `u64::MAX` (they are a half-open range).
pub(crate) const PAST_THE_LAST_SEED: &str =
    "runs past the last seed a batch can play (18446744073709551614); one game, without --games, plays any seed";

/// Why `human` is refused where games play without a person.
pub(crate) const HUMAN_PLAYS_ONE_GAME: &str = "`human` plays one game at the terminal (`arena sim SCENARIO --players human`, without --games); games played without a person take greedy, random, mcts or mcts:N";

/// ` (did you mean `x`?)` when an id given on the command line is near one of
/// `known` (the loader's own suggestion: `load::suggest`), else nothing.
pub(crate) fn did_you_mean(id: &str, known: &[String]) -> String {
    load::suggest(id, known).map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default()
}

/// A `--players` value: a player of the engine's (`greedy`, `random`,
/// `mcts`, `mcts:N`: `arena_engine::sim::Policy`), or `human`, you at the
/// terminal (each Decision's options are numbered; type a number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlayerKind {
    /// One of the engine's players.
    Engine(arena_engine::sim::Policy),
    /// You, at the terminal.
    Human,
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
/// `err`, a FILE of `-` reading the process's standard input. Returns the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_with_stdin(args, std::io::stdin(), out, err)
}

/// [`run`], a FILE of `-` reading `stdin` instead (read only if some FILE is `-`).
pub fn run_with_stdin<I, T>(
    args: I,
    stdin: impl std::io::Read + Send + 'static,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let stdin = Stdin::new(stdin);
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
    let ui = Ui { color: cli.color, verbosity: if cli.quiet { -1 } else { cli.verbose.min(100) as i8 }, stdin: &stdin };
    let result = match cli.command {
        Command::Check(args) => check(args, &ui, out, err),
        Command::Generate(args) => generate(args, out, err),
        Command::Script(args) => script(args, &ui, out, err),
        Command::Sim(args) => sim(args, &ui, out, err),
        Command::Ladder(args) => ladder::ladder(args, &ui, out, err),
        Command::Tune(args) => tune::tune(args, &ui, out, err),
        Command::Replay(args) => replay::replay(args, &ui, out, err),
        Command::Lock(args) => lock(args, &ui, out, err),
        Command::Show(args) => content_cmds::show(args, &ui, out, err),
        Command::Diff(args) => content_cmds::diff(args, &ui, out, err),
        Command::Run(args) => run_situation(args, &ui, out, err),
        Command::Watch(args) => watch::run(args, &ui, out, err),
        Command::Render(args) => render::run(args, &ui, out, err),
        Command::Serve(args) => serve::run(args, &ui, out, err),
        Command::Completions(args) => manual::completions(args, out),
        Command::New(args) => scaffold::run(args, &ui, out, err),
        Command::Man(args) => manual::man(args, out),
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

/// Whether to colour stderr: `always`, `never`, or (`auto`) as [`auto_color`]
/// says for stderr.
pub(crate) fn use_color(choice: ColorChoice) -> bool {
    color_for(choice, err_is_terminal())
}

fn color_for(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => auto_color(terminal),
    }
}

/// `--color auto`, from the environment (read by `anstyle-query`), in this
/// order: `NO_COLOR` set and not empty: no colour (no-color.org);
/// `CLICOLOR_FORCE` not empty and not `0`, or `FORCE_COLOR` not empty, `0`
/// or `false`: colour, even into a pipe; `CLICOLOR=0`: no colour
/// (bixense.com/clicolors); else colour when the stream is a terminal and
/// `TERM` is set and not `dumb`.
fn auto_color(terminal: bool) -> bool {
    if anstyle_query::no_color() {
        return false;
    }
    // Forced only by a value that says so: `CLICOLOR_FORCE` not empty and
    // not `0` (bixense.com/clicolors), `FORCE_COLOR` not empty, `0` or `false`.
    let set =
        |var: &str, off: &[&str]| std::env::var_os(var).is_some_and(|v| !v.is_empty() && !off.iter().any(|o| v == *o));
    if set("CLICOLOR_FORCE", &["0"]) || set("FORCE_COLOR", &["0", "false"]) {
        return true;
    }
    if anstyle_query::clicolor() == Some(false) {
        return false;
    }
    terminal && anstyle_query::term_supports_color()
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

/// The CLI's definitions, for clap_complete's engine (`main.rs`: `COMPLETE=SHELL arena`).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

fn err_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// The bundled packs: `content/` and `mods/` of the workspace this binary was
/// built from, else of their copy in the cache folder (`packs::bundled_root`).
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

/// Write a file whole or not at all: into a temporary file beside it, synced,
/// then renamed over `path`. A full disk leaves the old file as it was; a
/// symlink at `path` is replaced by the file, its target left untouched (a
/// dangling link too).
///
/// What is at `path`, links followed, and is neither a regular file nor a
/// folder (a FIFO, a character or block device such as `/dev/null` or
/// `/dev/stdout`'s pipe, a socket) is written to as a stream, never renamed
/// over: `--replay /dev/stdout | jq` works, and a device node is never
/// replaced by a file.
///
/// # Errors
/// When the temporary file cannot be made, written, synced or renamed, or the
/// stream cannot be opened or written (`/dev/full`: no space left).
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    #[cfg(unix)]
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        // No create, no truncate: it exists, and is not a file.
        let mut stream = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("writing {}: cannot open it", path.display()))?;
        stream.write_all(bytes).with_context(|| format!("writing {}", path.display()))?;
        stream.flush().with_context(|| format!("writing {}", path.display()))?;
        return Ok(());
    }
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
