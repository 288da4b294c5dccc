//! The `arena` binary in the environments a user's shell gives it: colour
//! forced into a pipe, and a working folder that holds some `content/`.

use std::process::Command;

/// Variables set (`Some`) or removed (`None`) for one run.
type Env<'a> = &'a [(&'a str, Option<&'a str>)];

const BAD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/bad/unknown-field/p");

/// `arena ARGS` with the environment changed by `env` (`None`: removed),
/// stdout and stderr piped; returns stderr and the exit code.
fn piped(args: &[&str], env: Env<'_>, cwd: &std::path::Path) -> (String, String, i32) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args).current_dir(cwd);
    for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR"] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().expect("run arena");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Into a pipe, `--color auto` gives no colour, unless `CLICOLOR_FORCE` or
/// `FORCE_COLOR` asks for it (and `NO_COLOR` still wins, as anstream
/// orders them); `FORCE_COLOR=0` forces nothing.
#[test]
fn colour_is_forced_into_a_pipe_by_clicolor_force_or_force_color() {
    let here = std::env::temp_dir();
    let cases: [(Env<'_>, bool); 10] = [
        (&[], false),
        (&[("CLICOLOR_FORCE", Some("1"))], true),
        (&[("FORCE_COLOR", Some("1"))], true),
        (&[("FORCE_COLOR", Some("0"))], false),
        (&[("FORCE_COLOR", Some("1")), ("NO_COLOR", Some("1"))], false),
        (&[("CLICOLOR_FORCE", Some("1")), ("CLICOLOR", Some("0"))], true),
        // Forced only by a value that says so.
        (&[("CLICOLOR_FORCE", Some("0"))], false),
        (&[("CLICOLOR_FORCE", Some(""))], false),
        (&[("FORCE_COLOR", Some(""))], false),
        (&[("FORCE_COLOR", Some("false"))], false),
    ];
    for (env, coloured) in cases {
        let (_, stderr, code) = piped(&["check", BAD], env, &here);
        assert_eq!(code, 1, "{env:?}: {stderr}");
        assert!(stderr.contains("unknown-field"), "{env:?}: {stderr}");
        assert_eq!(stderr.contains("\u{1b}["), coloured, "{env:?}: {stderr:?}");
    }
    // clap's own errors follow the same choice.
    let (_, stderr, code) = piped(&["chekc"], &[("FORCE_COLOR", Some("1"))], &here);
    assert_eq!(code, 2);
    assert!(stderr.contains("\u{1b}["), "{stderr:?}");
}

/// A `content/` folder in the working folder is some other content: the
/// bundled packs are still the ones `arena` came with, and that folder is
/// loaded only when named (it silently replaced the bundled packs, so
/// `arena sim assault` failed with a missing dependency).
#[test]
fn a_content_folder_in_the_working_folder_is_loaded_only_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("content/broken");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(pack.join("pack.toml"), "id = \"broken\"\nversion = [not toml\n").unwrap();
    let (stdout, stderr, code) = piped(&["check"], &[], dir.path());
    assert_eq!(code, 0, "the bundled packs: {stdout}{stderr}");
    assert!(!stdout.contains("broken") && !stderr.contains("broken"), "{stdout}{stderr}");
    let (stdout, stderr, code) = piped(&["sim", "first-game"], &[], dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Round 1"), "{stdout}");
    let (stdout, stderr, code) = piped(&["check", "content"], &[], dir.path());
    assert_eq!(code, 1, "named, it is checked: {stdout}{stderr}");
    assert!(stderr.contains("broken") || stdout.contains("broken"), "{stdout}{stderr}");
}
