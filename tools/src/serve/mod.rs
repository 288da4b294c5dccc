//! `arena serve`: a local web viewer over packs, on the loopback address only.
//!
//! HTTP is hyper's (no parser of ours) on a small tokio runtime, with limits
//! on every request ([`http`]); the page (`assets/`) is embedded
//! in the binary and needs no internet. The packs are watched with
//! `arena_engine::watch` as `arena watch` does: a save that loads clean goes
//! live and the page, which polls `/api/status`, redraws; a broken save shows
//! its diagnostics while the last good content stays live. The server never
//! writes a file, and serves a pack's files only by pack id and a path inside
//! that pack ([`api::pack_file`]). Routes and limits: docs/viewer.md.

mod api;
mod batch;
mod http;
mod query;
mod seat;

pub use api::{MAX_GAMES, MAX_POSTED_REPLAYS, MAX_REPLAY_EVENTS};
pub use http::{HEADER_TIMEOUT, HEAVY_JOBS, MAX_BODY, MAX_CONNECTIONS, MAX_HEAD, MAX_HEADERS, MAX_READ, MAX_TARGET};

use anyhow::Context;
use arena_engine::load;
use arena_engine::rules::event::Event;
use arena_engine::watch::{Live, StopHandle, WatchEvent, WatchOptions, Watcher};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// `arena serve`'s arguments.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Pack folders, or folders of packs. Default: the bundled content/.
    paths: Vec<PathBuf>,
    /// The same as a PATH.
    #[arg(long = "pack", value_name = "PATH")]
    pack: Vec<PathBuf>,
    /// The port on 127.0.0.1 (0: any free port). The viewer is never served
    /// on another address.
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// Replay files (`arena sim --replay FILE`) to offer in the viewer; `-`
    /// reads one from standard input.
    #[arg(long = "replay", value_name = "FILE")]
    replays: Vec<PathBuf>,
    /// Balance answers to chart in the Balance tab: the `--format json`
    /// output of `arena sim --games N`, `--compare`, `--restrict`,
    /// `--impact` or `arena tune` (a forest plot of paired differences, a
    /// tune's curve; docs/balance.md § Pictures). Repeat for more.
    #[arg(long = "chart", value_name = "FILE")]
    charts: Vec<PathBuf>,
}

/// What a viewer serves.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// Pack folders, or folders of packs, as `load::load` takes them.
    pub paths: Vec<PathBuf>,
    /// The port on 127.0.0.1; 0 for any free one.
    pub port: u16,
    /// Replay files to offer.
    pub replays: Vec<PathBuf>,
    /// Balance reports (JSON) to chart in the Balance tab.
    pub charts: Vec<PathBuf>,
    /// The watcher's quiet time after a save, in milliseconds (100 by default).
    pub debounce_ms: Option<u64>,
    /// How long a client has to send a request's head, in milliseconds
    /// ([`HEADER_TIMEOUT`] by default); the connection is closed after it.
    pub header_timeout_ms: Option<u64>,
}

/// A running viewer. Stops when [`Viewer::stop`] is called or it is dropped.
pub struct Viewer {
    addr: SocketAddr,
    /// Tells the server's thread to stop.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    threads: Vec<std::thread::JoinHandle<()>>,
    watch: StopHandle,
    state: Arc<State>,
}

impl Viewer {
    /// The address it serves on (always a loopback address).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stop serving and watching, and wait for the threads.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.watch.stop();
        seat::cancel(&self.state);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// What the request handlers share.
pub(crate) struct State {
    /// The last good content.
    live: Arc<Live>,
    /// The watcher's news: the live generation and the last rejected save.
    status: Mutex<Status>,
    /// Replays by name: their events, played again on the content of their time.
    replays: Mutex<api::Replays>,
    /// The game a person plays from the browser, if any.
    play: Mutex<Option<seat::Session>>,
    /// Whether a balance batch is being played (one at a time).
    batch_running: std::sync::atomic::AtomicBool,
    /// The `--chart` files, drawn once at start: file name -> SVG.
    charts: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Default, Clone, serde::Serialize)]
struct Status {
    /// Generation of the live content (0: none loaded clean yet).
    generation: u64,
    /// Bumped on every reload, good or rejected, so the page knows to look again.
    changes: u64,
    /// The diagnostics of the last save, when it was rejected; cleared by a good one.
    rejected: Option<String>,
}

