//! docs/ci.md, exactly as written, on a mod repository laid out as it says:
//! the mod pack at the repository root, arena checked out
//! inside it (its `Cargo.toml`, `.git`, content and test fixtures), tool
//! configurations beside the pack. The `arena ...` commands are taken from the
//! document itself, so the test and the docs cannot drift apart.
//!
//! Its own test binary: it changes the process's current folder.

use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The documented `arena ...` commands, in order: the set-up block's, then
/// the workflow's `run:` lines (an output redirection kept apart).
fn documented_commands(doc: &str) -> Vec<(Vec<String>, Option<String>)> {
    let mut out = Vec::new();
    for line in doc.lines() {
        let line = line.trim();
        let cmd = line.strip_prefix("run: ").unwrap_or(line);
        if !cmd.starts_with("arena ") {
            continue;
        }
        let (cmd, redirect) = match cmd.split_once(" > ") {
            Some((c, file)) => (c, Some(file.trim().to_string())),
            None => (cmd, None),
        };
        out.push((cmd.split_whitespace().skip(1).map(str::to_string).collect(), redirect));
    }
    out
}

#[test]
fn the_documented_ci_workflow_passes_on_a_mod_repository() {
    let repo = arena_tests::tests_dir().join("..");
    let doc = std::fs::read_to_string(repo.join("docs/ci.md")).unwrap();
    let commands = documented_commands(&doc);
    assert!(commands.len() >= 3, "docs/ci.md names the lock, check and SARIF commands: {commands:?}");

    // The mod repository: a pack at the root (the duelist example mod), a
    // tool configuration, a workflow, and arena checked out inside it.
    let root = tempfile::tempdir().unwrap();
    let m = root.path();
    copy_dir(&repo.join("mods/duelist"), m);
    std::fs::write(m.join("stylua.toml"), "column_width = 100\nindent_type = \"Spaces\"\n").unwrap();
    std::fs::create_dir_all(m.join(".github/workflows")).unwrap();
    std::fs::write(m.join(".github/workflows/arena.yml"), "name: arena\n").unwrap();
    let arena = m.join("arena");
    copy_dir(&repo.join("content"), &arena.join("content"));
    copy_dir(&repo.join("tests/fixtures/bad/duplicate-id"), &arena.join("tests/fixtures/bad/duplicate-id"));
    std::fs::copy(repo.join("Cargo.toml"), arena.join("Cargo.toml")).unwrap();
    std::fs::create_dir_all(arena.join(".git")).unwrap();
    std::fs::create_dir_all(m.join(".git")).unwrap();

    std::env::set_current_dir(m).unwrap();
    for (args, redirect) in &commands {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = arena_tests::arena(&argv);
        assert_eq!(run.code, 0, "`arena {}` failed:\n{}{}", args.join(" "), run.stdout, run.stderr);
        if let Some(file) = redirect {
            std::fs::write(m.join(file), &run.stdout).unwrap();
            let sarif: serde_json::Value = serde_json::from_str(&run.stdout).expect("the SARIF output is JSON");
            assert_eq!(sarif["version"], "2.1.0");
        }
    }
    assert!(m.join("arena.lock").is_file(), "the set-up wrote the lockfile");
}
