//! Aristeia!'s readouts: the table under a batch's first line (each seat,
//! the positions of a Prime Time table, a row per Character with its
//! adjusted strength), and `arena watch --sim`'s lines beside the previous
//! content's batch (each side, the Characters a change touched, the paired
//! difference when both contents drew the same setups).

use super::aristeia_game::{GameSummary, Teams};
use super::batch::failures_warning;
use super::compare::{PairedGame, PairedRow, PairedTally, same_setups};
use super::policy::Policy;
use super::rate::Rate;
use super::rules::{ReportContext, Summary, Text, WatchBatch};
use super::tally::{CharacterReport, Report, Tally};
use crate::content::Content;
use crate::rules::seats::{PlayerId, Seated};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The summaries of a batch as Aristeia!'s.
pub(super) fn summaries(games: &[Box<dyn Summary>]) -> impl Iterator<Item = &GameSummary> {
    games.iter().filter_map(|g| g.as_any().downcast_ref::<GameSummary>())
}

/// The readout under the first line of `sim --games` (`games`: the batch's,
/// in seed order) and of `sim merge` (no games: the failures from the tally).
pub(super) fn batch_text(
    tally: &Tally,
    games: &[Box<dyn Summary>],
    players: &[Policy],
    context: &ReportContext<'_>,
) -> Text {
    let report = tally.report();
    let mut text = Text { out: report_text(context, &report, players), err: String::new() };
    let shown = if context.verbose { usize::MAX } else { 5 };
    if games.is_empty() {
        for f in tally.failures.iter().take(shown) {
            let _ = writeln!(text.err, "seed {}: {}", f.seed, f.what);
        }
        return text;
    }
    if report.games_ended_before_activation > 0 {
        // Suspicious: a Scenario rule that ends the game at once?
        let first = summaries(games).find(|g| g.ended_before_activation);
        let by = first
            .and_then(|g| g.ended_by.as_ref())
            .map(|r| format!("; Scenario rule `{r}` ended it"))
            .unwrap_or_default();
        let _ = writeln!(
            text.out,
            "warning: {} of {} games ended before any Activation (first: seed {}{by})",
            report.games_ended_before_activation,
            report.games,
            first.map_or(0, |g| g.seed)
        );
    }
    for g in summaries(games).filter(|g| g.error.is_some() || !g.effect_failures.is_empty()).take(shown) {
        let what = g.error.clone().unwrap_or_else(|| g.effect_failures.join("; "));
        let _ = writeln!(text.err, "seed {}: {what}", g.seed);
    }
    text
}

/// The first line's start: `12 games of assault (random teams)`, with the
/// optional rules played.
pub(super) fn heading(head: &serde_json::Value, games: u64) -> String {
    let setup = head["setup"].as_str().unwrap_or_default();
    let rules: Vec<&str> =
        head["optional_rules"].as_array().map(|a| a.iter().filter_map(|r| r.as_str()).collect()).unwrap_or_default();
    if rules.is_empty() {
        format!("{} of {setup}", super::games_text(games))
    } else {
        format!("{} of {setup} with optional rules {}", super::games_text(games), rules.join(", "))
    }
}

