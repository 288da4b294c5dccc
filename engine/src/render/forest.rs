//! The pictures of balance answers: a paired comparison or restricted play as
//! a **forest plot** (one row per seat, Character or ability: the difference
//! as a dot, its 95% interval as a whisker, a line at 0, significant rows
//! marked), and `arena tune`'s search as a **curve** (each value read: its
//! estimate and interval; the target's band shaded; the answer ringed).
//! docs/balance.md; `arena render chart`, the viewer's Balance tab.

use super::chart::{finish, num, start};

const ROW: f64 = 24.0;
/// Where the plot starts, and its width.
const PLOT: f64 = 250.0;
const PLOT_WIDTH: f64 = 380.0;

/// One row of a forest plot: fractions (0.016 is 1.6 points).
#[derive(Debug, Clone, PartialEq)]
pub struct ForestRow {
    /// What the row is (`player 1`, `wild-bill`, `purge-92 (Action)`).
    pub label: String,
    /// The difference (changed − base, or what an ability is worth).
    pub estimate: f64,
    /// Its 95% interval.
    pub low: f64,
    /// Its 95% interval's upper end.
    pub high: f64,
    /// Significant after Holm's correction.
    pub significant: bool,
    /// Said at the row's right (`200 games, 14 changed`).
    pub note: String,
}

/// A forest plot: `title`, `subtitle` (what the rows are and how they were
/// played), one row per [`ForestRow`]; the axis is symmetric around 0 and at
/// least ±5 points wide, in steps of 5 points.
pub fn forest_svg(title: &str, subtitle: &str, rows: &[ForestRow]) -> String {
    let widest = rows.iter().flat_map(|r| [r.low.abs(), r.high.abs()]).filter(|v| v.is_finite()).fold(0.05, f64::max);
    // A multiple of 5 points, at most 100: a difference of win rates is
    // within ±1, and a wider interval is drawn to the edge.
    let half = ((widest * 20.0).ceil() / 20.0).min(1.0);
    let x = |v: f64| PLOT + (v.clamp(-half, half) + half) / (2.0 * half) * PLOT_WIDTH;
    let top = 80.0;
    let height = top + rows.len() as f64 * ROW + 50.0;
    let mut d = start(height);
    d.text(12.0, 24.0, "title", title);
    d.text(12.0, 44.0, "small", subtitle);
    // The axis: ticks every 5 points, 0 drawn stronger.
    let steps = (half * 20.0).round() as i64;
    for i in -steps..=steps {
        let v = i as f64 * 0.05;
        let (stroke, w) = if i == 0 { ("#111", "1.5") } else { ("#ddd", "1") };
        let xs = num(x(v));
        d.el(
            "line",
            &[
                ("x1", &xs),
                ("x2", &xs),
                ("y1", &num(top - 12.0)),
                ("y2", &num(height - 40.0)),
                ("stroke", stroke),
                ("stroke-width", w),
            ],
            None,
        );
        d.text(x(v) - 10.0, height - 24.0, "small", &format!("{:+}", i * 5).replace("+0", "0"));
    }
    d.text(PLOT + PLOT_WIDTH / 2.0 - 60.0, height - 8.0, "small", "difference, percentage points");
    for (i, r) in rows.iter().enumerate() {
        let y = top + i as f64 * ROW;
        let class = if r.significant { "head" } else { "small" };
        d.text(12.0, y + 4.0, class, &format!("{}{}", r.label, if r.significant { " *" } else { "" }));
        let colour = if r.significant { if r.estimate < 0.0 { "#dc2626" } else { "#16a34a" } } else { "#64748b" };
        d.el(
            "line",
            &[
                ("x1", &num(x(r.low))),
                ("x2", &num(x(r.high))),
                ("y1", &num(y)),
                ("y2", &num(y)),
                ("stroke", colour),
                ("stroke-width", "2"),
            ],
            None,
        );
        let fill = if r.significant { colour } else { "#fff" };
        d.el(
            "circle",
            &[
                ("cx", &num(x(r.estimate))),
                ("cy", &num(y)),
                ("r", "5"),
                ("fill", fill),
                ("stroke", colour),
                ("stroke-width", "2"),
            ],
            None,
        );
        let figure = format!("{:+.1} [{:+.1}, {:+.1}]", r.estimate * 100.0, r.low * 100.0, r.high * 100.0);
        d.text(PLOT + PLOT_WIDTH + 12.0, y + 4.0, "small", &format!("{figure}  {}", r.note));
    }
    finish(d)
}

/// One value `arena tune` read.
#[derive(Debug, Clone, PartialEq)]
pub struct CurvePoint {
    /// The field's value.
    pub value: i64,
    /// The figure's estimate and 95% interval, fractions.
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// Games it was read over.
    pub games: u64,
}

