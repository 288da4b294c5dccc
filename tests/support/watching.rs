//! Helpers for the `arena watch` tests: copying packs, editing a file in
//! place, and `arena watch` run in a thread with its output read as it comes.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest any one expected line of output may take.
pub const WAIT: Duration = Duration::from_secs(20);

/// The repository's root.
pub fn repo() -> PathBuf {
    crate::tests_dir().join("..")
}

/// A copy of the real core pack (maps, Scenario, setup), for games.
pub fn core_pack() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&repo().join("content/aristeia-core"), &dir.path().join("aristeia-core"));
    dir
}

/// The docs' worked-example Character file inside a copy of the packs.
pub fn duelist_file(dir: &Path) -> PathBuf {
    dir.join("duelist/characters/duelist.toml")
}

/// Copy a folder and everything under it.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Replace the first `from` in a file by `to` (the file must hold it).
pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds no `{from}`", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A writer that hands every write to a channel, so a test can wait for output.
struct ChannelWriter(mpsc::Sender<String>);

impl std::io::Write for ChannelWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(String::from_utf8_lossy(buf).into_owned());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `arena watch` running in a thread, its output read as it comes.
pub struct Cli {
    out: mpsc::Receiver<String>,
    /// What it has written to standard output so far.
    pub stdout: String,
    stderr: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<u8>,
}

impl Cli {
    pub fn start(args: Vec<String>) -> Cli {
        let (out_tx, out) = mpsc::channel();
        let (done_tx, done) = mpsc::channel();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let err = stderr.clone();
        std::thread::spawn(move || {
            let mut o = ChannelWriter(out_tx);
            let mut e = Vec::new();
            let argv = std::iter::once("arena".to_string()).chain(args);
            let code = arena::run(argv, &mut o, &mut e);
            err.lock().unwrap().extend(e);
            let _ = done_tx.send(code);
        });
        Cli { out, stdout: String::new(), stderr, done }
    }

    /// Wait until the output holds `text`.
    pub fn wait_for(&mut self, text: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.stdout.contains(text) {
            match self.out.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(s) => self.stdout.push_str(&s),
                Err(_) => panic!("no `{text}` in the output within {WAIT:?}:\n{}", self.stdout),
            }
        }
    }

    /// Wait for the command to end; its exit code.
    pub fn finish(mut self) -> (u8, String, String) {
        let code = self.done.recv_timeout(WAIT).expect("arena watch --once ends");
        self.stdout.extend(self.out.try_iter());
        let err = String::from_utf8(self.stderr.lock().unwrap().clone()).unwrap();
        (code, self.stdout, err)
    }
}
