//! Shared helpers for the integration tests: run the `arena` CLI in-process and
//! read fixture expectations.

use std::path::{Path, PathBuf};

/// What one CLI run produced.
#[derive(Debug)]
pub struct Run {
    /// Exit code.
    pub code: u8,
    /// Everything written to stdout.
    pub stdout: String,
    /// Everything written to stderr.
    pub stderr: String,
}

/// Run `arena` with these arguments (without the program name), from the
/// `tests/` folder, so paths in output are relative and stable.
pub fn arena(args: &[&str]) -> Run {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv: Vec<&str> = std::iter::once("arena").chain(args.iter().copied()).collect();
    let code = arena::run(argv, &mut out, &mut err);
    Run {
        code,
        stdout: String::from_utf8(out).expect("stdout is UTF-8"),
        stderr: String::from_utf8(err).expect("stderr is UTF-8"),
    }
}

/// The `tests/` folder (the integration tests run with it as their current folder).
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file below `dir` with its length and modification time, sorted: taken
/// before and after a run to show the run wrote nothing.
pub fn tree_fingerprint(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            let Ok(m) = std::fs::symlink_metadata(&p) else { continue };
            if m.is_dir() {
                stack.push(p.clone());
            }
            out.push((p, m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
        }
    }
    out.sort();
    out
}