/// Start a viewer: watch the packs, load them once, and serve on 127.0.0.1.
///
/// # Errors
/// When the port cannot be bound or the packs cannot be watched.
pub fn start(config: Config) -> anyhow::Result<Viewer> {
    let mut options = WatchOptions {
        load: load::Options { run_script_tests: false, ..load::Options::default() },
        ..WatchOptions::default()
    };
    if let Some(ms) = config.debounce_ms {
        options.debounce = std::time::Duration::from_millis(ms);
    }
    let mut charts = std::collections::BTreeMap::new();
    for file in &config.charts {
        let text = arena_engine::read::read_text_limited(file, arena_engine::read::MAX_TOOL_FILE)
            .map_err(|e| anyhow::anyhow!("--chart {}: {e}", file.display()))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("--chart {}: not JSON: {e}", file.display()))?;
        let svg = crate::chart::chart_svg(&value).map_err(|e| anyhow::anyhow!("--chart {}: {e}", file.display()))?;
        let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
        charts.insert(name, svg);
    }
    let watcher = Watcher::start(config.paths.clone(), options).map_err(|e| anyhow::anyhow!(e))?;
    let state = Arc::new(State {
        live: watcher.live().clone(),
        status: Mutex::new(Status::default()),
        replays: Mutex::new(api::Replays::default()),
        play: Mutex::new(None),
        batch_running: std::sync::atomic::AtomicBool::new(false),
        charts,
    });
    let watch = watcher.stop_handle();
    // The first load's news is on the channel already: take it before serving.
    if let Ok(first) = watcher.events().recv() {
        note(&state, first);
    }
    let news = state.clone();
    let mut threads = vec![std::thread::spawn(move || {
        for e in watcher.events() {
            note(&news, e);
        }
    })];
    for file in &config.replays {
        if let Err(e) = api::add_replay_file(&state, file) {
            anyhow::bail!("{}: {e}", file.display());
        }
    }
    let (listener, addr) = http::bind(config.port)?;
    let header_timeout = config.header_timeout_ms.map_or(HEADER_TIMEOUT, std::time::Duration::from_millis);
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let served = state.clone();
    threads.push(std::thread::Builder::new().name("arena-serve".into()).spawn(move || {
        if let Err(e) = http::serve(listener, served, header_timeout, stopped) {
            eprintln!("error: the viewer stopped serving: {e}");
        }
    })?);
    Ok(Viewer { addr, stop: Some(stop), threads, watch, state })
}

fn note(state: &State, e: WatchEvent) {
    let mut s = state.status.lock().unwrap_or_else(|p| p.into_inner());
    match e {
        WatchEvent::Reloaded { generation, .. } => {
            s.generation = generation;
            s.rejected = None;
            s.changes += 1;
        }
        WatchEvent::Rejected { diagnostics, sources, .. } => {
            let errors: Vec<_> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
            s.rejected = Some(arena_engine::diag::render_human(&errors, &sources, false));
            s.changes += 1;
        }
        _ => {}
    }
}

/// `arena serve`: start, print the address, serve until the process is stopped.
pub(crate) fn run(
    args: ServeArgs,
    ui: &crate::Ui,
    stdout: &mut dyn std::io::Write,
    stderr: &mut dyn std::io::Write,
) -> anyhow::Result<crate::Exit> {
    let mut given = args.paths;
    given.extend(args.pack);
    let selection = crate::packs::select(&given, crate::content_paths);
    crate::note_borrowed(&selection, ui, stderr)?;
    // `--replay -`: standard input, read now into a file the viewer keeps
    // for its life (named `stdin` in the viewer's list of replays).
    let kept = tempfile::tempdir().context("making a folder for the replay on standard input")?;
    let mut replays = args.replays;
    for r in replays.iter_mut().filter(|r| crate::stdio::is_dash(r)) {
        let text = ui.stdin.read_text_limited(r, arena_engine::read::MAX_TOOL_FILE).map_err(|e| anyhow::anyhow!(e))?;
        let file = kept.path().join("stdin.json");
        crate::write_atomically(&file, text.as_bytes())?;
        *r = file;
    }
    let viewer =
        start(Config { paths: selection.paths, port: args.port, replays, charts: args.charts, ..Config::default() })?;
    if let Some(rejected) = viewer.state.status.lock().ok().and_then(|s| s.rejected.clone()) {
        write!(stderr, "{rejected}")?;
        writeln!(stderr, "the packs have errors: the viewer shows them until a save loads clean")?;
    }
    writeln!(stdout, "arena viewer on {} (Ctrl-C to stop)", viewer.url())?;
    stdout.flush()?;
    loop {
        std::thread::park();
    }
}
