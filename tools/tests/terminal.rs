//! The `arena` binary at a real terminal: a pseudo-terminal is its stdin,
//! stdout and stderr, so the progress bar of `sim --games` is drawn.
//!
//! Captured output (every in-process test) hides the bar, so only a run at a
//! terminal shows whether drawing it can block the games (issue 13, item 1).

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::Read;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Longest a short batch may take; it takes a few seconds in a debug build.
const BOUND: Duration = Duration::from_secs(180);

/// Run the `arena` binary with `args` in a pseudo-terminal; return everything it
/// wrote and its exit code, or panic with what it wrote so far if it has not
/// finished within [`BOUND`].
fn at_terminal(args: &[&str], env: &[(&str, &str)]) -> (String, u32) {
    let pty = native_pty_system();
    let pair = pty.openpty(PtySize { rows: 24, cols: 100, pixel_width: 0, pixel_height: 0 }).expect("open a pty");
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args);
    // The workspace root: the bundled packs are found there.
    cmd.cwd(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.env_remove("NO_COLOR");
    cmd.env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = pair.slave.spawn_command(cmd).expect("spawn arena");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    // The reader sends what it reads; it ends at end of file (the child and the
    // master are gone) or on an error (Linux says EIO once the child has exited).
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let deadline = Instant::now() + BOUND;
    let mut output = Vec::new();
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll the child") {
            break status;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.min(Duration::from_millis(200))) {
            Ok(bytes) => output.extend(bytes),
            Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                let _ = child.kill();
                panic!(
                    "`arena {}` did not finish within {BOUND:?} at a terminal; it wrote:\n{}",
                    args.join(" "),
                    String::from_utf8_lossy(&output)
                );
            }
            Err(_) => {}
        }
    };
    // What the child wrote before it exited is still in the pty.
    drop(pair.master);
    while let Ok(bytes) = rx.recv_timeout(Duration::from_secs(2)) {
        output.extend(bytes);
    }
    (String::from_utf8_lossy(&output).into_owned(), status.exit_code())
}

#[test]
fn sim_games_finishes_at_a_terminal_and_draws_its_progress() {
    let (output, code) = at_terminal(&["sim", "assault", "--games", "40", "--jobs", "2", "--random-teams"], &[]);
    assert!(output.contains("40 games of assault (random teams)"), "no statistics in:\n{output}");
    assert!(output.contains("player 1 wins"), "no win rates in:\n{output}");
    // The bar was drawn at the terminal (so the run above went through it).
    assert!(output.contains("/40 games"), "no progress bar in:\n{output}");
    assert!(code <= 1, "exit code {code}:\n{output}");
}

#[test]
fn colour_at_a_terminal_unless_no_color_is_set() {
    // clap's own error, and a content diagnostic: coloured at a terminal...
    let (typo, code) = at_terminal(&["chekc"], &[]);
    assert_eq!(code, 2, "{typo}");
    assert!(typo.contains("\u{1b}["), "no colour at a terminal: {typo:?}");
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/bad/unknown-field/p");
    let (check, code) = at_terminal(&["check", bad], &[]);
    assert_eq!(code, 1, "{check}");
    assert!(check.contains("\u{1b}["), "no colour at a terminal: {check:?}");
    // ...and not with NO_COLOR (any non-empty value), unless --color always.
    let (typo, _) = at_terminal(&["chekc"], &[("NO_COLOR", "1")]);
    assert!(typo.contains("unrecognized subcommand") && !typo.contains('\u{1b}'), "{typo:?}");
    let (check, _) = at_terminal(&["check", bad], &[("NO_COLOR", "1")]);
    assert!(check.contains("unknown-field") && !check.contains('\u{1b}'), "{check:?}");
    let (forced, _) = at_terminal(&["--color", "always", "check", bad], &[("NO_COLOR", "1")]);
    assert!(forced.contains("\u{1b}["), "--color always: {forced:?}");
}

/// `--color auto` at a terminal follows the environment as `anstyle-query`
/// reads it: no colour when `TERM` is `dumb` or `CLICOLOR` is `0`.
#[test]
fn no_colour_at_a_dumb_terminal_or_with_clicolor_0() {
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/bad/unknown-field/p");
    for env in [[("TERM", "dumb")], [("CLICOLOR", "0")]] {
        let (check, code) = at_terminal(&["check", bad], &env);
        assert_eq!(code, 1, "{env:?}: {check}");
        assert!(check.contains("unknown-field") && !check.contains('\u{1b}'), "{env:?}: {check:?}");
    }
}
