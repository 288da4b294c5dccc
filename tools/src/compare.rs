//! `arena sim SCENARIO --games N --compare BASE_PACK...`: a paired
//! comparison of the `--pack` packs against base packs on the same seeds and
//! teams ([`arena_engine::sim::compare`]), its table and its `sim-compare`
//! JSON, and `arena sim merge` of a comparison's shards. docs/balance-runs.md.

use super::*;
use arena_engine::sim::compare::{Comparison, PairedRow, PairedTally, Side, compare_batch, setups_differ};
use arena_engine::sim::{AristeiaSpec, Tally, Teams};

/// The `kind` of a comparison's JSON.
pub(crate) const KIND: &str = "sim-compare";

/// The `sim-compare` JSON (docs/json.md): the `sim-batch` head of the
/// changed packs (`content_hash`, `tally`), the base packs'
/// `base_content_hash` and `base_tally`, the `paired` counts and the
/// comparison's `report`.
#[allow(clippy::too_many_arguments)]
fn compare_json(
    loaded: &Loaded,
    base_hash: &str,
    batch: &balance::Batch,
    comparison: &Comparison,
    tally: &Tally,
    base_tally: &Tally,
    paired: &PairedTally,
) -> anyhow::Result<serde_json::Value> {
    let mut v = balance::batch_json_of(
        loaded,
        KIND,
        batch,
        serde_json::to_value(comparison)?,
        serde_json::to_value(tally)?,
        None,
    )?;
    let o = v.as_object_mut().expect("a JSON object");
    o.insert("base_content_hash".into(), base_hash.into());
    o.insert("base_tally".into(), serde_json::to_value(base_tally)?);
    o.insert("paired".into(), serde_json::to_value(paired)?);
    Ok(v)
}

/// The Characters whose entries differ between the two contents (a patch
/// to them, say): marked `*` and listed first.
fn changed_characters(base: &Loaded, changed: &Loaded) -> std::collections::BTreeSet<String> {
    changed
        .content
        .characters
        .iter()
        .filter(|(id, c)| {
            base.content
                .characters
                .get(*id)
                .is_none_or(|b| serde_json::to_value(&b.value).ok() != serde_json::to_value(&c.value).ok())
        })
        .map(|(id, _)| id.to_string())
        .collect()
}

fn points(x: f64) -> String {
    format!("{:+.1}", x * 100.0)
}

fn row_line(label: &str, width: usize, r: &PairedRow) -> String {
    let interval = format!("{} [{}, {}]", points(r.difference), points(r.low), points(r.high));
    let p = if r.p_holm < 0.001 { "<0.001".to_string() } else { format!("{:.3}", r.p_holm) };
    format!(
        "{label:<width$} {:>6}  {:>5.1}%  {:>5.1}%   {:>5.1}% {:>5.1}%  {interval:<22} {:>6.2}  {p:>6} {}  {:>7}",
        r.games,
        r.win_rate_base * 100.0,
        r.win_rate_changed * 100.0,
        r.draw_rate_base * 100.0,
        r.draw_rate_changed * 100.0,
        r.z,
        if r.significant { "*" } else { " " },
        r.outcome_changed,
    )
}

