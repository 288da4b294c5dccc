//! The human seat at the terminal shows a compact board with each Decision
//! (issue 18, item 3): the position, the options on spaces numbered on it.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_human_seat_shows_the_board_with_each_decision() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["sim", "assault", "--seed", "2", "--players", "human,greedy", "--color", "never"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    // Three answers (the first option each time), then the end of input: the
    // greedy player plays on and the game ends.
    child.stdin.take().unwrap().write_all(b"1\n1\n1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code().unwrap_or(9) <= 1, "{err}");
    let key = "A-Z player 1  a-z player 2  1-9 options";
    let boards = err.matches(key).count();
    assert!(
        boards >= 4,
        "a board with each of the 4 Decisions shown (3 answered, 1 at the end of input): {boards}\n{err}"
    );
    // The first Decision about a space (Deployment): its options are numbered on the board.
    let deploy = err.find("Deploy where?").expect("a Deployment Decision");
    let key_at = err[..deploy].rfind(key).expect("a board before it");
    let option_line = |l: &str| {
        l.trim_start().split_once(". ").is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    // A board row is single characters apart: no word (the legend's "free").
    let word = |l: &str| l.as_bytes().windows(2).any(|w| w[0].is_ascii_alphabetic() && w[1].is_ascii_alphabetic());
    let board_chars = |l: &str| {
        !option_line(l) && !word(l) && l.chars().all(|c| c.is_ascii_alphanumeric() || " .#=*?~!+".contains(c))
    };
    let start = err[..key_at].rfind(key).map_or(0, |i| i + key.len());
    let rows: Vec<&str> = err[start..key_at].lines().filter(|l| l.contains('.') && board_chars(l)).collect();
    let board = rows.join("\n");
    assert_eq!(rows.len(), 19, "19 rows for a board of radius 9:\n{board}");
    assert!(rows.iter().any(|r| r.contains('1')) && rows.iter().any(|r| r.contains('2')), "numbered options:\n{board}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("== Game over"));
}

/// The human seat, written once, plays Invictus too: its god's Health,
/// Stamina and own hand, the numbered options; at the end of input the
/// greedy player plays on and the game ends.
#[test]
fn the_human_seat_plays_an_invictus_seat() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["sim", "invictus", "--seats", "2", "--seed", "1", "--players", "human,greedy", "--color", "never"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    child.stdin.take().unwrap().write_all(b"1\n1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(" HP, Stamina "), "its god's Health and Stamina: {err}");
    assert!(err.contains("): hand "), "its own hand: {err}");
    assert!(err.contains("   1. "), "numbered options: {err}");
    assert!(err.contains("(end of input: the greedy player plays on)"), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("win"),
        "the game ended: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}
