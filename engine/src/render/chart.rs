//! A balance batch ([`crate::sim::Report`]) as SVG bar charts: each side's
//! win rate with its 95% interval, then each Character's side win rate with
//! its interval and its mean Damage dealt and taken per game (the figures of
//! `arena sim --games N`).

use super::svg::player_colour;
use crate::sim::{Rate, Report};
use quick_xml::Writer;
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event as Xml};

const WIDTH: f64 = 900.0;
const ROW: f64 = 22.0;
const NAME: f64 = 220.0;
const BAR: f64 = 300.0;
/// Where the Damage bars start, and their longest length.
const DAMAGE: f64 = 680.0;
const DAMAGE_BAR: f64 = 120.0;

pub(super) fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// An SVG document being written (shared with `forest`).
pub(super) struct Doc(pub(super) Writer<Vec<u8>>);

impl Doc {
    pub(super) fn el(&mut self, name: &str, attrs: &[(&str, &str)], text: Option<&str>) {
        let mut e = BytesStart::new(name);
        for a in attrs {
            e.push_attribute(*a);
        }
        // Writing into a Vec cannot fail.
        match text {
            None => {
                let _ = self.0.write_event(Xml::Empty(e));
            }
            Some(t) => {
                let _ = self.0.write_event(Xml::Start(e));
                let _ = self.0.write_event(Xml::Text(BytesText::new(t)));
                let _ = self.0.write_event(Xml::End(BytesEnd::new(name)));
            }
        }
    }

    pub(super) fn text(&mut self, x: f64, y: f64, class: &str, t: &str) {
        self.el("text", &[("x", &num(x)), ("y", &num(y)), ("class", class)], Some(t));
    }

    /// A bar of `rate` (0 to 1) with its interval as a whisker.
    fn rate_bar(&mut self, y: f64, rate: &Rate, fill: &str) {
        let w = (rate.rate.clamp(0.0, 1.0) * BAR).max(0.0);
        self.el(
            "rect",
            &[("x", &num(NAME)), ("y", &num(y - 13.0)), ("width", &num(w)), ("height", "14"), ("fill", fill)],
            None,
        );
        let (lo, hi) = (NAME + rate.low.clamp(0.0, 1.0) * BAR, NAME + rate.high.clamp(0.0, 1.0) * BAR);
        self.el(
            "line",
            &[("x1", &num(lo)), ("x2", &num(hi)), ("y1", &num(y - 6.0)), ("y2", &num(y - 6.0)), ("stroke", "#111")],
            None,
        );
        let label = format!("{:.1}% [{:.1}-{:.1}]", rate.rate * 100.0, rate.low * 100.0, rate.high * 100.0);
        self.text(NAME + BAR + 8.0, y, "small", &label);
    }
}

/// The report as an SVG document: `title` at the top.
pub fn balance_svg(title: &str, report: &Report) -> String {
    let rows = 4 + report.win_rate.iter().count() + report.per_character.len();
    let height = 60.0 + rows as f64 * ROW + 40.0;
    let mut d = start(height);
    d.text(12.0, 24.0, "title", title);
    let mut y = 50.0;
    d.text(12.0, y, "head", &format!("Win rate by side, {} games (95% intervals)", report.games));
    y += ROW;
    for (p, rate) in report.win_rate.enumerate() {
        d.text(12.0, y, "small", &format!("{p}  mean VP {:.2}", report.mean_victory_points[p]));
        d.rate_bar(y, rate, player_colour(p));
        y += ROW;
    }
    d.text(
        12.0,
        y,
        "small",
        &format!("draws {}  mean Rounds {:.2}  engine errors {}", report.draws, report.mean_rounds, report.errors),
    );
    y += ROW * 1.5;
    d.text(12.0, y, "head", "Each Character: its side's win rate; Damage dealt / taken per game");
    y += ROW;
    let most = report.per_character.values().map(|c| c.mean_damage_dealt.max(c.mean_damage_taken)).fold(1.0, f64::max);
    for (id, c) in &report.per_character {
        d.text(12.0, y, "small", &format!("{id} ({} games)", c.games));
        d.rate_bar(y, &c.win_rate, "#64748b");
        // Damage dealt (green) and taken (red) per game, as two thin bars.
        let dealt = c.mean_damage_dealt / most * DAMAGE_BAR;
        let taken = c.mean_damage_taken / most * DAMAGE_BAR;
        d.el(
            "rect",
            &[("x", &num(DAMAGE)), ("y", &num(y - 13.0)), ("width", &num(dealt)), ("height", "6"), ("fill", "#16a34a")],
            None,
        );
        d.el(
            "rect",
            &[("x", &num(DAMAGE)), ("y", &num(y - 6.0)), ("width", &num(taken)), ("height", "6"), ("fill", "#dc2626")],
            None,
        );
        d.text(
            DAMAGE + DAMAGE_BAR + 4.0,
            y,
            "small",
            &format!("{:.1} / {:.1}", c.mean_damage_dealt, c.mean_damage_taken),
        );
        y += ROW;
    }
    finish(d)
}

/// A document `WIDTH` wide and `height` high: its styles and background
/// (shared with `forest`).
pub(super) fn start(height: f64) -> Doc {
    let mut d = Doc(Writer::new_with_indent(Vec::new(), b' ', 0));
    let (w, h) = (num(WIDTH), num(height));
    let view = format!("0 0 {w} {h}");
    let mut svg = BytesStart::new("svg");
    for a in [
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("width", w.as_str()),
        ("height", h.as_str()),
        ("viewBox", view.as_str()),
        ("font-family", "sans-serif"),
    ] {
        svg.push_attribute(a);
    }
    let _ = d.0.write_event(Xml::Start(svg));
    d.el(
        "style",
        &[],
        Some(".title{font-size:16px;font-weight:bold}.head{font-size:13px;font-weight:bold}.small{font-size:12px}"),
    );
    d.el("rect", &[("x", "0"), ("y", "0"), ("width", &w), ("height", &h), ("fill", "#fbfaf7")], None);
    d
}

/// The document closed, as text.
pub(super) fn finish(mut d: Doc) -> String {
    let _ = d.0.write_event(Xml::End(BytesEnd::new("svg")));
    let mut out = String::from_utf8(d.0.into_inner()).unwrap_or_default();
    out.push('\n');
    out
}