/// The comparison's table, under its first line: the warnings of either
/// side, the seats' rows, the Characters' rows (those the change touches
/// first, marked `*`), and what the figures are.
pub(crate) fn compare_text(
    comparison: &Comparison,
    base_tally: &Tally,
    tally: &Tally,
    touched: &std::collections::BTreeSet<String>,
) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (side, t) in [("base", base_tally), ("changed", tally)] {
        let r = t.report();
        if let Some(line) = arena_engine::sim::failures_warning(r.games, r.games_with_effect_failures, r.errors) {
            let _ = writeln!(out, "{side} packs: {line}");
        }
    }
    if comparison.errors > 0 {
        let _ = writeln!(
            out,
            "warning: {} of {} seeds stopped on an engine error under one content or both (or played other teams): they are left out of every row",
            comparison.errors, comparison.games
        );
    }
    let seats = comparison.seats.len();
    let mut characters: Vec<(&arena_engine::model::Id, &PairedRow)> = comparison.characters.iter().collect();
    characters.sort_by_key(|(c, _)| (!touched.contains(c.as_str()), c.as_str()));
    let width = characters.iter().map(|(c, _)| c.len() + 2).max().unwrap_or(0).max("player 1".len() + 2);
    let _ = writeln!(
        out,
        "{:<width$} {:>6}  {:>6}  {:>6}   {:>6} {:>6}  {:<22} {:>6}  {:>8}  {:>7}",
        "", "games", "wins", "wins", "draws", "draws", "difference, points", "z", "p", "outcome"
    );
    let _ = writeln!(
        out,
        "{:<width$} {:>6}  {:>6}  {:>6}   {:>6} {:>6}  {:<22} {:>6}  {:>8}  {:>7}",
        "", "", "base", "change", "base", "change", "[95% interval]", "", "(Holm)", "changed"
    );
    for (i, r) in comparison.seats.iter().enumerate() {
        let _ = writeln!(out, "{}", row_line(&format!("  player {}", i + 1), width, r));
    }
    for (c, r) in &characters {
        let mark = if touched.contains(c.as_str()) { "* " } else { "  " };
        let _ = writeln!(out, "{}", row_line(&format!("{mark}{c}"), width, r));
    }
    let significant = comparison.seats.iter().chain(comparison.characters.values()).filter(|r| r.significant).count();
    let _ = writeln!(
        out,
        "even share: {:.1}% of the wins per seat at {seats} seats. A Character's row is its side's wins and draws in the games it played.",
        comparison.even_share * 100.0
    );
    let _ = writeln!(
        out,
        "difference: change minus base, paired over the same games (Agresti-Min 95% interval); z: McNemar's; p: exact McNemar test, Holm-corrected across the {} rows above; * significant at 5% after Holm ({significant} rows).",
        comparison.holm_rows
    );
    if seats == 2 {
        let _ = writeln!(
            out,
            "the two seat rows count the same games from either side: they are complementary (with no draws, one's difference is the other's negated)."
        );
    }
    if !touched.is_empty() {
        let list: Vec<&str> = touched.iter().map(String::as_str).collect();
        let _ = writeln!(out, "* a Character whose entry the changed packs alter: {}", list.join(", "));
    }
    out
}

/// `arena sim SCENARIO --games N --compare BASE_PACK...`: `loaded` are the
/// changed (`--pack`) packs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sim_compare(
    loaded: &Loaded,
    base_packs: &[PathBuf],
    restrict: &[arena_engine::rules::game::Restriction],
    spec: &AristeiaSpec,
    batch: balance::Batch,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let base = match play::load_for_play(base_packs, ui, stderr)? {
        Ok(b) => b,
        Err(code) => return Ok(code),
    };
    let seats = batch.players.len();
    let teams = &spec.teams();
    let side = |l: &Loaded| Side { content: std::sync::Arc::new(l.content.clone()), scripts: l.script_set.clone() };
    let (base_side, changed_side) = (side(&base), side(loaded));
    if let Err(e) = arena_engine::sim::compare::refuse(
        &base.content,
        &loaded.content,
        teams,
        spec.optional_rules(),
        seats,
        batch.first_seed,
    ) {
        writeln!(stderr, "error: {e}")?;
        return Ok(2);
    }
    if !ui.quiet() {
        if setups_differ(&base.content, &loaded.content, teams, seats, batch.first_seed) {
            writeln!(
                stderr,
                "note: the changed packs would draw other teams, decks or zones (seed {}); both sides play the ones drawn from the base packs",
                batch.first_seed
            )?;
        }
        let only: Vec<&arena_engine::model::Id> =
            loaded.content.characters.keys().filter(|c| !base.content.characters.contains_key(*c)).collect();
        if !only.is_empty() && matches!(teams, Teams::Random(_)) {
            let ids: Vec<String> = only.iter().map(|c| format!("`{c}`")).collect();
            writeln!(
                stderr,
                "note: {} never {}: only the changed packs have {}, and the teams are drawn from the base packs",
                ids.join(", "),
                if ids.len() == 1 { "plays" } else { "play" },
                if ids.len() == 1 { "it" } else { "them" }
            )?;
        }
    }
    let jobs = batch.worker_jobs();
    let seeds = batch.seeds();
    let started = std::time::Instant::now();
    let games = play::with_progress(2 * (seeds.end - seeds.start), !ui.quiet(), |tick| {
        compare_batch(
            &base_side,
            &changed_side,
            restrict,
            teams,
            spec.optional_rules(),
            seeds.clone(),
            &batch.players,
            jobs,
            tick,
        )
    });
    let games = match games {
        Ok(g) => g,
        Err(e) => {
            writeln!(stderr, "error: {e}")?;
            return Ok(2);
        }
    };
    let elapsed = started.elapsed();
    let base_summaries: Vec<_> = games.iter().map(|g| g.base.clone()).collect();
    let changed_summaries: Vec<_> = games.iter().map(|g| g.changed.clone()).collect();
    let (base_tally, tally) = (Tally::of(&base_summaries), Tally::of(&changed_summaries));
    let paired = PairedTally::of(&games, seats);
    let setup = spec.title();
    let head = Head { loaded, base: &base, batch: &batch, restrict };
    let shard = batch.shard.map(|s| format!(" (shard {s} of seeds {}-{})", batch.first_seed, batch.last_seed()));
    let first = format!(
        "{} paired games of {setup}, seeds {}-{}{}, {jobs} jobs, {:.1}s",
        seeds.end - seeds.start,
        seeds.start,
        seeds.end.saturating_sub(1),
        shard.unwrap_or_default(),
        elapsed.as_secs_f64()
    );
    write_comparison(&head, &first, &tally, &base_tally, &paired, format, stdout)?;
    for (side, s) in [("base", &base_summaries), ("changed", &changed_summaries)] {
        for g in s.iter().filter(|g| g.error.is_some() || !g.effect_failures.is_empty()).take(if ui.verbose() {
            usize::MAX
        } else {
            5
        }) {
            let what = g.error.clone().unwrap_or_else(|| g.effect_failures.join("; "));
            writeln!(stderr, "{side} packs, seed {}: {what}", g.seed)?;
        }
    }
    Ok(exit_of(&tally, &base_tally, &paired))
}

