//! The conventions of a Rust command-line tool: shell
//! completions and man pages generated from the clap definitions, a global
//! `--color` that clap's own errors follow too, `-q`/`-v`, and versioned JSON
//! from `sim`, `show` and `diff`.

use arena_tests::{arena, tests_dir};
use serde_json::Value;
use std::process::Command;

/// What bash offers after the words `line` (the last one being completed),
/// using the script `arena completions bash` printed.
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let cur = words[cword];
    let prev = words[cword - 1];
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _arena arena '{cur}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" ")
    );
    let out = Command::new("bash").arg("--norc").arg("-c").arg(program).output().expect("run bash");
    assert!(out.status.success(), "bash failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn bash_completes_commands_flags_and_values_from_the_clap_definitions() {
    let run = arena(&["completions", "bash"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("arena.bash");
    std::fs::write(&script, &run.stdout).unwrap();
    assert_eq!(bash_completes(&script, &["arena", "si"]), ["sim"]);
    assert_eq!(bash_completes(&script, &["arena", "sim", "--random-t"]), ["--random-teams"]);
    assert_eq!(bash_completes(&script, &["arena", "check", "--color", ""]), ["auto", "always", "never"]);
    assert_eq!(bash_completes(&script, &["arena", "completions", "fi"]), ["fish"]);
    let mut commands = bash_completes(&script, &["arena", ""]);
    commands.sort();
    for c in
        ["check", "completions", "diff", "generate", "lock", "man", "replay", "run", "script", "show", "sim", "watch"]
    {
        assert!(commands.iter().any(|x| x == c), "`{c}` not offered: {commands:?}");
    }
}

#[test]
fn completions_for_every_shell_name_the_commands() {
    for (shell, marker) in [
        ("zsh", "#compdef arena"),
        ("fish", "complete -c arena"),
        ("elvish", "edit:completion:arg-completer[arena]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let run = arena(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        assert!(run.stdout.contains(marker), "{shell}: no `{marker}` in\n{}", run.stdout);
        assert!(run.stdout.contains("random-teams"), "{shell}: sim's flags missing");
    }
    let bad = arena(&["completions", "tcsh"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("possible values"), "{}", bad.stderr);
}

/// groff (groff-base, on every machine with man-db) reads the page with every
/// warning on: no warning, and the sections and commands are there.
fn groff_reads(page: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run groff");
    child.stdin.take().unwrap().write_all(page.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "groff failed");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "groff warnings");
    // Bold and underline are overstrikes in -Tutf8: drop them.
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    plain
}

#[test]
fn the_man_page_is_valid_roff_with_every_command_and_the_global_options() {
    let run = arena(&["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with(".ie") || run.stdout.contains(".TH arena 1"), "{}", run.stdout);
    let text = groff_reads(&run.stdout);
    for heading in ["NAME", "SYNOPSIS", "OPTIONS", "SUBCOMMANDS"] {
        assert!(text.contains(heading), "no {heading} in\n{text}");
    }
    for c in ["arena-check(1)", "arena-sim(1)", "arena-completions(1)", "arena-man(1)"] {
        assert!(text.contains(c), "{c} not listed in\n{text}");
    }
    assert!(text.contains("--color") && text.contains("--quiet") && text.contains("--verbose"), "{text}");

    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("man");
    let run = arena(&["man", "--out-dir", out_dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sim = std::fs::read_to_string(out_dir.join("arena-sim.1")).expect("arena-sim.1 written");
    let sim = groff_reads(&sim);
    assert!(sim.contains("--random-teams"), "{sim}");
    assert!(out_dir.join("arena.1").is_file() && out_dir.join("arena-check.1").is_file());
}

#[test]
fn color_always_and_never_apply_to_clap_errors_and_to_diagnostics() {
    let typo = arena(&["--color", "always", "chekc"]);
    assert_eq!(typo.code, 2);
    assert!(typo.stderr.contains("\u{1b}["), "no colour in: {:?}", typo.stderr);
    assert!(typo.stderr.contains("check"), "{}", typo.stderr);
    // The flag may follow the subcommand too (it is global), in either spelling.
    let typo = arena(&["check", "--nope", "--color=always"]);
    assert_eq!(typo.code, 2);
    assert!(typo.stderr.contains("\u{1b}["), "no colour in: {:?}", typo.stderr);
    let plain = arena(&["--color", "never", "chekc"]);
    assert!(!plain.stderr.contains('\u{1b}'), "{:?}", plain.stderr);

    std::env::set_current_dir(tests_dir()).unwrap();
    let bad = "fixtures/bad/unknown-field/p";
    let colored = arena(&["check", bad, "--color", "always"]);
    assert_eq!(colored.code, 1, "{}", colored.stderr);
    assert!(colored.stderr.contains("\u{1b}["), "{:?}", colored.stderr);
    let plain = arena(&["--color", "never", "check", bad]);
    assert_eq!(plain.code, 1, "{}", plain.stderr);
    assert!(plain.stderr.contains("unknown-field") && !plain.stderr.contains('\u{1b}'), "{:?}", plain.stderr);
}

#[test]
fn quiet_and_verbose() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let verbose = arena(&["-v", "show", "character:hannibal", "../content"]);
    assert_eq!(verbose.code, 0, "{}", verbose.stderr);
    assert!(verbose.stderr.contains("loaded pack aristeia-core@"), "{}", verbose.stderr);
    let plain = arena(&["show", "character:hannibal", "../content"]);
    assert!(!plain.stderr.contains("loaded pack"), "{}", plain.stderr);
    let both = arena(&["-q", "-v", "check"]);
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("cannot be used with"), "{}", both.stderr);
}

#[test]
fn sim_show_and_diff_json_carry_a_version_and_a_kind() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["sim", "first-game", "--pack", "../content", "--format", "json"], "sim-game"),
        (
            &["sim", "first-game", "--pack", "../content", "--games", "2", "--jobs", "1", "--format", "json"],
            "sim-batch",
        ),
        (&["show", "character:hannibal", "../content", "--format", "json"], "show"),
        (&["diff", "--base", "../content", "--with", "../mods/errata-1.6", "--format", "json"], "diff"),
    ];
    for (args, kind) in cases {
        let run = arena(args);
        assert!(run.code <= 1, "{args:?}: {}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(v["version"], 1, "{args:?}");
        assert_eq!(v["kind"], kind, "{args:?}");
        // The version comes first, so a reader can stop early on one it does not know.
        assert_eq!(v.as_object().unwrap().keys().next().map(String::as_str), Some("version"), "{args:?}");
    }
}

/// `arena man --out-dir D` does not write through a symbolic link in D: the
/// link is replaced by the page, its target left as it was (it wrote through
/// it, when every other writer already replaced the link).
#[cfg(unix)]
#[test]
fn man_out_dir_replaces_a_symlink_not_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("precious.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out_dir = dir.path().join("man");
    std::fs::create_dir(&out_dir).unwrap();
    std::os::unix::fs::symlink(&victim, out_dir.join("arena-check.1")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("never-made.txt"), out_dir.join("arena.1")).unwrap();
    let run = arena(&["man", "--out-dir", out_dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n", "the link's target was overwritten");
    assert!(!dir.path().join("never-made.txt").exists(), "a dangling link was followed");
    for page in ["arena-check.1", "arena.1"] {
        let meta = std::fs::symlink_metadata(out_dir.join(page)).unwrap();
        assert!(meta.file_type().is_file(), "{page} is still a link");
        assert!(std::fs::read_to_string(out_dir.join(page)).unwrap().contains(".TH"), "{page} is not a man page");
    }
}

/// Every file the `arena` commands write goes through the one atomic writer,
/// `write_atomically` (a temporary file beside the target, synced, renamed
/// over it: whole or not at all, and a symlink replaced, never written
/// through). The sources of `tools` and `engine` are searched for every other
/// way Rust writes a file; the only ones allowed are the writer itself and
/// the bundled packs' first extraction (a fresh temporary folder, renamed
/// into place whole). And each command that writes names the writer.
#[test]
fn every_writer_goes_through_the_atomic_writer() {
    let root = tests_dir().join("..");
    let writes = [
        "fs::write(",
        "File::create",
        "OpenOptions",
        ".persist(",
        "generate_to(",
        "fs::copy(",
        ".extract(",
        "fs::rename(",
    ];
    // (file, pattern, why it may): the helper's own body, and the embedded packs.
    let allowed = [
        ("tools/src/lib.rs", ".persist(", "write_atomically itself"),
        ("tools/src/lib.rs", "OpenOptions", "write_atomically streaming to a FIFO or device"),
        ("tools/src/packs.rs", ".extract(", "the bundled packs, into a fresh temporary folder"),
        ("tools/src/packs.rs", "fs::rename(", "that folder renamed into place whole"),
    ];
    let mut found = Vec::new();
    let mut stack = vec![root.join("tools/src"), root.join("engine/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            // Unit test modules (`tests.rs`) may write their own temporary files.
            if path.extension().is_none_or(|e| e != "rs") || path.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            for (n, line) in code.lines().enumerate() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                for w in writes {
                    if line.contains(w) && !allowed.iter().any(|(f, p, _)| *f == rel && *p == w) {
                        found.push(format!("{rel}:{}: {line}", n + 1));
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "writes that bypass write_atomically:\n{}", found.join("\n"));
    // The commands that write: each through the writer.
    for (file, what) in [
        ("tools/src/check.rs", "arena lock"),
        ("tools/src/lib.rs", "arena generate, arena man --out-dir"),
        ("tools/src/play.rs", "arena sim --replay (every game)"),
        ("tools/src/replay.rs", "arena replay --upgrade"),
        ("tools/src/render.rs", "arena render --out"),
        ("tools/src/scaffold.rs", "arena new"),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(
            text.contains("write_atomically(") || text.contains("stdio::write_output("),
            "{what} ({file}) does not write through write_atomically"
        );
    }
    // `-` writes to standard output; every other path through the writer.
    let stdio = std::fs::read_to_string(root.join("tools/src/stdio.rs")).unwrap();
    let write_output = stdio.split("fn write_output(").nth(1).expect("stdio::write_output");
    assert!(write_output.contains("crate::write_atomically(path, bytes)"), "{write_output}");
}

/// A FIFO at the path a command writes (or a link to one, as `/dev/stdout`
/// is to a pipe) is written to as a stream, not replaced by a regular file:
/// its reader gets the bytes, and the FIFO and the link are still there.
/// (A device node such as `/dev/full` is the same case; no test touches one.)
#[cfg(unix)]
#[test]
fn a_fifo_or_device_at_the_path_is_streamed_to_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    use std::sync::mpsc;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo failed");
    let link = dir.path().join("stdout");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    for (target, bytes) in [(&fifo, &b"first replay"[..]), (&link, &b"second, through the link"[..])] {
        let (tx, rx) = mpsc::channel();
        let reader = fifo.clone();
        // Blocks until a writer opens the FIFO; if it never does (the FIFO
        // was renamed over), the timeout below fails the test and the thread
        // is left behind.
        std::thread::spawn(move || {
            let _ = tx.send(std::fs::read(&reader).map_err(|e| e.to_string()));
        });
        let (wtx, wrx) = mpsc::channel();
        let path = target.clone();
        let owned = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = wtx.send(arena::write_atomically(&path, &owned).map_err(|e| e.to_string()));
        });
        let wrote = wrx.recv_timeout(Duration::from_secs(20)).expect("the writer finishes");
        assert!(wrote.is_ok(), "{}: {wrote:?}", target.display());
        let read = rx.recv_timeout(Duration::from_secs(20)).expect("the FIFO's reader gets the bytes");
        assert_eq!(read.unwrap(), bytes, "{}", target.display());
        let meta = std::fs::metadata(&fifo).unwrap();
        assert!(meta.file_type().is_fifo(), "the FIFO was replaced by {:?}", meta.file_type());
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    }
    // A link to a regular file is still replaced, never written through.
    let file = dir.path().join("victim");
    std::fs::write(&file, "ORIGINAL").unwrap();
    let to_file = dir.path().join("to-file");
    std::os::unix::fs::symlink(&file, &to_file).unwrap();
    arena::write_atomically(&to_file, b"new").unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "ORIGINAL");
    assert!(std::fs::symlink_metadata(&to_file).unwrap().file_type().is_file());
}

/// Every id given on the command line that names nothing loaded gets "did
/// you mean" when one is near: Scenarios and setups (`sim`), maps
/// (`render map`), Characters (`script --self`, `--target`), entries
/// (`show`), controllers (`--players`) and optional rules.
#[test]
fn a_misspelt_id_on_the_command_line_gets_did_you_mean() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let script = tests_dir().join("fixtures/good/worked-example/duelist/scripts/en-garde.lua");
    let script = script.to_str().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (&["sim", "asault", "--pack", "../content"], "(did you mean `assault`?)"),
        (&["sim", "first-gme", "--pack", "../content"], "(did you mean `first-game`?)"),
        (&["sim", "invictis"], "(did you mean `invictus`?)"),
        (&["render", "map", "hexadome-x", "--pack", "../content"], "(did you mean `hexadome-a`?)"),
        (&["show", "character:hanibal", "../content"], "(did you mean `character:hannibal`?)"),
        (&["sim", "assault", "--players", "gredy"], "(did you mean `greedy`?)"),
        (&["sim", "wanted", "--optional-rule", "undrdog"], "(did you mean `underdog`?)"),
        (&["script", script, "--pack", "../content", "--self", "valkyre"], "(did you mean `valkyrie`?)"),
        (&["script", script, "--pack", "../content", "--target", "hanibal"], "(did you mean `hannibal`?)"),
    ];
    for (args, hint) in cases {
        let run = arena(args);
        assert!(run.stderr.contains(hint), "{args:?}: {}", run.stderr);
    }
}

/// `--jobs 0` is a usage error (exit 2) for `sim --games`, not a batch "on 0
/// jobs" (`watch --jobs` has the same parser; not run here, since before the
/// fix it would watch for ever).
#[test]
fn zero_worker_threads_is_a_usage_error() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let run = arena(&["sim", "first-game", "--pack", "../content", "--games", "2", "--jobs", "0"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--jobs"), "{}", run.stderr);
    assert!(!run.stdout.contains("0 jobs"), "{}", run.stdout);
}

/// Games played without a person refuse a `human` seat, where they used to
/// seat greedy in its place without a word; options of one game refuse the
/// other (`--random-teams` draws Aristeia! teams, Invictus deals gods); the
/// last seed a batch can reach is named. Exit 2 (usage) for each.
#[test]
fn batches_refuse_what_they_cannot_play_and_say_why() {
    let refused = |args: &[&str], says: &str| {
        let r = arena_tests::arena(args);
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    };
    let human = "`human` plays one game at the terminal";
    refused(&["sim", "assault", "--games", "2", "--players", "human,greedy"], human);
    refused(&["ladder", "assault", "--games", "1", "--players", "human,greedy"], human);
    refused(&["watch", "content", "--sim", "assault", "--players", "human"], human);
    let teams = "--random-teams draws Aristeia! teams";
    refused(&["sim", "invictus", "--games", "2", "--random-teams"], teams);
    refused(&["ladder", "invictus", "--games", "1", "--random-teams", "--players", "greedy,random"], teams);
    refused(&["sim", "assault", "--games", "1", "--seed", "18446744073709551615"], "(18446744073709551614)");
    // One game plays any seed.
    let last = arena_tests::arena(&["sim", "assault", "--seed", "18446744073709551615"]);
    assert_eq!(last.code, 0, "{}", last.stderr);
}

/// A batch of one game says so in the singular, and names its one seed.
#[test]
fn a_batch_of_one_game_says_one_game_and_its_seed() {
    let one = arena_tests::arena(&["sim", "assault", "--games", "1", "--seed", "4"]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(one.stdout.starts_with("1 game of first-game, seed 4, "), "{}", one.stdout);
    let invictus = arena_tests::arena(&["sim", "invictus", "--games", "1", "--seed", "4"]);
    assert!(invictus.stdout.starts_with("1 Invictus game, 4 players, seed 4, "), "{}", invictus.stdout);
    assert!(invictus.stdout.contains("\n1 game: "), "{}", invictus.stdout);
    let two = arena_tests::arena(&["sim", "assault", "--games", "2", "--seed", "4"]);
    assert!(two.stdout.starts_with("2 games of first-game, seeds 4-5, "), "{}", two.stdout);
}

/// `-` as a FILE: standard input for every command that reads a file
/// (`run`, `script`, `replay`, `render situation`, `render replay`, `sim
/// merge`, `check --lockfile`), standard output for every one that writes
/// one (`sim --replay`, `replay --upgrade --out`, `render --out`, `lock
/// --output`), as POSIX utilities read it. (`serve --replay -` reads it
/// the same way, before the viewer starts.)
#[test]
fn a_dash_is_standard_input_where_a_file_is_read_and_standard_output_where_one_is_written() {
    use arena_tests::arena_with_stdin;
    std::env::set_current_dir(tests_dir()).unwrap();
    // run: the same narrative from the file and from standard input.
    let file = "situations/001-simple-roll-example.toml";
    let from_file = arena(&["run", file]);
    let piped = arena_with_stdin(&["run", "-"], std::fs::read(file).unwrap());
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    assert_eq!((piped.code, &piped.stdout), (0, &from_file.stdout), "{}", piped.stderr);
    // A bad situation on standard input is named `<stdin>`, at its line.
    let bad = arena_with_stdin(&["run", "-"], "scenario = \"assault\"\nactive = 3\n");
    assert_eq!(bad.code, 1, "{}", bad.stderr);
    assert!(bad.stderr.contains("<stdin>:2:"), "{}", bad.stderr);
    // script
    let script = arena_with_stdin(&["script", "-", "--pack", "../content"], "return 40 + 2");
    assert_eq!(script.code, 0, "{}", script.stderr);
    assert!(script.stdout.contains("result: 42"), "{}", script.stdout);

    // sim --replay -: the replay is stdout, the narrative stderr; replay -
    // reads it back; render replay - draws it.
    let sim = arena(&["sim", "first-game", "--pack", "../content", "--seed", "4", "--replay", "-"]);
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    let replay: Value = serde_json::from_str(&sim.stdout).expect("stdout is the replay file");
    assert_eq!(replay["seed"], 4);
    assert!(sim.stderr.contains("Round 1"), "the narrative is on stderr: {}", sim.stderr);
    let again = arena_with_stdin(&["replay", "-", "--pack", "../content"], sim.stdout.clone());
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stdout.contains("replay ok"), "{}", again.stdout);
    let upgraded = arena_with_stdin(&["replay", "-", "--pack", "../content", "--upgrade"], sim.stdout.clone());
    assert_eq!(upgraded.code, 0, "{}", upgraded.stderr);
    let v: Value =
        serde_json::from_str(upgraded.stdout.split("replay ok").nth(1).and_then(|s| s.split_once('\n')).unwrap().1)
            .expect("the upgraded file follows on stdout");
    assert_eq!(v["seed"], 4);
    let drawn = arena_with_stdin(&["render", "replay", "-", "--pack", "../content", "--out", "-"], sim.stdout.clone());
    assert_eq!(drawn.code, 0, "{}", drawn.stderr);
    assert!(drawn.stdout.starts_with("<svg"), "{}", &drawn.stdout[..drawn.stdout.len().min(200)]);
    let position = arena_with_stdin(&["render", "situation", "-", "--format", "text"], std::fs::read(file).unwrap());
    assert_eq!(position.code, 0, "{}", position.stderr);
    assert!(position.stdout.contains("parvati"), "{}", position.stdout);

    // lock --output - and check --locked --lockfile -.
    let lock = arena(&["lock", "../content", "--output", "-"]);
    assert_eq!(lock.code, 0, "{}", lock.stderr);
    assert!(lock.stdout.contains("aristeia-core"), "{}", lock.stdout);
    let locked = arena_with_stdin(&["check", "../content", "--locked", "--lockfile", "-"], lock.stdout.clone());
    assert_eq!(locked.code, 0, "{}{}", locked.stdout, locked.stderr);
    // A lockfile that pins nothing (empty: `arena lock` failed in the pipe) fails.
    for empty in ["", "# nothing\n"] {
        let none = arena_with_stdin(&["check", "../content", "--locked", "--lockfile", "-"], empty);
        assert_eq!(none.code, 1, "{empty:?}: {}{}", none.stdout, none.stderr);
        assert!(none.stderr.contains("pins no pack"), "{}", none.stderr);
    }
    let stale = lock.stdout.replacen("aristeia-core", "aristeia-kore", 1);
    let unlocked = arena_with_stdin(&["check", "../content", "--locked", "--lockfile", "-"], stale);
    assert_eq!(unlocked.code, 1, "{}{}", unlocked.stdout, unlocked.stderr);

    // sim merge: one shard from standard input, one from a file; a second `-` is refused.
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: &str| {
        let r = arena(&[
            "sim",
            "first-game",
            "--pack",
            "../content",
            "--games",
            "2",
            "--jobs",
            "1",
            "--shard",
            i,
            "--format",
            "json",
        ]);
        assert!(r.code <= 1, "{}", r.stderr);
        r.stdout
    };
    let second = dir.path().join("2.json");
    std::fs::write(&second, shard("2/2")).unwrap();
    let merged =
        arena_with_stdin(&["sim", "merge", "-", second.to_str().unwrap(), "--pack", "../content"], shard("1/2"));
    assert!(merged.code <= 1, "{}", merged.stderr);
    assert!(merged.stdout.contains("2 games"), "{}", merged.stdout);
    let twice = arena_with_stdin(&["sim", "merge", "-", "-", "--pack", "../content"], shard("1/2"));
    assert_eq!(twice.code, 2, "{}", twice.stderr);
    assert!(twice.stderr.contains("standard input was read already"), "{}", twice.stderr);
}

/// Every JSON document a command prints starts with `"version"` and says
/// its `"kind"` (docs/json.md), `run` and `script` included.
#[test]
fn run_script_and_ladder_json_carry_a_version_and_a_kind() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["run", "situations/001-simple-roll-example.toml", "--format", "json"], "situation"),
        (&["run", "situations/001-simple-roll-example.toml", "--state", "--format", "json"], "situation"),
        (&["script", "fixtures/scripts/frostbite.lua", "--pack", "../content", "--format", "json"], "script"),
        (
            &[
                "ladder",
                "first-game",
                "--pack",
                "../content",
                "--players",
                "random,greedy",
                "--games",
                "1",
                "--format",
                "json",
            ],
            "ladder",
        ),
    ];
    for (args, kind) in cases {
        let run = arena(args);
        assert!(run.code <= 1, "{args:?}: {}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", run.stdout));
        assert_eq!(v.as_object().unwrap().keys().next().map(String::as_str), Some("version"), "{args:?}");
        assert_eq!((&v["version"], &v["kind"]), (&Value::from(1), &Value::from(kind)), "{args:?}");
    }
}

