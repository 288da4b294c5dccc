//! Dynamic completion through the `arena` binary, as a shell asks for it
//! (clap_complete's `COMPLETE=bash` protocol, which the code printed by
//! `arena completions bash --dynamic` speaks): the ids of the bundled packs
//! are offered where a command takes one.

use std::process::Command;

/// What `arena` offers for the last of `words` (`words[0]` is `arena`).
fn offered(words: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", (words.len() - 1).to_string())
        .env("_CLAP_IFS", "\n")
        .arg("--")
        .args(words)
        .output()
        .expect("run arena");
    assert!(out.status.success(), "{words:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect()
}

#[test]
fn the_ids_of_the_bundled_packs_are_completed_where_a_command_takes_one() {
    let has = |words: &[&str], want: &[&str]| {
        let got = offered(words);
        for w in want {
            assert!(got.iter().any(|g| g == w), "{words:?}: `{w}` not offered in {got:?}");
        }
        got
    };
    let scenarios = has(&["arena", "sim", "as"], &["assault"]);
    assert!(scenarios.iter().all(|s| s.starts_with("as")), "{scenarios:?}");
    has(&["arena", "sim", "inv"], &["invictus"]);
    has(&["arena", "ladder", "first"], &["first-game"]);
    has(&["arena", "render", "map", "hexadome-"], &["hexadome-a", "hexadome-b"]);
    has(&["arena", "show", "character:hann"], &["character:hannibal"]);
    has(&["arena", "sim", "invictus", "--gods", "ath"], &["athena"]);
    has(&["arena", "sim", "assault", "--players", "gr"], &["greedy"]);
    has(&["arena", "script", "effect.lua", "--self", "parv"], &["parvati"]);
    has(&["arena", "watch", "--sim", "ass"], &["assault"]);
    // Commands and options still, as the static scripts complete them.
    has(&["arena", "si"], &["sim"]);
    has(&["arena", "sim", "--random-t"], &["--random-teams"]);
}

#[test]
fn completions_dynamic_prints_the_registration_of_every_shell() {
    for (shell, marker) in [
        ("bash", "COMPLETE=\"bash\""),
        ("zsh", "#compdef arena"),
        ("fish", "complete"),
        ("elvish", "COMPLETE"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arena")).args(["completions", shell, "--dynamic"]).output().unwrap();
        assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(marker) && text.contains("arena"), "{shell}: no `{marker}` in\n{text}");
    }
}

/// The bash code of `arena completions bash --dynamic`, sourced, completes
/// an id at the prompt (it calls the `arena` found on PATH back).
#[test]
fn bash_completes_a_map_id_through_the_dynamic_registration() {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_arena"));
    let out = Command::new(bin).args(["completions", "bash", "--dynamic"]).output().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("arena.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let program = format!(
        "source '{}'; COMP_WORDS=(arena render map hexadome-); COMP_CWORD=3; _clap_complete_arena arena 'hexadome-' map; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = Command::new("bash").args(["--norc", "-c", &program]).env("PATH", path).output().expect("run bash");
    let offered = String::from_utf8_lossy(&out.stdout);
    let mut offered: Vec<&str> = offered.lines().map(str::trim).collect();
    offered.sort();
    assert_eq!(offered, ["hexadome-a", "hexadome-b"], "{}", String::from_utf8_lossy(&out.stderr));
}