/// 1 when an effect failed or an engine error stopped a game on either
/// side, or a seed was left out of the rows.
fn exit_of(tally: &Tally, base_tally: &Tally, paired: &PairedTally) -> Exit {
    let bad = |t: &Tally| t.errors + t.games_with_effect_failures > 0;
    if bad(tally) || bad(base_tally) || paired.errors > 0 { 1 } else { 0 }
}

/// What a comparison's output names besides its counts.
struct Head<'a> {
    loaded: &'a Loaded,
    base: &'a Loaded,
    batch: &'a balance::Batch,
    /// Restricted play: the change is these restrictions on the same packs.
    restrict: &'a [arena_engine::rules::game::Restriction],
}

fn pack_list(l: &Loaded) -> String {
    let ids: Vec<String> = l.packs.iter().map(|p| p.manifest.id.to_string()).collect();
    format!("{} (content {})", ids.join(", "), &l.content_hash()[..12])
}

fn write_comparison(
    head: &Head,
    first_line: &str,
    tally: &Tally,
    base_tally: &Tally,
    paired: &PairedTally,
    format: Output,
    stdout: &mut dyn Write,
) -> anyhow::Result<()> {
    let comparison = paired.report();
    match format {
        Output::Json => {
            let mut v = compare_json(
                head.loaded,
                &head.base.content_hash(),
                head.batch,
                &comparison,
                tally,
                base_tally,
                paired,
            )?;
            if let (false, Some(o)) = (head.restrict.is_empty(), v.as_object_mut()) {
                o.insert("restrict".into(), serde_json::to_value(head.restrict)?);
            }
            // The Characters the change alters, right after the packs' hash,
            // wherever the JSON it is built from had them (a merge of shards
            // gives the same bytes as one run).
            if let serde_json::Value::Object(o) = &mut v {
                let changed = serde_json::to_value(changed_characters(head.base, head.loaded))?;
                let mut ordered = serde_json::Map::new();
                for (k, value) in std::mem::take(o) {
                    if k == "changed_characters" {
                        continue;
                    }
                    let after = k == "content_hash";
                    ordered.insert(k, value);
                    if after {
                        ordered.insert("changed_characters".into(), changed.clone());
                    }
                }
                *o = ordered;
            }
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            let players: Vec<String> = head.batch.players.iter().map(|p| p.name()).collect();
            writeln!(stdout, "{first_line}")?;
            writeln!(stdout, "base: {}", pack_list(head.base))?;
            if head.restrict.is_empty() {
                writeln!(stdout, "change: {}", pack_list(head.loaded))?;
            } else {
                let rules: Vec<String> = head.restrict.iter().map(ToString::to_string).collect();
                writeln!(
                    stdout,
                    "change: restricted play, the same packs with --restrict {} (the value of what is forbidden is minus the difference)",
                    rules.join(" --restrict ")
                )?;
            }
            writeln!(
                stdout,
                "players: {}; every seed played under both, from the teams drawn from the base packs",
                players.join(", ")
            )?;
            let touched = changed_characters(head.base, head.loaded);
            write!(stdout, "{}", compare_text(&comparison, base_tally, tally, &touched))?;
        }
    }
    Ok(())
}

