//! `arena replay FILE`: play a replay file of any game again and check every
//! event (`engine::replay_file`: format 2, and the two formats of before);
//! `--upgrade` rewrites a file that verifies as format 2.

use super::*;
use arena_engine::replay_file::{self, Mismatch, Recording};
use play::load_for_play;

#[derive(clap::Args, Debug)]
pub(crate) struct ReplayArgs {
    /// The replay file written by `arena sim --replay FILE` (format 2, or
    /// one of before: Aristeia!'s format 1, Invictus's without a format);
    /// `-`: standard input.
    file: PathBuf,
    /// Packs to load. Default: the packs the file records (`packs`), when
    /// they are bundled, else the bundled base games.
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Rewrite the file as format 2 once it verifies (into --out, else in
    /// place); refused, with exit 1, when it does not verify or was recorded
    /// on other content.
    #[arg(long)]
    upgrade: bool,
    /// With --upgrade: write the format 2 file here instead of over FILE
    /// (`-`: standard output; FILE `-` without --out writes there too).
    #[arg(long, value_name = "FILE2", requires = "upgrade")]
    out: Option<PathBuf>,
    /// With --upgrade: upgrade a file recorded on other content (its content
    /// hash differs) as long as every event is the same; the new file names
    /// the content it was verified on.
    #[arg(long, requires = "upgrade")]
    allow_changed_content: bool,
}

/// `arena replay`: exit 0 when every event is the same (and, with
/// `--upgrade`, the format 2 file is written), 1 when not, 2 on a usage or
/// IO failure.
pub(super) fn replay(
    args: ReplayArgs,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let file = crate::stdio::name(&args.file);
    let text =
        ui.stdin.read_text_limited(&args.file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| anyhow::anyhow!(e))?;
    let recording = match replay_file::read(&text) {
        Ok(r) => r,
        Err(e) => {
            writeln!(stderr, "error: {file}: {e}")?;
            return Ok(1);
        }
    };
    // No --pack: the packs the file records, when they are bundled.
    let packs = match (args.packs.is_empty(), crate::packs::recorded(&recording.packs)) {
        (true, Some(recorded)) => recorded,
        _ => args.packs.clone(),
    };
    let loaded = match load_for_play(&packs, ui, stderr)? {
        Ok(loaded) => loaded,
        Err(code) => return Ok(code),
    };
    let hash = loaded.content_hash();
    let changed = recording.content_hash.as_ref().filter(|then| **then != hash);
    if let Some(then) = changed {
        if args.upgrade && !args.allow_changed_content {
            writeln!(
                stderr,
                "error: {file}: not upgraded: it was recorded on other content (content hash {} then, {} now)",
                short(then),
                short(&hash)
            )?;
            writeln!(
                stderr,
                "help: load the packs it was played on ({}), or pass --allow-changed-content to upgrade it if every event is still the same",
                recording.packs.join(", ")
            )?;
            return Ok(1);
        }
        if !ui.quiet() {
            writeln!(
                stderr,
                "note: the content has changed since the replay was recorded ({} now, {} then)",
                short(&hash),
                short(then)
            )?;
        }
    }
    let Some(rules) = recording.rules() else {
        writeln!(stderr, "error: {file}: `{}` is not a game this arena knows", recording.game)?;
        return Ok(1);
    };
    let content = std::sync::Arc::new(loaded.content.clone());
    let runtime = rules
        .runtime(content.clone(), loaded.script_set.clone())
        .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    let table = match recording.verify(&content, &runtime) {
        Ok(t) => t,
        Err(why) => return refuse(&args, &recording, &loaded, &why, stderr),
    };
    writeln!(stdout, "replay ok: {} events, the same as recorded", table.event_count())?;
    if !args.upgrade {
        return Ok(0);
    }
    let upgraded = recording.upgraded(&*table, hash, replay_file::packs_of(&loaded));
    let out = args.out.as_ref().unwrap_or(&args.file);
    // `-` (FILE `-` without --out, or --out -): the upgraded file is standard
    // output, and what was done is said on stderr.
    crate::stdio::write_output(out, (serde_json::to_string(&upgraded)? + "\n").as_bytes(), stdout)?;
    let said = format!(
        "upgraded {file} ({}) to format {}: {}",
        recording.origin,
        replay_file::FORMAT,
        crate::stdio::name(out)
    );
    if crate::stdio::is_dash(out) {
        writeln!(stderr, "{said}")?;
    } else {
        writeln!(stdout, "{said}")?;
    }
    Ok(0)
}

/// Say why a recording does not verify (and, with --upgrade, that it was not upgraded).
fn refuse(
    args: &ReplayArgs,
    recording: &Recording,
    loaded: &Loaded,
    why: &Mismatch,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let file = args.file.display();
    let not = if args.upgrade { "not upgraded: " } else { "" };
    match why {
        Mismatch::Differs { index, recorded, replayed, answer } => {
            writeln!(stderr, "error: {file}: {not}replay differs at event {index}:")?;
            writeln!(stderr, "  recorded: {}", recorded.as_deref().unwrap_or("(none)"))?;
            writeln!(stderr, "  replayed: {}", replayed.as_deref().unwrap_or("(none)"))?;
            if let Some(a) = answer {
                writeln!(stderr, "note: then {a}")?;
                writeln!(
                    stderr,
                    "help: were the file's answers edited? `arena sim --replay FILE` records the game again"
                )?;
            }
        }
        Mismatch::BadAnswer { .. } | Mismatch::EndedEarly { .. } | Mismatch::CutShort { .. } => {
            writeln!(stderr, "error: {file}: {not}{why}")?;
            writeln!(stderr, "help: were the file's answers edited? `arena sim --replay FILE` records the game again")?;
        }
        Mismatch::Setup(_) | Mismatch::Engine(_) => {
            writeln!(stderr, "error: {file}: {not}{why}")?;
            let missing: Vec<&str> = recording
                .packs
                .iter()
                .filter_map(|p| p.split('@').next())
                .filter(|id| !loaded.packs.iter().any(|l| l.manifest.id == *id))
                .collect();
            if !missing.is_empty() {
                writeln!(
                    stderr,
                    "help: it was played with packs not loaded now ({}): pass them with --pack",
                    missing.join(", ")
                )?;
            }
        }
    }
    Ok(1)
}

/// The first 12 hex digits of a content hash.
pub(crate) fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}