fn report_text(context: &ReportContext<'_>, report: &Report, players: &[Policy]) -> String {
    let pct = |r: &Rate| format!("{:5.1}% [{:.1}-{:.1}]", r.rate * 100.0, r.low * 100.0, r.high * 100.0);
    let mut out = String::new();
    if let Some(line) = failures_warning(report.games, report.games_with_effect_failures, report.errors) {
        let _ = writeln!(out, "{line}");
    }
    for (p, _) in report.win_rate.enumerate() {
        let name = p.to_string();
        let _ = writeln!(
            out,
            "{name} wins {}  mean VP {:.2}  mean Frags {:.2}",
            pct(&report.win_rate[p]),
            report.mean_victory_points[p],
            report.mean_frags[p]
        );
    }
    let _ = writeln!(
        out,
        "draws {}  mean Rounds {:.2}  games with failed effects {}  engine errors {}",
        report.draws, report.mean_rounds, report.games_with_effect_failures, report.errors
    );
    // Each rate beside the table's even share; the seat rows are of the same
    // games, so they are not independent figures.
    let seats = report.win_rate.table().len().max(1);
    let _ = writeln!(
        out,
        "(even share {:.1}% a seat at {seats} seats; the seat rows are of the same games{})",
        100.0 / seats as f64,
        if seats == 2 {
            ": complementary, one side's wins are the other's losses, with the draws making 100%"
        } else {
            ": they add up, with the draws, to 100%"
        }
    );
    // 001 § Preparation: position 1 received the Prime Time marker at Team
    // Creation (it picked first and last); the others follow clockwise.
    for (i, at) in report.by_position.iter().enumerate() {
        let who = if i == 0 { "(first Prime Time)".to_string() } else { format!("({i} left of it)") };
        let _ = writeln!(
            out,
            "position {} {who:<19} wins {}  mean VP {:.2}",
            i + 1,
            pct(&at.win_rate),
            at.mean_victory_points
        );
    }
    out + &character_table(context, report, players)
}

/// The balance readout per Character of `sim --games`: games, win rate with
/// its 95% interval, and per-game means of Damage dealt and taken and of times
/// sent to the Infirmary, and the strength adjusted for teammates and
/// opponents ([`super::Strengths`]) with the `players` who played. The
/// Characters of the packs under test come first, marked `*`.
fn character_table(context: &ReportContext<'_>, report: &Report, players: &[Policy]) -> String {
    let under_test: Vec<&str> = context.under_test.iter().map(String::as_str).collect();
    let tested =
        |c: &str| context.content.characters.get(c).is_some_and(|e| under_test.contains(&e.origin.pack.as_str()));
    let mut rows: Vec<(&crate::model::Id, &CharacterReport)> = report.per_character.iter().collect();
    rows.sort_by_key(|(c, _)| (!tested(c), c.as_str()));
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    let width = rows.iter().map(|(c, _)| c.len()).max().unwrap_or(0).max("Character".len());
    // 001 § Bench: a Prime Time table has no Infirmary; the count is of times
    // sent to the Bench at Hit Points.
    let sent_to = if report.win_rate.table().prime_time() { "Bench" } else { "Infirmary" };
    let _ = writeln!(
        out,
        "\n  {:<width$} {:>5}  {:<20} {:<23} {:>8} {:>6} {:>6} {:>9}",
        "Character", "games", "side wins [95%]", "adjusted strength [95%]", "log-odds", "dealt", "taken", sent_to
    );
    let strength = report.strength.as_ref();
    for (c, r) in rows {
        let mark = if tested(c) { "* " } else { "  " };
        let wins =
            format!("{:5.1}% [{:.1}-{:.1}]", r.win_rate.rate * 100.0, r.win_rate.low * 100.0, r.win_rate.high * 100.0);
        let (adjusted, log_odds) = match strength.and_then(|s| s.characters.get(c.as_str())) {
            Some(s) => {
                let p = s.win_probability;
                let p = format!("{:5.1}% [{:.1}-{:.1}]", p.estimate * 100.0, p.low * 100.0, p.high * 100.0);
                (p, format!("{:+.2}", s.log_odds.estimate))
            }
            None => ("-".to_string(), "-".to_string()),
        };
        let _ = writeln!(
            out,
            "{mark}{c:<width$} {:>5}  {wins:<20} {adjusted:<23} {log_odds:>8} {:>6.2} {:>6.2} {:>9.2}",
            r.games, r.mean_damage_dealt, r.mean_damage_taken, r.mean_infirmary,
        );
    }
    let seats = report.win_rate.table().len();
    let who: Vec<String> = players.iter().enumerate().map(|(i, p)| format!("player {} {}", i + 1, p.name())).collect();
    let _ = match strength {
        Some(s) => writeln!(
            out,
            "(adjusted strength: a conditional-logit{} fit over the team compositions of the {} games some team won ({} draws left out{}), played by {}: the chance that a team of this Character and average ones beats {} seat advantage aside (even share {:.0}%); log-odds 0 is the average Character)",
            if seats == 2 { " (Bradley-Terry)" } else { "" },
            s.games,
            s.left_out,
            if s.converged { "" } else { "; the fit did not converge" },
            who.join(", "),
            if seats == 2 { "an average team,".to_string() } else { format!("{} average teams,", seats - 1) },
            100.0 / seats as f64
        ),
        None => writeln!(out, "(adjusted strength: no game had a winner to fit; played by {})", who.join(", ")),
    };
    let _ = writeln!(
        out,
        "(means per game: Damage its Enemies suffered in its Activations, Damage it suffered, times sent to the {sent_to}{})",
        if under_test.is_empty() {
            String::new()
        } else {
            format!("; * from the packs under test: {}", under_test.join(", "))
        }
    );
    out
}

