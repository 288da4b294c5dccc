//! Balance runs split across machines (docs/balance-runs.md): `arena sim --games N
//! --shard I/N` plays one of N disjoint parts of the seeds, and `arena sim
//! merge` adds the parts' reports up into exactly what the whole batch gives
//! on one machine. The workflows in docs/balance-runs.md parse and shard the
//! way the command expects.

use arena_tests::arena;
use serde_json::Value;

/// A batch with random teams (every Character's row), one greedy and one
/// random seat, on the core box and a mod.
fn batch(games: &str, extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "sim",
        "assault",
        "--pack",
        "../content/aristeia-core",
        "--pack",
        "../mods/duelist",
        "--random-teams",
        "--players",
        "greedy,random",
        "--seed",
        "7",
        "--games",
        games,
        "--jobs",
        "2",
    ]
    .map(String::from)
    .to_vec();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run(args: &[String]) -> arena_tests::Run {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    arena(&args)
}

/// Everything under the first line (which names the seeds and the time taken).
fn table(stdout: &str) -> String {
    stdout.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// Play the batch in `n` shards, write each one's JSON to a file, and return the files.
fn shards(dir: &std::path::Path, games: &str, n: u64, extra: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    // Out of order on purpose: merge sorts them.
    for i in (1..=n).rev() {
        let shard = format!("{i}/{n}");
        let mut args = vec!["--shard", shard.as_str(), "--format", "json"];
        args.extend(extra);
        let r = run(&batch(games, &args));
        assert!(r.code <= 1, "shard {shard}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["shard"]["index"], i);
        let path = dir.join(format!("shard-{i}.json"));
        std::fs::write(&path, &r.stdout).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    files
}

fn merge(files: &[String], extra: &[&str]) -> arena_tests::Run {
    let mut args: Vec<String> =
        ["sim", "merge", "--pack", "../content/aristeia-core", "--pack", "../mods/duelist"].map(String::from).to_vec();
    args.extend(files.iter().cloned());
    args.extend(extra.iter().map(|s| s.to_string()));
    run(&args)
}

#[test]
fn four_merged_shards_equal_one_batch_in_json_and_table() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), "14", 4, &[]);

    let whole_json = run(&batch("14", &["--format", "json"]));
    let merged_json = merge(&files, &["--format", "json"]);
    assert_eq!(merged_json.code, whole_json.code, "{}", merged_json.stderr);
    assert_eq!(merged_json.stdout, whole_json.stdout, "the merged JSON is the batch's, byte for byte");
    let v: Value = serde_json::from_str(&merged_json.stdout).unwrap();
    assert_eq!(v["report"]["games"], 14);
    assert_eq!(v["seeds"], serde_json::json!([7, 20]));
    assert_eq!(v["games"].as_array().unwrap().len(), 14);
    assert_eq!(v["tally"]["games"], 14);
    assert!(v.get("shard").is_none());
    // The shards really split the work: each played a part of the seeds.
    let parts: Vec<u64> = files
        .iter()
        .map(|f| {
            let s: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            s["report"]["games"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(parts, vec![4, 3, 4, 3], "shards 4, 3, 2, 1 of 14 games");

    let whole = run(&batch("14", &[]));
    let merged = merge(&files, &[]);
    assert_eq!(merged.code, whole.code, "{}", merged.stderr);
    assert!(merged.stdout.starts_with("14 games of assault (random teams), seeds 7-20, merged from 4 shards\n"));
    assert_eq!(table(&merged.stdout), table(&whole.stdout));
    assert!(table(&whole.stdout).contains("la-duelista"), "{}", whole.stdout);
    assert_eq!(merged.stderr.lines().filter(|l| l.starts_with("seed ")).count(), {
        whole.stderr.lines().filter(|l| l.starts_with("seed ")).count()
    });
}

#[test]
fn shards_without_the_game_list_still_merge() {
    let dir = tempfile::tempdir().unwrap();
    // Three games in three shards: one game each.
    let files = shards(dir.path(), "3", 3, &["--without-games"]);
    let whole = run(&batch("3", &["--format", "json", "--without-games"]));
    let merged = merge(&files, &["--format", "json"]);
    assert_eq!(merged.stdout, whole.stdout, "{}", merged.stderr);
    let v: Value = serde_json::from_str(&merged.stdout).unwrap();
    assert!(v.get("games").is_none());
    assert_eq!(v["report"]["games"], 3);
}

#[test]
fn merge_refuses_what_is_not_one_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), "4", 2, &["--without-games"]);

    let missing = merge(&files[..1], &[]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("1 of 2 shards missing: 1/2"), "{}", missing.stderr);

    let twice = merge(&[files[0].clone(), files[0].clone(), files[1].clone()], &[]);
    assert_eq!(twice.code, 2);
    assert!(twice.stderr.contains("shard 2/2 is given twice"), "{}", twice.stderr);

    // Other packs than the shards played: their content hash differs.
    let mut args: Vec<String> = ["sim", "merge", "--pack", "../content/aristeia-core"].map(String::from).to_vec();
    args.extend(files.iter().cloned());
    let other = run(&args);
    assert_eq!(other.code, 2);
    assert!(other.stderr.contains("played other content"), "{}", other.stderr);

    // A batch of another size is another batch.
    let other_dir = tempfile::tempdir().unwrap();
    let five = shards(other_dir.path(), "5", 2, &["--without-games"]);
    let mixed = merge(&[files[0].clone(), five[0].clone()], &[]);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stderr.contains("are not shards of one batch"), "{}", mixed.stderr);

    let not_json = dir.path().join("notes.txt");
    std::fs::write(&not_json, "hello").unwrap();
    let bad = merge(&[not_json.to_string_lossy().into_owned()], &[]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("not a JSON report"), "{}", bad.stderr);
}

