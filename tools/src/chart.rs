//! A balance answer's JSON as a picture (`arena render chart FILE`, the
//! viewer's Balance tab): a paired comparison or restricted play
//! (`sim-compare`) and `--impact` (`sim-impact`) as a forest plot, `arena
//! tune`'s search (`tune`) as one curve per field, an Aristeia! batch
//! (`sim-batch`) as its bar charts. docs/balance.md § Pictures.

use arena_engine::render::chart::balance_svg;
use arena_engine::render::forest::{CurvePoint, ForestRow, curve_svg, forest_svg};
use serde_json::Value;

/// The SVG of a report by its `kind`; `Err` says what is wrong with it.
pub(crate) fn chart_svg(v: &Value) -> Result<String, String> {
    if let Some(version) = v.get("version").and_then(Value::as_u64).filter(|n| *n > u64::from(crate::JSON_VERSION)) {
        return Err(format!(
            "the report is of JSON version {version}, newer than this arena's {}: chart it with the arena that wrote it",
            crate::JSON_VERSION
        ));
    }
    match v.get("kind").and_then(Value::as_str) {
        Some("sim-compare") => compare(v),
        Some("sim-impact") => impact(v),
        Some("tune") => tune(v),
        Some("sim-batch") => {
            let tally: arena_engine::sim::Tally = serde_json::from_value(v.get("tally").cloned().unwrap_or_default())
                .map_err(|e| format!("its `tally` does not read: {e}"))?;
            Ok(balance_svg(&format!("{} ({})", setup(v), seeds(v)), &tally.report()))
        }
        Some(other) => Err(format!(
            "a `{other}` report has no chart: give the JSON of `arena sim --games N`, `--compare`, `--restrict`, `--impact` or `arena tune`"
        )),
        None => Err("not a report of arena (no `kind`): give `--format json` output of arena sim or arena tune".into()),
    }
}

fn setup(v: &Value) -> String {
    v.get("setup").or_else(|| v.get("scenario")).and_then(Value::as_str).unwrap_or("?").to_string()
}

fn seeds(v: &Value) -> String {
    match v.get("seeds").and_then(Value::as_array).map(|s| s.iter().filter_map(Value::as_u64).collect::<Vec<_>>()) {
        Some(s) if s.len() == 2 => format!("seeds {}-{}", s[0], s[1]),
        _ => String::new(),
    }
}

fn players(v: &Value) -> String {
    let names: Vec<&str> = v
        .get("players")
        .and_then(Value::as_array)
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    names.join(",")
}

/// A rate or a difference of rates: a number from -1 to 1.
fn number(r: &Value, key: &str) -> Result<f64, String> {
    let n = r.get(key).and_then(Value::as_f64).ok_or_else(|| format!("a row has no number `{key}`"))?;
    if !(-1.0..=1.0).contains(&n) {
        return Err(format!("`{key}` is {n}: rates and their differences are fractions from -1 to 1"));
    }
    Ok(n)
}

/// A row of `sim-compare` or `sim-impact`: `estimate` is `difference` or `worth`.
fn row(label: String, r: &Value, estimate: &str) -> Result<ForestRow, String> {
    let games = r.get("games").and_then(Value::as_u64).unwrap_or(0);
    let changed = r.get("outcome_changed").and_then(Value::as_u64).unwrap_or(0);
    Ok(ForestRow {
        label,
        estimate: number(r, estimate)?,
        low: number(r, "low")?,
        high: number(r, "high")?,
        significant: r.get("significant").and_then(Value::as_bool).unwrap_or(false),
        note: format!("{games} games, {changed} changed"),
    })
}