/// One field's search as a curve: x the field's values (`low..=high`), y the
/// figure from 0 to 100%, the band `target ± precision` shaded and the
/// target dashed, each point with its interval, `answer` ringed (green when
/// it reaches the target, amber when it is only the closest value found).
pub fn curve_svg(
    title: &str,
    subtitle: &str,
    field: &str,
    (low, high): (i64, i64),
    points: &[CurvePoint],
    (target, precision): (f64, f64),
    answer: Option<(i64, bool)>,
) -> String {
    let (left, width, top, plot_height) = (90.0, 640.0, 70.0, 300.0);
    let height = top + plot_height + 60.0;
    let (low, high) = (low.min(high), low.max(high));
    let span = (high.saturating_sub(low)).max(1) as f64;
    let x = |v: i64| left + (v.clamp(low, high) as f64 - low as f64) / span * width;
    let y = |p: f64| top + (1.0 - p.clamp(0.0, 1.0)) * plot_height;
    let mut d = start(height);
    d.text(12.0, 24.0, "title", title);
    d.text(12.0, 44.0, "small", subtitle);
    // The band and the target.
    let (band_top, band_bottom) = (y(target + precision), y(target - precision));
    d.el(
        "rect",
        &[
            ("x", &num(left)),
            ("y", &num(band_top)),
            ("width", &num(width)),
            ("height", &num(band_bottom - band_top)),
            ("fill", "#dcfce7"),
        ],
        None,
    );
    let ty = num(y(target));
    d.el(
        "line",
        &[
            ("x1", &num(left)),
            ("x2", &num(left + width)),
            ("y1", &ty),
            ("y2", &ty),
            ("stroke", "#16a34a"),
            ("stroke-dasharray", "6 4"),
        ],
        None,
    );
    // Axes: 0-100% every 10 points; every whole value when there are few.
    for i in 0..=10 {
        let p = i as f64 / 10.0;
        let ys = num(y(p));
        d.el(
            "line",
            &[("x1", &num(left)), ("x2", &num(left + width)), ("y1", &ys), ("y2", &ys), ("stroke", "#eee")],
            None,
        );
        d.text(left - 44.0, y(p) + 4.0, "small", &format!("{}%", i * 10));
    }
    // At most 21 labels, however wide the range.
    let every = (high.saturating_sub(low) / 20).max(1);
    let mut v = low;
    for _ in 0..=20 {
        d.text(x(v) - 6.0, top + plot_height + 20.0, "small", &v.to_string());
        match v.checked_add(every) {
            Some(next) if next <= high => v = next,
            _ => break,
        }
    }
    d.text(left + width / 2.0 - 40.0, top + plot_height + 44.0, "small", field);
    for p in points {
        let (px, lo, hi) = (num(x(p.value)), num(y(p.low)), num(y(p.high)));
        d.el(
            "line",
            &[("x1", &px), ("x2", &px), ("y1", &lo), ("y2", &hi), ("stroke", "#334155"), ("stroke-width", "2")],
            None,
        );
        d.el("circle", &[("cx", &px), ("cy", &num(y(p.estimate))), ("r", "4"), ("fill", "#334155")], None);
        d.text(x(p.value) + 8.0, y(p.estimate) - 6.0, "small", &format!("{:.1}% ({})", p.estimate * 100.0, p.games));
        if let Some((_, reached)) = answer.filter(|(a, _)| *a == p.value) {
            // Green where it reaches the target, amber where it is only the closest.
            let ring = if reached { "#16a34a" } else { "#d97706" };
            d.el(
                "circle",
                &[
                    ("cx", &px),
                    ("cy", &num(y(p.estimate))),
                    ("r", "9"),
                    ("fill", "none"),
                    ("stroke", ring),
                    ("stroke-width", "2.5"),
                ],
                None,
            );
        }
    }
    finish(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: &str, estimate: f64, half: f64, significant: bool) -> ForestRow {
        ForestRow {
            label: label.into(),
            estimate,
            low: estimate - half,
            high: estimate + half,
            significant,
            note: String::new(),
        }
    }

    #[test]
    fn a_forest_plot_has_a_row_per_difference_and_marks_the_significant_ones() {
        let svg = forest_svg(
            "t",
            "s",
            &[
                row("player 1", 0.016, 0.012, true),
                row("wild-bill", -0.004, 0.03, false),
                row("gata", -0.12, 0.02, true),
            ],
        );
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("player 1 *") && svg.contains("gata *") && !svg.contains("wild-bill *"));
        assert!(svg.contains("+1.6 [+0.4, +2.8]"), "{svg}");
        // -14 points is the widest end: the axis runs to ±15, a tick every 5.
        assert!(svg.contains(">-15<") && svg.contains(">+15<") && !svg.contains(">+20<"), "{svg}");
        assert!(svg.contains("fill=\"#dc2626\""), "a significant loss is red");
    }

    #[test]
    fn a_tune_curve_shades_the_band_and_rings_the_answer() {
        let points = [
            CurvePoint { value: 1, estimate: 0.065, low: 0.04, high: 0.11, games: 200 },
            CurvePoint { value: 5, estimate: 0.52, low: 0.46, high: 0.58, games: 400 },
            CurvePoint { value: 4, estimate: 0.48, low: 0.41, high: 0.55, games: 200 },
        ];
        let svg = curve_svg("t", "s", "character:wild-bill.hit_points", (1, 5), &points, (0.5, 0.1), Some((4, true)));
        assert!(svg.contains("fill=\"#dcfce7\""), "the band");
        assert_eq!(svg.matches("r=\"9\"").count(), 1, "one answer ringed");
        assert!(svg.contains("48.0% (200)") && svg.contains("6.5% (200)"));
        let far = curve_svg("t", "s", "f", (i64::MIN, i64::MAX), &points, (0.5, 0.1), Some((4, false)));
        assert!(far.matches("<text").count() < 40, "at most 21 labels on the widest range");
        assert!(far.contains("stroke=\"#d97706\""), "an answer that does not reach is amber");
    }

    #[test]
    fn a_forest_plot_of_a_huge_interval_stays_small() {
        let svg = forest_svg("t", "s", &[row("player 1", 0.0, 1e6, false)]);
        assert!(svg.len() < 20_000, "{} bytes", svg.len());
    }
}