/// One shard of a comparison, as `sim merge` read it.
pub(crate) struct Part<'a> {
    pub path: &'a std::path::Path,
    pub json: &'a serde_json::Value,
    pub seeds: std::ops::Range<u64>,
}

/// `arena sim merge` of a comparison's shards: `parts` are in seed order,
/// already checked to be the shards of one batch of the changed packs
/// `loaded` (whose tallies add up to `tally`); here the base packs and the
/// paired counts are checked and added.
#[allow(clippy::too_many_arguments)]
pub(crate) fn merge(
    base_packs: &[PathBuf],
    parts: &[Part],
    loaded: &Loaded,
    setup: &str,
    batch: &balance::Batch,
    tally: &Tally,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    if base_packs.is_empty() {
        writeln!(
            stderr,
            "error: {} is a shard of a comparison (`sim --compare`): give its base packs with --compare, as it was played",
            parts[0].path.display()
        )?;
        return Ok(2);
    }
    let base = match play::load_for_play(base_packs, ui, stderr)? {
        Ok(b) => b,
        Err(code) => return Ok(code),
    };
    let base_hash = base.content_hash();
    let seats = batch.players.len();
    let mut base_tally: Option<Tally> = None;
    let mut paired: Option<PairedTally> = None;
    for part in parts {
        let fail = |e: String| format!("{}: {e}", part.path.display());
        let result = (|| -> Result<(Tally, PairedTally), String> {
            if part.json["base_content_hash"] != base_hash.as_str() {
                return Err(format!(
                    "the shard's base played other content (content hash {}) than the --compare packs ({base_hash}): merge with the base packs it played",
                    part.json["base_content_hash"]
                ));
            }
            let b: Tally = serde_json::from_value(part.json["base_tally"].clone())
                .map_err(|e| format!("its `base_tally` does not read: {e}"))?;
            b.check(part.seeds.clone(), seats)
                .map_err(|e| format!("its `base_tally` cannot be that of its shard: {e}"))?;
            let p: PairedTally = serde_json::from_value(part.json["paired"].clone())
                .map_err(|e| format!("its `paired` counts do not read: {e}"))?;
            p.check(part.seeds.end - part.seeds.start, seats)
                .map_err(|e| format!("its `paired` counts cannot be those of its shard: {e}"))?;
            Ok((b, p))
        })();
        let (b, p) = match result {
            Ok(x) => x,
            Err(e) => {
                writeln!(stderr, "error: {}", fail(e))?;
                return Ok(2);
            }
        };
        let added = match (&mut base_tally, &mut paired) {
            (Some(bt), Some(pt)) => bt.merge(&b).and_then(|()| pt.merge(&p)),
            _ => {
                base_tally = Some(b);
                paired = Some(p);
                Ok(())
            }
        };
        if let Err(e) = added {
            writeln!(stderr, "error: {}", fail(e))?;
            return Ok(2);
        }
    }
    let (Some(base_tally), Some(paired)) = (base_tally, paired) else {
        writeln!(stderr, "error: no shard to merge")?;
        return Ok(2);
    };
    let head = Head { loaded, base: &base, batch, restrict: &[] };
    let first = format!(
        "{} paired games of {setup}, seeds {}-{}, merged from {} shards",
        batch.games,
        batch.first_seed,
        batch.last_seed(),
        parts.len()
    );
    write_comparison(&head, &first, tally, &base_tally, &paired, format, stdout)?;
    if !matches!(format, Output::Json) {
        for (side, t) in [("base", &base_tally), ("changed", tally)] {
            for f in t.failures.iter().take(if ui.verbose() { usize::MAX } else { 5 }) {
                writeln!(stderr, "{side} packs, seed {}: {}", f.seed, f.what)?;
            }
        }
    }
    Ok(exit_of(tally, &base_tally, &paired))
}

