//! What a seat may see: another player's Running Order is placed face down
//! (`000 § Planning Phase`; `001 § Round`: "hidden to the other players"), so
//! the human seat placing second does not read it before placing its own.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn the_second_seat_does_not_see_the_first_running_order_before_placing_its_own() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["sim", "assault", "--seed", "3", "--players", "greedy,human", "--color", "never"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run arena");
    // The first option of every Decision until past the first Planning Phase,
    // then the end of input (the greedy player plays on).
    child.stdin.take().unwrap().write_all("1\n".repeat(40).as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code().unwrap_or(9) <= 1, "{err}");
    let prompt = err.find("Running Order for this Round?").expect("player 2 is asked for a Running Order");
    let before = &err[..prompt];
    assert!(!before.contains("player 1 Running Order:"), "player 1's face-down Running Order leaked:\n{before}");
    assert!(
        before.contains("player 1 places a Running Order of 4 Initiative cards face down"),
        "the placement itself is public:\n{before}"
    );
    // The whole narrative on stdout, printed when the game is over, is for
    // everybody: it holds both Running Orders.
    let narrative = String::from_utf8_lossy(&out.stdout);
    assert!(narrative.contains("player 1 Running Order:"), "{narrative}");
}
