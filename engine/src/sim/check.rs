//! `arena check --sims` and the packs' situations: the smoke games of
//! every game of the registry through the one runner, a failure per script
//! line with a reproduction command, the effect coverage, and every
//! situation played as written.

use super::batch::run;
use super::registry::GAMES;
use crate::script::runtime::Runtime;

/// What `arena check --sims` found: its diagnostics and the effect coverage.
#[derive(Debug, Clone)]
pub struct SimCheck {
    /// One per distinct problem (errors), and a note per scripted effect that
    /// never ran (`effect-not-exercised`, shown with `--strict`).
    pub diagnostics: Vec<crate::diag::Diagnostic>,
    /// Which scripted effects ran at least once.
    pub coverage: crate::loaded::EffectCoverage,
    /// What was played, a phrase per game (`3 seeded games of each of ...`).
    pub played: Vec<String>,
}

/// `arena check --sims N`: play `n` seeded games of every table each game
/// of the registry has in the loaded content ([`super::Rules::smoke`]:
/// Aristeia!'s every Scenario with its ready-made setups and with random
/// teams at each number of players it allows; Invictus's 4- and 6-player
/// team games), each with the mixes of players its game gives, through the
/// one runner, and report every failed effect (at its script line), engine
/// error and unfinished game as a diagnostic. Deduplicated: one diagnostic
/// per distinct problem, with the number of games it hit. Also the effect
/// coverage: which scripted Actions, Switches, Automatic Skills, Tactics
/// and other effects ran at least once.
pub fn check_sims(loaded: &crate::loaded::Loaded, n: u64, jobs: usize) -> SimCheck {
    use crate::diag::{Code, Diagnostic};
    let content = std::sync::Arc::new(loaded.content.clone());
    // The packs, for the reproduction command: pasted where `check` ran.
    let packs: String = loaded.packs.iter().map(|p| format!(" --pack {}", pack_arg(&p.root))).collect();
    let mut problems: std::collections::BTreeMap<String, (Diagnostic, usize)> = Default::default();
    let mut note = |key: String, d: Diagnostic| problems.entry(key).or_insert((d, 0)).1 += 1;
    let mut ran = std::collections::BTreeSet::new();
    let mut played = Vec::new();
    for smoke in GAMES.iter().filter_map(|g| g.smoke(&content, n)) {
        played.push(smoke.said);
        for table in &smoke.tables {
            for mix in table.mixes.iter().filter(|m| !m.seeds.is_empty()) {
                let what = &table.what;
                let batch = run(
                    &*table.spec,
                    content.clone(),
                    loaded.script_set.clone(),
                    mix.seeds.clone(),
                    &mix.players,
                    jobs,
                    &|| {},
                );
                match batch {
                    Ok(games) => {
                        for g in games {
                            ran.extend(g.effects_run().iter().copied());
                            let repro = format!(
                                "reproduce with `arena sim {what} --seed {} --players {}{packs}`",
                                g.seed(),
                                mix.named
                            );
                            g.problems(what, table.spec.seats(), &repro, &mut note);
                        }
                    }
                    Err(e) => note(
                        format!("batch {what}"),
                        Diagnostic::error(Code::SimFailed, format!("cannot play `{what}`: {e}"))
                            .help("see the message"),
                    ),
                }
            }
        }
    }
    let coverage = effect_coverage(loaded, &ran);
    let mut diagnostics: Vec<Diagnostic> = problems
        .into_values()
        .map(|(mut d, count)| {
            if d.is_error() || d.severity == crate::diag::Severity::Warning {
                d.notes.push(format!("in {count} of the simulated games"));
            }
            d
        })
        .collect();
    for (card, effect, location, _) in &coverage.never {
        diagnostics.push(
            Diagnostic::note(Code::EffectNotExercised, format!("never ran in the smoke games: {card} {effect}"))
                .at(location.clone())
                .path(format!("{card} {effect}")),
        );
    }
    SimCheck { diagnostics, coverage, played }
}

/// A pack folder as a `--pack` argument that works pasted in the folder
/// `arena check` ran in: the path as given when it is relative, plain (no
/// `..`) and there; else the absolute path (a bundled pack found beside the
/// binary's checkout is `/.../tools/../content/...`, which reads as relative
/// to the wrong folder). Quoted when it holds a space or a quote.
pub(super) fn pack_arg(root: &std::path::Path) -> String {
    use std::path::Component;
    let plain = root.is_relative()
        && root.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        && root.is_dir();
    let path = if plain {
        root.to_path_buf()
    } else {
        root.canonicalize()
            .or_else(|_| std::env::current_dir().map(|d| d.join(root)))
            .unwrap_or_else(|_| root.to_path_buf())
    };
    let text = path.display().to_string();
    if text.contains([' ', '\'', '"']) { format!("'{}'", text.replace('\'', "'\\''")) } else { text }
}