/// A shard's report is not trusted: a `count` above the batch's games is
/// refused at once (a 22 KB shard with `"count": 100000000` built the list of
/// every missing shard, 3.7 GB, and aborted), and every tally is checked
/// against its games (wins above the games printed 3343%, sums wrapped, a
/// third `wins` entry added a "player 3"). Each is exit 2 with the file and
/// the key that cannot be.
#[test]
fn merge_checks_each_shards_count_and_tally_against_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), "4", 2, &["--without-games"]);
    let original: Value = serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    let tampered = |name: &str, change: &dyn Fn(&mut Value)| -> String {
        let mut v = original.clone();
        change(&mut v);
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_string(&v).unwrap()).unwrap();
        path.to_string_lossy().into_owned()
    };
    let refused = |name: &str, change: &dyn Fn(&mut Value), want: &str| {
        let shard = tampered(name, change);
        let started = std::time::Instant::now();
        // The count alone makes it another batch than its sibling's: alone.
        let given = if name == "count.json" { vec![shard] } else { vec![shard, files[0].clone()] };
        let r = merge(&given, &[]);
        assert_eq!(r.code, 2, "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(want), "{name}: no `{want}` in {}", r.stderr);
        assert!(r.stdout.is_empty(), "{name}: printed figures: {}", r.stdout);
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "{name}: took {:?}", started.elapsed());
    };
    refused(
        "count.json",
        &|v| v["shard"]["count"] = 100_000_000.into(),
        "100000000 shards of a batch of 4 games: a batch has at most one shard per game",
    );
    refused("wins.json", &|v| v["tally"]["wins"][0] = 67.into(), "add up to");
    refused(
        "third-player.json",
        &|v| v["tally"]["wins"].as_array_mut().unwrap().push(0.into()),
        "`wins` counts 3 players; the batch has 2",
    );
    refused(
        "overflow.json",
        &|v| v["tally"]["victory_points"][0] = u64::MAX.into(),
        "`victory_points of player 1` is 18446744073709551615, more than the games allow",
    );
    refused(
        "character.json",
        &|v| {
            let (_, c) = v["tally"]["characters"].as_object_mut().unwrap().iter_mut().next().unwrap();
            c["wins"] = (c["games"].as_u64().unwrap() + 1).into();
        },
        "wins` is",
    );
    // Sharding a batch into more parts than it has games is refused too.
    let r = run(&batch("3", &["--shard", "4/4", "--format", "json"]));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("4 shards of 3 games"), "{}", r.stderr);
}

#[test]
fn bad_shard_syntax_is_a_usage_error() {
    for bad in ["0/4", "5/4", "2", "x/y"] {
        let r = run(&batch("4", &["--shard", bad]));
        assert_eq!(r.code, 2, "{bad}: {}", r.stderr);
        assert!(r.stderr.contains("--shard"), "{bad}: {}", r.stderr);
    }
}

/// The YAML blocks of docs/balance-runs.md, parsed (every document of each).
fn doc_yaml() -> Vec<serde_yaml_ng::Value> {
    let text = std::fs::read_to_string("../docs/balance-runs.md").unwrap();
    let mut docs = Vec::new();
    let mut rest = text.as_str();
    while let Some(start) = rest.find("```yaml\n") {
        let body = &rest[start + 8..];
        let end = body.find("\n```").expect("a closed yaml block");
        for d in serde_yaml_ng::Deserializer::from_str(&body[..end]) {
            use serde::Deserialize;
            docs.push(serde_yaml_ng::Value::deserialize(d).expect("the docs' YAML parses"));
        }
        rest = &body[end..];
    }
    docs
}

/// The `I/N` after `--shard` in a command line.
fn shard_count(command: &str) -> u64 {
    let after = command.split("--shard ").nth(1).expect("the command shards");
    let (_, n) = after.split_once('/').expect("--shard I/N");
    n.chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
}