/// One ability's row of `arena sim --impact`.
struct ImpactRow {
    ability: arena_engine::model::Id,
    kind: &'static str,
    restrict: arena_engine::rules::game::Restriction,
    row: Option<PairedRow>,
}

/// `arena sim SCENARIO --games N --impact character:ID`: restricted play
/// (docs/balance-runs.md § Restricted play) once per ability of the
/// Character (each Action, each Switch, each of its own Tactics), forbidden
/// to it alone (`@ID`), over the same seeds and teams; per ability, what it
/// is worth to the Character's side (base − restricted win rate, paired
/// interval, McNemar's z, exact p Holm-corrected across the abilities).
#[allow(clippy::too_many_arguments)]
pub(crate) fn sim_impact(
    loaded: &Loaded,
    character: &str,
    spec: &AristeiaSpec,
    batch: balance::Batch,
    format: Output,
    ui: &Ui,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<Exit> {
    use arena_engine::model::Id;
    use arena_engine::rules::game::{Forbid, Restriction};
    let Some(card) = loaded.content.characters.get(character) else {
        let names: Vec<String> = loaded.content.characters.keys().map(ToString::to_string).collect();
        let hint = super::did_you_mean(character, &names);
        writeln!(stderr, "error: --impact: no Character `{character}` is loaded{hint}")?;
        return Ok(2);
    };
    let of = Some(Id::from(character));
    let restriction = |forbid| Restriction { seat: None, forbid, of };
    let mut abilities: Vec<ImpactRow> = Vec::new();
    let mut push = |ability: Id, kind, forbid| {
        if !abilities.iter().any(|a| a.ability == ability && a.kind == kind) {
            abilities.push(ImpactRow { ability, kind, restrict: restriction(forbid), row: None });
        }
    };
    for a in &card.value.actions {
        push(a.id, "Action", Forbid::Action(a.id));
    }
    for s in card.value.switches.iter().chain(card.value.actions.iter().flat_map(|a| a.switches.iter())) {
        push(s.id, "Switch", Forbid::Switch(s.id));
    }
    for (id, t) in &loaded.content.tactics {
        if t.value.character.as_deref() == Some(character) {
            push(Id::from(id.as_str()), "Tactic", Forbid::Tactic(Id::from(id.as_str())));
        }
    }
    if abilities.is_empty() {
        writeln!(stderr, "error: --impact: `{character}` has no Action, Switch or Tactic of its own to forbid")?;
        return Ok(2);
    }
    let seats = batch.players.len();
    let teams = &spec.teams();
    let side = Side { content: std::sync::Arc::new(loaded.content.clone()), scripts: loaded.script_set.clone() };
    let jobs = batch.worker_jobs();
    let seeds = batch.seeds();
    let started = std::time::Instant::now();
    let (mut errors, mut failures) = (0, 0);
    for a in &mut abilities {
        let games = play::with_progress(2 * (seeds.end - seeds.start), !ui.quiet(), |tick| {
            compare_batch(
                &side,
                &side,
                std::slice::from_ref(&a.restrict),
                teams,
                spec.optional_rules(),
                seeds.clone(),
                &batch.players,
                jobs,
                tick,
            )
        });
        let games = match games {
            Ok(g) => g,
            Err(e) => {
                writeln!(stderr, "error: {e}")?;
                return Ok(2);
            }
        };
        let paired = PairedTally::of(&games, seats);
        errors += paired.errors;
        failures += games
            .iter()
            .filter(|g| !g.base.effect_failures.is_empty() || !g.changed.effect_failures.is_empty())
            .count();
        a.row = paired.report().characters.get(character).cloned();
    }
    let elapsed = started.elapsed();
    // Holm across the abilities that played.
    let ps: Vec<f64> = abilities.iter().filter_map(|a| a.row.as_ref().map(|r| r.p)).collect();
    let mut holm = arena_engine::sim::compare::holm(&ps).into_iter();
    for a in &mut abilities {
        if let Some(r) = &mut a.row {
            r.p_holm = holm.next().unwrap_or(1.0);
            r.significant = r.p_holm < arena_engine::sim::compare::ALPHA;
        }
    }
    let players: Vec<String> = batch.players.iter().map(|p| p.name()).collect();
    match format {
        Output::Json => {
            let rows: Vec<serde_json::Value> = abilities
                .iter()
                .map(|a| {
                    let mut v = serde_json::json!({
                        "ability": a.ability.to_string(),
                        "kind": a.kind,
                        "restrict": a.restrict.to_string(),
                    });
                    if let (Some(r), Some(o)) = (&a.row, v.as_object_mut()) {
                        o.insert("games".into(), r.games.into());
                        o.insert("win_rate_base".into(), r.win_rate_base.into());
                        o.insert("win_rate_restricted".into(), r.win_rate_changed.into());
                        o.insert("worth".into(), (-r.difference).into());
                        o.insert("low".into(), (-r.high).into());
                        o.insert("high".into(), (-r.low).into());
                        o.insert("z".into(), (-r.z).into());
                        o.insert("p".into(), r.p.into());
                        o.insert("p_holm".into(), r.p_holm.into());
                        o.insert("significant".into(), r.significant.into());
                        o.insert("outcome_changed".into(), r.outcome_changed.into());
                    }
                    v
                })
                .collect();
            let v = serde_json::json!({
                "version": JSON_VERSION,
                "kind": "sim-impact",
                "character": character,
                "setup": spec.title(),
                "seeds": { "first": seeds.start, "last": seeds.end.saturating_sub(1) },
                "players": players,
                "content_hash": loaded.content_hash(),
                "errors": errors,
                "games_with_effect_failures": failures,
                "abilities": rows,
            });
            writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        _ => {
            writeln!(
                stdout,
                "what {character}'s abilities are worth: {} paired games each of {}, seeds {}-{}, {jobs} jobs, {:.1}s",
                seeds.end - seeds.start,
                spec.title(),
                seeds.start,
                seeds.end.saturating_sub(1),
                elapsed.as_secs_f64()
            )?;
            writeln!(
                stdout,
                "players: {}; each ability forbidden to {character} alone (--restrict RULE@{character}) against the same seeds and teams unrestricted",
                players.join(", ")
            )?;
            writeln!(
                stdout,
                "  {:<26} {:<7} {:>6} {:>9} {:>10}  {:<24} {:>6} {:>8} {:>8}",
                "ability", "kind", "games", "wins", "wins", "worth, points", "z", "p", "outcome"
            )?;
            writeln!(
                stdout,
                "  {:<26} {:<7} {:>6} {:>9} {:>10}  {:<24} {:>6} {:>8} {:>8}",
                "", "", "", "base", "without", "[95% interval]", "", "(Holm)", "changed"
            )?;
            for a in &abilities {
                match &a.row {
                    Some(r) => writeln!(
                        stdout,
                        "  {:<26} {:<7} {:>6} {:>8.1}% {:>9.1}%  {:<24} {:>6.2} {:>8.3}{} {:>7}",
                        a.ability,
                        a.kind,
                        r.games,
                        100.0 * r.win_rate_base,
                        100.0 * r.win_rate_changed,
                        // `+ 0.0`: no "-0.0" for a worth of nothing.
                        format!(
                            "{:+.1} [{:+.1}, {:+.1}]",
                            -100.0 * r.difference + 0.0,
                            -100.0 * r.high + 0.0,
                            -100.0 * r.low + 0.0
                        ),
                        -r.z + 0.0,
                        r.p_holm,
                        if r.significant { " *" } else { "  " },
                        r.outcome_changed
                    )?,
                    None => writeln!(stdout, "  {:<26} {:<7} {character} played in no game", a.ability, a.kind)?,
                }
            }
            writeln!(
                stdout,
                "worth: the win rate of {character}'s side with the ability minus without it, paired over the same games (Agresti-Min 95% interval); z: McNemar's; p: exact McNemar test, Holm-corrected across the {} abilities; * significant at 5% after Holm",
                ps.len()
            )?;
            if errors > 0 || failures > 0 {
                writeln!(stderr, "warning: {errors} games stopped by an engine error, {failures} with failed effects")?;
            }
        }
    }
    Ok(if errors > 0 || failures > 0 { 1 } else { 0 })
}