fn compare(v: &Value) -> Result<String, String> {
    let report = v.get("report").ok_or("no `report`")?;
    let mut rows = Vec::new();
    for (i, r) in report.get("seats").and_then(Value::as_array).ok_or("no `report.seats`")?.iter().enumerate() {
        rows.push(row(format!("player {}", i + 1), r, "difference")?);
    }
    if let Some(characters) = report.get("characters").and_then(Value::as_object) {
        // The Characters the change alters first, marked, as the table prints them.
        let changed: Vec<&str> = v
            .get("changed_characters")
            .and_then(Value::as_array)
            .map(|c| c.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let played = characters.iter().filter(|(_, r)| r.get("games").and_then(Value::as_u64).unwrap_or(0) > 0);
        let (first, rest): (Vec<_>, Vec<_>) = played.partition(|(id, _)| changed.contains(&id.as_str()));
        for (id, r) in first {
            rows.push(row(format!("{id} (changed)"), r, "difference")?);
        }
        for (id, r) in rest {
            rows.push(row(id.clone(), r, "difference")?);
        }
    }
    let restrict: Vec<&str> = v
        .get("restrict")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let what = if restrict.is_empty() {
        "Paired comparison: changed − base win rate".to_string()
    } else {
        format!("Restricted play ({}): restricted − unrestricted win rate", restrict.join(", "))
    };
    Ok(forest_svg(
        &format!("{what}, {}", setup(v)),
        &format!(
            "{} paired games ({}), players {}; 95% intervals; * significant after Holm's correction across the {} rows",
            report.get("games").and_then(Value::as_u64).unwrap_or(0),
            seeds(v),
            players(v),
            report.get("holm_rows").and_then(Value::as_u64).unwrap_or(rows.len() as u64)
        ),
        &rows,
    ))
}

fn impact(v: &Value) -> Result<String, String> {
    let character = v.get("character").and_then(Value::as_str).unwrap_or("?");
    let rows = v
        .get("abilities")
        .and_then(Value::as_array)
        .ok_or("no `abilities`")?
        .iter()
        .map(|r| {
            let name = r.get("ability").and_then(Value::as_str).unwrap_or("?");
            let kind = r.get("kind").and_then(Value::as_str).unwrap_or("");
            row(format!("{name} ({kind})"), r, "worth")
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(forest_svg(
        &format!("What each ability of {character} is worth to its side, {}", setup(v)),
        &format!(
            "win rate with it − without it, paired over {} ({}), players {}; * significant after Holm",
            seeds(v),
            setup(v),
            players(v)
        ),
        &rows,
    ))
}

/// One curve per stretch of the search, stacked: the consecutive reads of
/// one field's search (`"field"` of each read; a field searched again in a
/// later pass gets a panel of its own), with the values read before on the
/// same line (the other fields as they were); a value read further shows
/// its last reading; the answer (`reading.values`) is ringed where it is.
fn tune(v: &Value) -> Result<String, String> {
    let fields = v.get("fields").and_then(Value::as_array).ok_or("no `fields`")?;
    let reads = v.get("reads").and_then(Value::as_array).ok_or("no `reads`")?;
    let target = v.get("target").ok_or("no `target`")?;
    let (at, precision) = (number(target, "at")?, number(target, "precision")?);
    let figure = target.get("figure").and_then(Value::as_str).unwrap_or("?");
    let outcome = v.get("outcome").and_then(Value::as_str).unwrap_or("?");
    let integer =
        |f: &Value, key: &str| f.get(key).and_then(Value::as_i64).ok_or_else(|| format!("a field has no `{key}`"));
    let of = |name: &str| fields.iter().find(|f| f.get("field").and_then(Value::as_str) == Some(name));
    // The stretches: (field, its reads).
    let mut stretches: Vec<(&str, Vec<&Value>)> = Vec::new();
    for r in reads {
        let field = r.get("field").and_then(Value::as_str).ok_or("a read has no `field`")?;
        match stretches.last_mut() {
            Some((f, rs)) if *f == field => rs.push(r),
            _ => stretches.push((field, vec![r])),
        }
    }
    let answer_values = v.get("reading").and_then(|r| r.get("values"));
    let mut panels = Vec::new();
    let mut upto = 0;
    for (name, rs) in &stretches {
        upto += rs.len();
        let f = of(name).ok_or_else(|| format!("a read names `{name}`, not one of the `fields`"))?;
        // The line through the space this stretch searched: its reads, and
        // the reads before it (a value read for an earlier field, taken from
        // there) with every other field at the same values.
        let others = |r: &Value| -> Option<Vec<(String, Value)>> {
            let values = r.get("values")?.as_object()?;
            Some(values.iter().filter(|(k, _)| k.as_str() != *name).map(|(k, v)| (k.clone(), v.clone())).collect())
        };
        let line = others(rs[0]);
        let mut points: Vec<CurvePoint> = Vec::new();
        let mut answer = None;
        for r in reads[..upto].iter().filter(|r| others(r) == line) {
            let value = r
                .get("values")
                .and_then(|vs| vs.get(*name))
                .and_then(Value::as_i64)
                .ok_or("a read has no value of its field")?;
            points.retain(|p| p.value != value);
            points.push(CurvePoint {
                value,
                estimate: number(r, "estimate")?,
                low: number(r, "low")?,
                high: number(r, "high")?,
                games: r.get("games").and_then(Value::as_u64).unwrap_or(0),
            });
            if answer_values.is_some() && r.get("values") == answer_values {
                answer = Some((value, outcome == "reached"));
            }
        }
        panels.push(curve_svg(
            &format!("arena tune {}: {figure} to {:.1}% ± {:.1}", setup(v), at * 100.0, precision * 100.0),
            &format!("{name} (was {}): {outcome}, players {}", integer(f, "current")?, players(v)),
            name,
            (integer(f, "low")?, integer(f, "high")?),
            &points,
            (at, precision),
            answer,
        ));
    }
    if panels.is_empty() {
        return Err("no `reads`: the search read nothing".into());
    }
    Ok(stack(&panels))
}

/// SVG documents one under the other, as one document.
fn stack(panels: &[String]) -> String {
    if panels.len() == 1 {
        return panels[0].clone();
    }
    let size = |svg: &str, key: &str| -> f64 {
        svg.split_once(&format!("{key}=\"")).and_then(|(_, rest)| rest.split('"').next()?.parse().ok()).unwrap_or(0.0)
    };
    let width = panels.iter().map(|p| size(p, "width")).fold(0.0, f64::max);
    let height: f64 = panels.iter().map(|p| size(p, "height")).sum();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">\n"
    );
    let mut y = 0.0;
    for p in panels {
        out.push_str(&p.trim_end().replacen("<svg ", &format!("<svg y=\"{y}\" "), 1));
        out.push('\n');
        y += size(p, "height");
    }
    out.push_str("</svg>\n");
    out
}