#[test]
fn the_docs_workflows_parse_and_shard_a_million_games() {
    let docs = doc_yaml();
    let workflow = docs.iter().find(|d| d.get("jobs").is_some()).expect("a GitHub Actions workflow");
    let jobs = &workflow["jobs"];
    let matrix = jobs["shard"]["strategy"]["matrix"]["shard"].as_sequence().expect("a shard matrix");
    let steps = jobs["shard"]["steps"].as_sequence().unwrap();
    let play = steps
        .iter()
        .filter_map(|s| s.get("run").and_then(|r| r.as_str()))
        .find(|r| r.contains("arena sim"))
        .expect("a step that plays its shard");
    let n = shard_count(play);
    assert_eq!(matrix.len() as u64, n, "one matrix job per shard");
    let indices: Vec<u64> = matrix.iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(indices, (1..=n).collect::<Vec<_>>());
    assert!(play.contains("--shard ${{ matrix.shard }}/") && play.contains("--games 1000000"), "{play}");
    let merge_steps = jobs["merge"]["steps"].as_sequence().unwrap();
    assert!(merge_steps.iter().any(|s| s.get("run").and_then(|r| r.as_str()).is_some_and(|r| r.contains("sim merge"))));
    assert!(jobs["merge"]["needs"] == "shard");

    let job = docs.iter().find(|d| d.get("kind").is_some_and(|k| k == "Job")).expect("a Kubernetes Job");
    assert_eq!(job["apiVersion"], "batch/v1");
    assert_eq!(job["spec"]["completionMode"], "Indexed");
    let container = &job["spec"]["template"]["spec"]["containers"][0];
    let command: Vec<&str> = container["args"].as_sequence().unwrap().iter().filter_map(|a| a.as_str()).collect();
    let command = command.join(" ");
    assert_eq!(job["spec"]["completions"].as_u64().unwrap(), shard_count(&command), "{command}");
    assert!(command.contains("JOB_COMPLETION_INDEX + 1") && command.contains("--games 1000000"), "{command}");
    assert!(
        docs.iter().any(|d| d["spec"]["template"]["spec"]["containers"][0]["args"]
            .as_sequence()
            .is_some_and(|a| a.iter().any(|x| x.as_str().is_some_and(|x| x.contains("sim merge"))))),
        "a merge step"
    );
}

/// A shard is read with the 64 MiB limit `run` and `replay` have: a stream
/// past it (a FIFO fed zeros, as `/dev/zero` is; fed just past the limit, so
/// that the old code, which read without limit, ends too) is refused once it
/// passes the limit, with the limit in the message, instead of being read
/// until memory runs out.
#[cfg(unix)]
#[test]
fn merge_reads_at_most_the_tool_file_limit_of_a_shard() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("endless.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let feed = fifo.clone();
    // 64 MiB and 64 KiB, or less if the reader closes its end first.
    std::thread::spawn(move || {
        let mut w = std::fs::OpenOptions::new().write(true).open(&feed).unwrap();
        let zeros = vec![0u8; 1 << 16];
        for _ in 0..=1024 {
            if w.write_all(&zeros).is_err() {
                break;
            }
        }
    });
    let run = merge(&[fifo.to_str().unwrap().to_string()], &[]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("is larger than 67108864 bytes"), "{}", run.stderr);
}

/// An Invictus batch shards and merges as an Aristeia! one does, through
/// the same runner and merge: each shard plays only its part of the seeds,
/// and the merged JSON and table are the whole batch's.
#[test]
fn invictus_shards_merge_into_exactly_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let invictus = |extra: &[&str]| {
        let mut v: Vec<String> =
            // Seeds 1-7 (seed 9 of this mix is a game that never ends, stopped at its turn limit).
            ["sim", "invictus", "--pack", "../content/invictus", "--players", "greedy,random", "--seed", "1"]
                .map(String::from)
                .to_vec();
        v.extend(["--games", "7", "--jobs", "2"].map(String::from));
        v.extend(extra.iter().map(|s| s.to_string()));
        run(&v)
    };
    let mut files = Vec::new();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let r = invictus(&["--shard", &shard, "--format", "json"]);
        assert_eq!(r.code, 0, "shard {shard}: {}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["kind"], "invictus-sim-batch");
        assert_eq!(v["shard"]["index"], i);
        assert_eq!(v["games"].as_array().unwrap().len() as u64, v["tally"]["games"].as_u64().unwrap());
        let path = dir.path().join(format!("invictus-{i}.json"));
        std::fs::write(&path, &r.stdout).unwrap();
        files.push(path.to_string_lossy().into_owned());
    }
    let parts: Vec<u64> = files
        .iter()
        .map(|f| {
            serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap()).unwrap()["report"]["games"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(parts, vec![2, 2, 3], "the shards play disjoint parts of the 7 seeds");
    let merge = |extra: &[&str]| {
        let mut v: Vec<String> = ["sim", "merge", "--pack", "../content/invictus"].map(String::from).to_vec();
        v.extend(files.iter().rev().cloned());
        v.extend(extra.iter().map(|s| s.to_string()));
        run(&v)
    };
    let (whole, merged) = (invictus(&["--format", "json"]), merge(&["--format", "json"]));
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert_eq!(merged.stdout, whole.stdout, "the merged JSON is the batch's, byte for byte");
    let (whole, merged) = (invictus(&[]), merge(&[]));
    assert!(
        merged.stdout.starts_with("7 Invictus games, 4 players, seeds 1-7, merged from 3 shards\n"),
        "{}",
        merged.stdout
    );
    assert_eq!(table(&merged.stdout), table(&whole.stdout));
    assert!(table(&whole.stdout).contains("win rate by god"), "{}", whole.stdout);
}
