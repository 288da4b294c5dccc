//! `arena render map|situation|replay`: SVG pictures (or the terminal's text
//! board) of a map, a situation's position, and a replay at one event, drawn
//! by `arena_engine::render`.

use super::*;
use arena_engine::render::{self, Options, Scene};
use arena_engine::rules::geometry::Hex;

#[derive(clap::Args, Debug)]
pub(crate) struct RenderArgs {
    #[command(subcommand)]
    what: RenderWhat,
}

#[derive(Subcommand, Debug)]
enum RenderWhat {
    /// A map: spaces, zones, Blocked spaces, Barriers, Ziggurats.
    Map {
        /// The map's id (`hexadome-a`), or a Scenario's (its map, with its first Scoring Zone).
        #[arg(add = crate::complete::maps())]
        id: String,
        #[command(flatten)]
        common: Common,
    },
    /// A situation file's position, before its Activation is played: every
    /// Character, Minion, Running Projectile, marker and token.
    Situation {
        /// The situation file (TOML; docs/situations.md); `-`: standard input.
        file: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// A balance answer's JSON as a chart (docs/balance.md § Pictures): a
    /// paired comparison or restricted play (`arena sim --compare`,
    /// `--restrict`) or `--impact` as a forest plot, `arena tune` as a curve
    /// per field, a batch (`arena sim --games N`) as bar charts. Exit 2 when
    /// the file cannot be read or is not such a report (as `sim merge`).
    Chart {
        /// The `--format json` output of arena sim or arena tune; `-`: standard input.
        file: PathBuf,
        /// Write the picture to this file instead of stdout (`-`: stdout).
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// A replay (`arena sim --replay FILE`) after one of its events.
    Replay {
        /// The replay file; `-`: standard input.
        file: PathBuf,
        /// The event to stop after, counting from 0 (the game's start); default: the last.
        #[arg(long, value_name = "N")]
        event: Option<usize>,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(clap::Args, Debug)]
struct Common {
    /// Packs to load. Default: the bundled ones (a situation's own `packs` when it names some).
    #[arg(long = "pack", value_name = "PATH")]
    packs: Vec<PathBuf>,
    /// Write each space's `q,r` coordinates in it.
    #[arg(long)]
    coordinates: bool,
    /// Overlay Line of Sight (Clear, Limited, Blocked) and Line-of-Sight Range
    /// from this space to every other: `Q,R` (`--sight-from=-2,3`).
    #[arg(long, value_name = "Q,R", allow_hyphen_values = true)]
    sight_from: Option<String>,
    /// Write the picture to this file instead of stdout (`-`: stdout).
    #[arg(long, short, value_name = "FILE")]
    out: Option<PathBuf>,
    /// `svg`, or `text`: the compact board the terminal's human seat shows.
    #[arg(long, value_enum, default_value_t = Picture::Svg)]
    format: Picture,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Picture {
    /// An SVG document.
    Svg,
    /// One character a space, and a line per figure.
    Text,
}

/// `Q,R` as a space.
pub(crate) fn parse_hex(s: &str) -> Option<Hex> {
    let (q, r) = s.trim().trim_start_matches('[').trim_end_matches(']').split_once(',')?;
    Some(Hex::new(q.trim().parse().ok()?, r.trim().parse().ok()?))
}

pub(super) fn run(args: RenderArgs, ui: &Ui, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<Exit> {
    let (common, scene) = match args.what {
        RenderWhat::Chart { file, out } => return chart(&file, out.as_deref(), ui, stdout, stderr),
        RenderWhat::Map { id, common } => {
            let loaded = match play::load_for_play(&common.packs, ui, stderr)? {
                Ok(l) => l,
                Err(code) => return Ok(code),
            };
            match map_scene(&loaded.content, &id) {
                Ok(s) => (common, s),
                Err(e) => {
                    writeln!(stderr, "error: {e}")?;
                    return Ok(2);
                }
            }
        }
        RenderWhat::Situation { file, common } => match situation_scene(&file, &common.packs, ui, stderr)? {
            Ok(s) => (common, s),
            Err(code) => return Ok(code),
        },
        RenderWhat::Replay { file, event, common } => match replay_scene(&file, event, &common.packs, ui, stderr)? {
            Ok(s) => (common, s),
            Err(code) => return Ok(code),
        },
    };
    let sight_from = match common.sight_from.as_deref().map(|s| (s, parse_hex(s))) {
        None => None,
        Some((s, Some(h))) => match scene.sight_refused(h) {
            None => Some(h),
            Some(why) => {
                writeln!(stderr, "error: --sight-from {s}: {why}")?;
                return Ok(2);
            }
        },
        Some((s, None)) => {
            writeln!(stderr, "error: --sight-from takes a space as Q,R (`--sight-from=-2,3`), not `{s}`")?;
            return Ok(2);
        }
    };
    let options = Options { coordinates: common.coordinates, sight_from, marks: Vec::new() };
    let picture = match common.format {
        Picture::Svg => render::svg::to_svg(&scene, &options),
        Picture::Text => format!("{}\n{}\n", scene.title, render::text::board(&scene, &[])),
    };
    match &common.out {
        Some(path) => {
            crate::stdio::write_output(path, picture.as_bytes(), stdout)?;
            if !ui.quiet() && !crate::stdio::is_dash(path) {
                writeln!(stderr, "wrote {}", path.display())?;
            }
        }
        None => write!(stdout, "{picture}")?,
    }
    Ok(0)
}

/// `arena render chart FILE`.
fn chart(
    file: &std::path::Path,
    out: Option<&std::path::Path>,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let shown = crate::stdio::name(file);
    let text = match ui.stdin.read_text_limited(file, arena_engine::read::MAX_TOOL_FILE) {
        Ok(t) => t,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            writeln!(stderr, "error: {shown}:{}:{}: not JSON: {e}", e.line(), e.column())?;
            writeln!(stderr, "help: give the `--format json` output of arena sim or arena tune")?;
            return Ok(2);
        }
    };
    let svg = match crate::chart::chart_svg(&value) {
        Ok(svg) => svg,
        Err(e) => {
            writeln!(stderr, "error: {shown}: {e}")?;
            return Ok(2);
        }
    };
    match out {
        Some(path) => {
            crate::stdio::write_output(path, svg.as_bytes(), stdout)?;
            if !ui.quiet() && !crate::stdio::is_dash(path) {
                writeln!(stderr, "wrote {}", path.display())?;
            }
        }
        None => write!(stdout, "{svg}")?,
    }
    Ok(0)
}

/// A map by its id, or a Scenario's map with its first Scoring Zone.
pub(crate) fn map_scene(content: &arena_engine::content::Content, id: &str) -> Result<Scene, String> {
    if let Some(m) = content.maps.get(id) {
        return Ok(Scene::of_map(&m.value));
    }
    if let Some(sc) = content.scenarios.get(id) {
        if let Some(m) = content.maps.get(&sc.value.map) {
            let mut scene = Scene::of_map(&m.value);
            scene.title = format!("{} on {}", sc.value.name, m.value.name);
            scene.scoring_zones = sc.value.scoring_zones.clone();
            return Ok(scene);
        }
    }
    let maps: Vec<&str> = content.maps.keys().map(arena_engine::model::Id::as_str).collect();
    let ids: Vec<String> = content.maps.keys().chain(content.scenarios.keys()).map(|k| k.to_string()).collect();
    Err(format!("no map or Scenario is called `{id}`{} (maps: {})", crate::did_you_mean(id, &ids), maps.join(", ")))
}

fn situation_scene(
    file: &std::path::Path,
    packs: &[PathBuf],
    ui: &Ui,
    stderr: &mut dyn Write,
) -> anyhow::Result<std::result::Result<Scene, Exit>> {
    use arena_engine::rules::game::Game;
    use arena_engine::rules::situation::{Situation, SituationController, SituationSeat};
    use arena_engine::script::runtime::{Limits, Runtime};
    let text = ui.stdin.read_text_limited(file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| anyhow::anyhow!(e))?;
    let sit: Situation = match toml::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", crate::stdio::name(file))?;
            return Ok(Err(1));
        }
    };
    let packs = if packs.is_empty() && !sit.packs.is_empty() {
        let dir = file.parent().unwrap_or(std::path::Path::new("."));
        sit.packs.iter().map(|p| dir.join(p)).collect()
    } else {
        packs.to_vec()
    };
    let loaded = match play::load_for_play(&packs, ui, stderr)? {
        Ok(l) => l,
        Err(code) => return Ok(Err(code)),
    };
    let runtime =
        Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
            .map_err(|e| anyhow::anyhow!("cannot start the Lua VM: {e}"))?;
    // The position only: nobody is asked anything.
    let shared = std::rc::Rc::new(std::cell::RefCell::new(SituationController::new(Vec::new())));
    let mut seats: Vec<SituationSeat> = (0..sit.players.clamp(2, 4)).map(|_| SituationSeat(shared.clone())).collect();
    let controllers = seats.iter_mut().map(|s| s as &mut dyn arena_engine::rules::decision::Controller).collect();
    let game = match Game::from_situation(&loaded.content, &runtime, &sit, controllers) {
        Ok(g) => g,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", crate::stdio::name(file))?;
            return Ok(Err(1));
        }
    };
    let mut scene =
        Scene::of_view(&game.view(arena_engine::rules::seats::PlayerId::seat(0))).map_err(|e| anyhow::anyhow!(e))?;
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    scene.title = format!("{name}: {} activates ({})", sit.active, sit.scenario);
    Ok(Ok(scene))
}

/// A replay file's game after event `event` (default the last).
pub(crate) fn replay_scene(
    file: &std::path::Path,
    event: Option<usize>,
    packs: &[PathBuf],
    ui: &Ui,
    stderr: &mut dyn Write,
) -> anyhow::Result<std::result::Result<Scene, Exit>> {
    let text = ui.stdin.read_text_limited(file, arena_engine::read::MAX_TOOL_FILE).map_err(|e| anyhow::anyhow!(e))?;
    let recording = match arena_engine::replay_file::read(&text) {
        Ok(r) => r,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", crate::stdio::name(file))?;
            return Ok(Err(1));
        }
    };
    // No --pack: the packs the file records, when they are bundled.
    let packs = match (packs.is_empty(), crate::packs::recorded(&recording.packs)) {
        (true, Some(recorded)) => recorded,
        _ => packs.to_vec(),
    };
    let loaded = match play::load_for_play(&packs, ui, stderr)? {
        Ok(l) => l,
        Err(code) => return Ok(Err(code)),
    };
    let hash = loaded.content_hash();
    if let Some(then) = recording.content_hash.as_ref().filter(|then| **then != hash && !ui.quiet()) {
        writeln!(
            stderr,
            "note: {}: recorded on other content (content hash {} then, {} now): the picture is of the game as it plays on these packs",
            crate::stdio::name(file),
            crate::replay::short(then),
            crate::replay::short(&hash)
        )?;
    }
    let events = match replay_events(&loaded, &recording) {
        Ok(e) => e,
        Err(e) => {
            writeln!(stderr, "error: {}: {e}", crate::stdio::name(file))?;
            return Ok(Err(1));
        }
    };
    // A file edited since it was recorded (or played on changed packs) gives
    // another game: say so, and draw the game as it plays now.
    if let arena_engine::replay_file::Recorded::Events(recorded) = &recording.recorded {
        let differs = (0..events.len().max(recorded.len()))
            .find(|i| events.get(*i).map(|e| serde_json::to_value(e).unwrap_or_default()).as_ref() != recorded.get(*i));
        if let Some(i) = differs {
            writeln!(
                stderr,
                "warning: {}: the game played from this file differs from the one it recorded at event {i} (`arena replay {}` says why); the picture shows the game as it plays now",
                file.display(),
                file.display()
            )?;
        }
    }
    let last = events.len().saturating_sub(1);
    let n = event.unwrap_or(last);
    if n > last {
        writeln!(stderr, "error: --event {n}: the replay has {} events (0 to {last})", events.len())?;
        return Ok(Err(2));
    }
    Ok(Ok(Scene::of_events(&loaded.content, &events[..=n]).map_err(|e| anyhow::anyhow!(e))?))
}

/// An Aristeia! replay's events, played again on `loaded` (through its table).
pub(crate) fn replay_events(
    loaded: &Loaded,
    recording: &arena_engine::replay_file::Recording,
) -> std::result::Result<Vec<arena_engine::rules::event::Event>, String> {
    use arena_engine::script::runtime::{Limits, Runtime};
    let runtime =
        Runtime::new(std::sync::Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default())
            .map_err(|e| format!("cannot start the Lua VM: {e}"))?;
    recording.aristeia_events(&loaded.content, &runtime)
}