/// `arena watch --sim`'s lines for an Aristeia! batch: each side's win rate
/// and mean Victory Points with their intervals beside the previous
/// batch's, the draws, every Character the change touched (its card or its
/// Tactics) with its figures before, and the paired difference against the
/// previous batch when both contents drew the same setups.
pub(super) fn watch_text(
    now: &WatchBatch,
    before: Option<&WatchBatch>,
    teams: &dyn Fn(&WatchBatch) -> Option<Teams>,
) -> Text {
    let tally = |b: &WatchBatch| b.tally.as_any().downcast_ref::<Tally>().map(Tally::report);
    let Some(report) = tally(now) else { return Text::default() };
    let was = before.and_then(|b| tally(b).map(|r| (b, r)));
    let mut out = String::new();
    let setup = now.spec.head().get("setup").and_then(|s| s.as_str().map(str::to_string)).unwrap_or_default();
    let _ = writeln!(
        out,
        "  sim {setup}: {}, {}, {:.1}s{}",
        super::games_text(report.games as u64),
        super::seeds_text(&now.seeds),
        now.seconds,
        match &was {
            Some((b, _)) => format!(", compared with [{}]", b.generation),
            None => String::new(),
        }
    );
    if let Some(line) = failures_warning(report.games, report.games_with_effect_failures, report.errors) {
        let _ = writeln!(out, "  {line}");
    }
    let intervals = victory_points_intervals(&report, &now.games);
    let was_intervals = was.as_ref().map(|(b, r)| victory_points_intervals(r, &b.games));
    for side in 0..2 {
        let side_was = was.as_ref().zip(was_intervals.as_ref()).map(|((_, r), i)| (r, i));
        let _ = writeln!(out, "  {}", side_line((&report, &intervals), side_was, side));
    }
    let mut extra = format!("draws {}", report.draws);
    if let Some((_, w)) = &was {
        extra.push_str(&format!(" (was {})", w.draws));
    }
    if report.errors + report.games_with_effect_failures > 0 {
        extra.push_str(&format!(
            "; {} games with failed effects, {} engine errors",
            report.games_with_effect_failures, report.errors
        ));
    }
    let _ = writeln!(out, "  {extra}");
    // The Characters the change touched (their card or their Tactics), each
    // with the figures of the content before it beside its own.
    if let Some((b, w)) = &was {
        let previous = character_prints(&b.content);
        let touched = touched(b, now);
        for id in &touched {
            let line = match (report.per_character.get(id.as_str()), w.per_character.get(id.as_str())) {
                (Some(now), before) => character_line(now, before),
                (None, _) => "did not play in this batch (--random-teams draws every loaded Character)".to_string(),
            };
            let what = if previous.contains_key(id) { "changed" } else { "new" };
            let _ = writeln!(out, "  {id} ({what}): {line}");
        }
        paired_lines(b, now, teams, &touched, &mut out);
    }
    Text { out, err: String::new() }
}