/// Which scripted effects ran: every effect with Lua but conditions and
/// helper files, by its card and content path.
pub(super) fn effect_coverage(
    loaded: &crate::loaded::Loaded,
    ran: &std::collections::BTreeSet<usize>,
) -> crate::loaded::EffectCoverage {
    let mut coverage = crate::loaded::EffectCoverage::default();
    for (i, src) in loaded.script_set.sources().iter().enumerate() {
        if src.effect.is_empty() || src.card.starts_with("script:") || src.effect.ends_with("condition") {
            continue;
        }
        coverage.scripted += 1;
        let per_pack = coverage.by_pack.entry(src.pack.clone()).or_default();
        per_pack.0 += 1;
        if ran.contains(&i) {
            coverage.exercised += 1;
            per_pack.1 += 1;
        } else {
            let text = loaded.sources.get(&src.file).unwrap_or(&src.source);
            let location = crate::diag::line_location(&src.file, text, src.first_line.max(1));
            coverage.never.push((src.card.clone(), src.effect.clone(), location, src.pack.clone()));
        }
    }
    coverage
}

/// Play every situation of the loaded packs (`situations/*.toml`, docs/
/// situations.md) on the loaded content, for `arena check`: each way one went
/// differently than written is a `situation-failed` error at the file, on the
/// `expect` or `absent` line concerned when there is one. The situations'
/// own `packs` keys are not used: the checked packs are. Returns the
/// diagnostics and the texts read (to show their lines).
pub fn check_situations(
    loaded: &crate::loaded::Loaded,
) -> (Vec<crate::diag::Diagnostic>, Vec<(std::path::PathBuf, String)>) {
    use crate::diag::{Code, Diagnostic, line_location};
    let mut out = Vec::new();
    let mut texts = Vec::new();
    let files = crate::read::situation_texts(loaded);
    if files.is_empty() {
        return (out, texts);
    }
    let content = std::sync::Arc::new(loaded.content.clone());
    let runtime =
        match Runtime::new(content.clone(), loaded.script_set.clone(), crate::script::runtime::Limits::default()) {
            Ok(r) => r,
            Err(e) => {
                out.push(Diagnostic::error(Code::SituationFailed, format!("cannot start the Lua VM: {e}")));
                return (out, texts);
            }
        };
    let help = |file: &std::path::Path| format!("play it with `arena run {}` to see its narrative", file.display());
    for (file, text) in files {
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                out.push(Diagnostic::error(Code::SituationFailed, e).at(line_location(&file, "", 1)));
                continue;
            }
        };
        // The quoted `expect`/`absent` line in the file, to point at it.
        let at = |needle: Option<&str>| {
            let quoted = needle.map(|n| format!("\"{n}\""));
            match quoted.as_deref().and_then(|q| text.find(q).map(|i| (i, q.len()))) {
                Some((start, len)) => {
                    let (line, column) = crate::diag::line_column(&text, start);
                    crate::diag::Location { file: file.clone(), span: Some(start..start + len), line, column }
                }
                None => line_location(&file, &text, 1),
            }
        };
        let sit: crate::rules::situation::Situation = match toml::from_str(&text) {
            Ok(s) => s,
            Err(e) => {
                let line = e.span().map_or(1, |s| crate::diag::line_column(&text, s.start).0);
                out.push(
                    Diagnostic::error(Code::SituationFailed, format!("not a situation: {}", e.message()))
                        .at(line_location(&file, &text, line))
                        .help("see docs/situations.md for its keys"),
                );
                texts.push((file, text));
                continue;
            }
        };
        match sit.play(&content, &runtime) {
            Err(e) => {
                // At the key concerned (`/character/1/space`), else the file's first line.
                let location = match e.locate(&text) {
                    Some((span, line, column)) => {
                        crate::diag::Location { file: file.clone(), span: Some(span), line, column }
                    }
                    None => line_location(&file, &text, 1),
                };
                out.push(
                    Diagnostic::error(Code::SituationFailed, format!("cannot set up the situation: {e}"))
                        .at(location)
                        .help(help(&file)),
                )
            }
            Ok(played) => {
                for p in played.problems {
                    out.push(
                        Diagnostic::error(Code::SituationFailed, p.message).at(at(p.line.as_deref())).help(help(&file)),
                    );
                }
            }
        }
        texts.push((file, text));
    }
    (out, texts)
}