/// An id that no loaded pack defines is a usage error, exit 2, in every
/// command that takes one (arena(1) EXIT STATUS).
#[test]
fn an_unknown_id_exits_2_in_every_command_that_takes_one() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let cases: [&[&str]; 7] = [
        &["show", "character:hanibal", "../content"],
        &["render", "map", "hexadome-z", "--pack", "../content"],
        &["sim", "asault", "--pack", "../content"],
        &["ladder", "asault", "--pack", "../content"],
        &["sim", "invictus", "--pack", "../content", "--gods", "zues,hera,hades,ares"],
        &["sim", "asault", "--pack", "../content", "--games", "2"],
        &["diff", "--base", "../content", "--with", "no-such-pack"],
    ];
    for args in cases {
        let run = arena(args);
        assert_eq!(run.code, 2, "{args:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.starts_with("error"), "{args:?}: {}", run.stderr);
    }
}

/// The man page reads as plain text (no Markdown code marks) and has the
/// sections a man page is expected to have beside clap's.
#[test]
fn the_man_page_has_exit_status_environment_files_and_examples_without_markdown() {
    let run = arena(&["man"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = groff_reads(&run.stdout);
    for heading in ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
        assert!(text.contains(&format!("\n{heading}\n")), "no {heading} in\n{text}");
    }
    for name in ["NO_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "TERM", "XDG_CACHE_HOME", "arena.lock"] {
        assert!(text.contains(name), "{name} not in\n{text}");
    }
    assert!(text.contains("arena sim assault --replay - | arena replay -"), "{text}");
    let dir = tempfile::tempdir().unwrap();
    let run = arena(&["man", "--out-dir", dir.path().to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for page in std::fs::read_dir(dir.path()).unwrap() {
        let page = std::fs::read_to_string(page.unwrap().path()).unwrap();
        assert!(!groff_reads(&page).contains('`'), "a Markdown code mark in\n{page}");
    }
}

/// A bundled pack is named by its id wherever a pack is given (`--pack
/// aristeia-prime-time`, `diff --base aristeia-soldiers-of-fortune`), and a
/// Scenario the named packs lack says which bundled pack has it.
#[test]
fn a_bundled_pack_is_named_by_its_id() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let lacking = arena(&["sim", "wanted", "--pack", "aristeia-core"]);
    assert_eq!(lacking.code, 2, "{}", lacking.stderr);
    assert!(
        lacking
            .stderr
            .contains("help: `wanted` is in the bundled pack aristeia-prime-time: add `--pack aristeia-prime-time`"),
        "{}",
        lacking.stderr
    );
    let named = arena(&["sim", "wanted", "--pack", "aristeia-core", "--pack", "aristeia-prime-time", "-v"]);
    assert_eq!(named.code, 0, "{}", named.stderr);
    assert!(named.stderr.contains("loaded pack aristeia-prime-time@"), "{}", named.stderr);
    let versioned = arena(&["show", "character:hannibal", "aristeia-soldiers-of-fortune@1.0.0"]);
    assert_eq!(versioned.code, 0, "{}", versioned.stderr);
    let diff = arena(&[
        "diff",
        "--base",
        "aristeia-soldiers-of-fortune",
        "--with",
        "aristeia-soldiers-of-fortune",
        "--with",
        "errata-1-6",
    ]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(diff.stdout.contains("hannibal"), "{}", diff.stdout);
    // An id that is no bundled pack is a path that does not exist, said so.
    let unknown = arena(&["show", "character:hannibal", "aristeia-kore"]);
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("aristeia-kore"), "{}", unknown.stderr);
}

/// `check --strict` on a mod lists the notes of the mod, not of the bundled
/// packs borrowed for its dependencies (86 notes about them drowned the
/// mod's); `--strict-all` lists those too.
#[test]
fn strict_notes_are_of_the_packs_checked_unless_strict_all() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let notes = |flag: &str| {
        let run = arena(&["check", "../mods/duelist", flag, "--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "note")
            .map(|d| d["location"]["file"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<String>>()
    };
    let strict = notes("--strict");
    assert!(strict.iter().all(|f| !f.contains("content/aristeia-core")), "{strict:?}");
    let all = notes("--strict-all");
    assert!(all.iter().any(|f| f.contains("content/aristeia-core")), "{all:?}");
    assert!(all.len() > strict.len(), "{} vs {}", all.len(), strict.len());
}