/// The Characters whose card or Tactics differ between the two batches'
/// contents (new ones included), by id.
fn touched(was: &WatchBatch, now: &WatchBatch) -> Vec<String> {
    let previous = character_prints(&was.content);
    character_prints(&now.content)
        .into_iter()
        .filter(|(id, print)| previous.get(id) != Some(print))
        .map(|(id, _)| id)
        .collect()
}

/// The paired report of `now` against `was` when the two are paired game
/// for game (the same seeds, and the same setups drawn from both
/// contents); `None` when they are not.
fn paired_report(
    was: &WatchBatch,
    now: &WatchBatch,
    teams: &dyn Fn(&WatchBatch) -> Option<Teams>,
) -> Option<super::compare::Comparison> {
    let seats = now.spec.seats();
    let seeds = |b: &WatchBatch| b.games.iter().map(|g| g.seed()).collect::<Vec<_>>();
    let range = now.games.first().map_or(0..0, |g| g.seed()..g.seed() + now.games.len() as u64);
    let paired = teams(was) == teams(now)
        && seeds(was) == seeds(now)
        && teams(now).is_some_and(|t| same_setups(&was.content, &now.content, &t, range, seats));
    if !paired {
        return None;
    }
    let games: Vec<PairedGame> = summaries(&was.games)
        .zip(summaries(&now.games))
        .map(|(b, c)| PairedGame { base: b.clone(), changed: c.clone() })
        .collect();
    Some(PairedTally::of(&games, seats).report())
}

/// [`super::Rules::watch_paired_half_width`] for Aristeia!: the widest
/// half-width, in points, of the paired rows `watch_text` prints (every
/// seat, every Character the change touched that played).
pub(super) fn paired_half_width(
    now: &WatchBatch,
    was: &WatchBatch,
    teams: &dyn Fn(&WatchBatch) -> Option<Teams>,
) -> Option<f64> {
    let report = paired_report(was, now, teams)?;
    let touched = touched(was, now);
    let rows = report.seats.iter().chain(touched.iter().filter_map(|id| report.characters.get(id.as_str())));
    rows.map(|r| (r.high - r.low) * 50.0).reduce(f64::max)
}

