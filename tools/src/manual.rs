//! `arena completions` and `arena man`: the shell completion scripts and the
//! man pages, generated from the CLI's clap definitions (clap_complete,
//! clap_mangen), `arena(1)` with the sections clap has no place for.

use super::{Cli, Exit, write_atomically};
use anyhow::Context;
use std::io::Write;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
    /// Print the shell code that asks `arena` itself at each Tab, so the ids
    /// of the packs are completed too (Scenarios and setups, maps,
    /// Characters, gods, `show` entries, players), where the default script
    /// completes commands, options and fixed values only. The same as
    /// `COMPLETE=SHELL arena` (bash: `source <(arena completions bash --dynamic)`).
    #[arg(long)]
    dynamic: bool,
}

#[derive(clap::Args, Debug)]
pub(crate) struct ManArgs {
    /// Write `arena.1` and one `arena-COMMAND.1` per command into this folder
    /// instead of printing `arena.1`.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

/// `arena completions SHELL`: the script clap_complete generates from the
/// CLI's definitions; with `--dynamic`, the registration of its engine.
pub(crate) fn completions(args: CompletionsArgs, stdout: &mut dyn Write) -> anyhow::Result<Exit> {
    use clap::CommandFactory;
    use clap_complete::Generator;
    if args.dynamic {
        let name = args.shell.to_string();
        let shells = clap_complete::env::Shells::builtins();
        let Some(shell) = shells.completer(&name) else {
            anyhow::bail!("no dynamic completion for {name}: use `arena completions {name}`");
        };
        shell.write_registration("COMPLETE", "arena", "arena", "arena", stdout).context("writing the registration")?;
        return Ok(0);
    }
    let mut cmd = Cli::command();
    cmd.set_bin_name("arena");
    cmd.build();
    // `try_generate`, not `generate`: a closed pipe is an error to return, not a panic.
    args.shell.try_generate(&cmd, stdout).context("writing the completion script")?;
    Ok(0)
}

/// `arena man`: the man page clap_mangen generates from the CLI's
/// definitions, read as plain text (the doc comments' Markdown code marks
/// dropped: [`render_man_page`]), and `arena(1)` with the sections clap has
/// no place for ([`MAN_SECTIONS`]).
pub(crate) fn man(args: ManArgs, stdout: &mut dyn Write) -> anyhow::Result<Exit> {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    cmd.build();
    match args.out_dir {
        None => {
            let mut page = Vec::new();
            render_man_page(cmd, &mut page).context("rendering the man page")?;
            stdout.write_all(&page).context("writing the man page")?
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            // As `clap_mangen::generate_to` names and renders them, but each
            // written whole through `write_atomically`, which replaces a
            // symlink at a page's name instead of writing through it.
            let mut cmd = cmd.disable_help_subcommand(true);
            cmd.build();
            let mut pages = Vec::new();
            man_pages(cmd, &mut pages).context("rendering the man pages")?;
            for (name, page) in pages {
                write_atomically(&dir.join(name), &page)?;
            }
            writeln!(stdout, "wrote man pages into {}", dir.display())?;
        }
    }
    Ok(0)
}

/// The man page of `cmd` and of each of its visible subcommands, as
/// (file name, page), subcommands first.
fn man_pages(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
        man_pages(sub, out)?;
    }
    let name = clap_mangen::Man::new(cmd.clone()).get_filename();
    let mut page = Vec::new();
    render_man_page(cmd, &mut page)?;
    out.push((name, page));
    Ok(())
}

/// One man page; `arena(1)` (the command without a parent) also gets
/// [`MAN_SECTIONS`], after clap_mangen's own sections. The help texts are
/// the doc comments, Markdown: their code marks (`` ` ``) are dropped, as
/// roff would print them as they are (roff itself gives a backtick no meaning).
fn render_man_page(cmd: clap::Command, page: &mut Vec<u8>) -> std::io::Result<()> {
    let top = cmd.get_bin_name().is_none_or(|b| b == "arena") && cmd.get_name() == "arena";
    let mut rendered = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut rendered)?;
    page.extend(rendered.into_iter().filter(|&b| b != b'`'));
    if top {
        for (heading, paragraphs) in MAN_SECTIONS {
            page.extend_from_slice(format!(".SH \"{heading}\"\n").as_bytes());
            for p in *paragraphs {
                match p.split_once('\t') {
                    // A tagged paragraph: the tag (a name, a code) in bold.
                    Some((tag, text)) => page.extend_from_slice(
                        format!(".TP\n\\fB{}\\fR\n{}\n", roff_text(tag), roff_text(text)).as_bytes(),
                    ),
                    None => page.extend_from_slice(format!(".PP\n{}\n", roff_text(p)).as_bytes()),
                }
            }
        }
    }
    Ok(())
}

/// Text as a roff line: backslashes escaped, hyphens as `\-` (so a
/// `--flag` is copied from the page as typed), and a leading `.` or `'`
/// kept from being read as a request.
fn roff_text(s: &str) -> String {
    let escaped = s.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') { format!("\\&{escaped}") } else { escaped }
}

/// The sections of `arena(1)` that clap has no place for: (heading,
/// paragraphs), a paragraph `TAG\tTEXT` being a tagged one.
const MAN_SECTIONS: &[(&str, &[&str])] = &[
    (
        "EXIT STATUS",
        &[
            "0\tClean: no error (warnings allowed); a game or batch played with no failed effect.",
            "1\tThe content has errors (check, lock), an effect failed in a game (sim, check --sims), a replay differs from its recording, a situation's expected events did not happen, or a generated file is stale (generate --check).",
            "2\tA usage or IO failure: an unknown option, command or id (a Scenario, setup, map, Character, god or card that no loaded pack defines), a file that cannot be read or written.",
        ],
    ),
    (
        "ENVIRONMENT",
        &[
            "NO_COLOR\tSet and not empty: no colour with --color auto (no-color.org).",
            "CLICOLOR_FORCE, FORCE_COLOR\tSet and not 0 (FORCE_COLOR: nor false): colour with --color auto, even into a pipe or file.",
            "CLICOLOR\t0: no colour with --color auto (bixense.com/clicolors).",
            "TERM\tdumb, or unset: no colour with --color auto at a terminal.",
            "XDG_CACHE_HOME, HOME\tThe cache folder (XDG_CACHE_HOME when it is an absolute path, else HOME/.cache) where an installed arena writes its bundled packs.",
        ],
    ),
    (
        "FILES",
        &[
            "pack.toml\tA pack's manifest: the folder holding it is a pack (docs/packs.md).",
            "arena.lock\tThe packs, versions and content hashes that arena lock wrote and arena check --locked compares with.",
            "~/.cache/arena/bundled-VERSION-HASH/\tThe bundled packs of an installed arena, written once from the copy in the binary (HASH: BLAKE3 of their files). A content/ folder in the current folder is loaded only when named.",
        ],
    ),
    (
        "EXAMPLES",
        &[
            "arena check\tValidate the bundled packs; with --sims 2, also play two games of every Scenario.",
            "arena check my-pack --format sarif > arena.sarif\tValidate a pack for code scanning.",
            "arena sim assault --games 400 --jobs 2 --random-teams\tA balance batch: win rates with 95% intervals.",
            "arena sim assault --replay - | arena replay -\tPlay a game, and check its replay plays again the same, through a pipe.",
            "arena run my-situation.toml --state\tPlay a situation and print the state after it.",
            "arena show character:hannibal\tAn entry as loaded, patches applied, with where each field was set.",
        ],
    ),
];
