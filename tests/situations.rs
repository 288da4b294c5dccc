//! The rulebooks' worked examples and single-rule cases as situation files
//! (`situations/*.toml`, named by their case id in `../shared/cases/`): each
//! plays on the bundled content with the exact dice and choices of the example,
//! must meet every `expect` line in order, and its narrative is a snapshot.

use arena_tests::{arena, tests_dir};

#[test]
fn situations_play_as_the_rulebooks_say() {
    std::env::set_current_dir(tests_dir()).unwrap();
    insta::glob!("situations/*.toml", |path| {
        let rel = path.strip_prefix(tests_dir()).unwrap().to_str().unwrap().to_string();
        let run = arena(&["run", &rel]);
        assert_eq!(run.code, 0, "{rel}:\n{}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("expected events happened"), "{rel} has no `expect` lines: {}", run.stderr);
        insta::assert_snapshot!(run.stdout);
    });
}

/// A situation whose expectation is not met fails, naming the missing line.
#[test]
fn an_unmet_expectation_fails() {
    std::env::set_current_dir(tests_dir()).unwrap();
    let text = std::fs::read_to_string(tests_dir().join("situations/poisoned-stacks.toml")).unwrap();
    let wrong = text.replace("\"valkyrie suffers 1 Damage (2)\"", "\"valkyrie suffers 1 Damage (3)\"");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("wrong.toml");
    std::fs::write(&file, wrong).unwrap();
    let run = arena(&["run", file.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("expected \"valkyrie suffers 1 Damage (3)\""), "{}", run.stderr);
}