/// The 95% interval of each side's mean Victory Points (normal
/// approximation: mean ± 1.96 standard errors); the mean itself when fewer
/// than 2 games.
pub(super) fn victory_points_intervals(report: &Report, games: &[Box<dyn Summary>]) -> Seated<(f64, f64)> {
    let games: Vec<&GameSummary> = summaries(games).collect();
    let interval = |side: PlayerId| {
        let mean = report.mean_victory_points[side];
        let n = games.len();
        if n < 2 {
            return (mean, mean);
        }
        let var = games.iter().map(|g| (g.victory_points[side] as f64 - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0);
        let half = 1.96 * (var / n as f64).sqrt();
        ((mean - half).max(0.0), mean + half)
    };
    Seated::from_fn(report.mean_victory_points.table(), interval)
}

/// `player 1 win rate 52.0% [45.1-58.8] (was 48.0% [41.2-54.9]), mean VP 3.10 [2.85-3.35] (was ...)`.
fn side_line(now: (&Report, &Seated<(f64, f64)>), was: Option<(&Report, &Seated<(f64, f64)>)>, side: usize) -> String {
    let p = PlayerId::seat(side);
    let rate = |(r, _): (&Report, &Seated<(f64, f64)>)| {
        let r = &r.win_rate[p];
        format!("{:.1}% [{:.1}-{:.1}]", r.rate * 100.0, r.low * 100.0, r.high * 100.0)
    };
    let vp = |(r, i): (&Report, &Seated<(f64, f64)>)| {
        let (lo, hi) = i[p];
        format!("{:.2} [{lo:.2}-{hi:.2}]", r.mean_victory_points[p])
    };
    let was_rate = was.map(|w| format!(" (was {})", rate(w))).unwrap_or_default();
    let was_vp = was.map(|w| format!(" (was {})", vp(w))).unwrap_or_default();
    format!("player {} win rate {}{was_rate}, mean VP {}{was_vp}", side + 1, rate(now), vp(now))
}

/// Every Character of the content with its Tactics, as JSON, by id.
fn character_prints(content: &Content) -> BTreeMap<String, String> {
    content
        .characters
        .iter()
        .map(|(id, e)| {
            let mut print = serde_json::to_string(&e.value).unwrap_or_default();
            for t in content.tactics.values().filter(|t| t.value.character.as_deref() == Some(id.as_str())) {
                print.push_str(&serde_json::to_string(&t.value).unwrap_or_default());
            }
            (id.to_string(), print)
        })
        .collect()
}

/// `12 games, side wins 58.3% [32.0-80.7] (was 41.7% [...]), dealt 2.50 (was 1.75), taken ..., Infirmary ...`.
fn character_line(now: &CharacterReport, was: Option<&CharacterReport>) -> String {
    let rate = |r: &CharacterReport| {
        format!("{:.1}% [{:.1}-{:.1}]", r.win_rate.rate * 100.0, r.win_rate.low * 100.0, r.win_rate.high * 100.0)
    };
    let beside = |f: &dyn Fn(&CharacterReport) -> String| was.map(|w| format!(" (was {})", f(w))).unwrap_or_default();
    let games = |r: &CharacterReport| r.games.to_string();
    let dealt = |r: &CharacterReport| format!("{:.2}", r.mean_damage_dealt);
    let taken = |r: &CharacterReport| format!("{:.2}", r.mean_damage_taken);
    let infirmary = |r: &CharacterReport| format!("{:.2}", r.mean_infirmary);
    format!(
        "{} games{}, side wins {}{}, dealt {}{}, taken {}{}, Infirmary {}{} per game",
        games(now),
        beside(&games),
        rate(now),
        beside(&rate),
        dealt(now),
        beside(&dealt),
        taken(now),
        beside(&taken),
        infirmary(now),
        beside(&infirmary),
    )
}

/// The paired difference of this batch against the previous content's
/// (docs/balance-runs.md, "Paired comparisons"): when both contents draw the
/// same setups for every seed, the two batches are already paired game for
/// game; per seat and per Character the change touched, the difference in
/// win rate with its interval, z and Holm-corrected p across every row.
fn paired_lines(
    was: &WatchBatch,
    now: &WatchBatch,
    teams: &dyn Fn(&WatchBatch) -> Option<Teams>,
    touched: &[String],
    out: &mut String,
) {
    let Some(report) = paired_report(was, now, teams) else {
        let _ = writeln!(
            out,
            "  not paired with [{}]: the change draws other teams, decks or zones, so the figures above are of two separate batches",
            was.generation
        );
        return;
    };
    let _ = writeln!(
        out,
        "  paired with [{}] (the same seeds and teams): change in win rate, points [95%]; p: exact McNemar, Holm across {} rows; * significant at 5%",
        was.generation, report.holm_rows
    );
    let line = |r: &PairedRow| {
        let p = if r.p_holm < 0.001 { "<0.001".to_string() } else { format!("{:.3}", r.p_holm) };
        format!(
            "{:+.1} [{:+.1}, {:+.1}], z {:+.2}, p {p}{}, {} {} changed",
            r.difference * 100.0,
            r.low * 100.0,
            r.high * 100.0,
            r.z,
            if r.significant { " *" } else { "" },
            r.outcome_changed,
            if r.outcome_changed == 1 { "game" } else { "games" }
        )
    };
    for (i, r) in report.seats.iter().enumerate() {
        let _ = writeln!(out, "    player {} {}", i + 1, line(r));
    }
    for id in touched {
        if let Some(r) = report.characters.get(id.as_str()) {
            let _ = writeln!(out, "    {id} {}", line(r));
        }
    }
}
