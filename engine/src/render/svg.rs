//! A [`Scene`] as an SVG document: the board on the left, a legend on the
//! right (the game's status, each player's figures with Damage, States and
//! Action Points, and a key). Written through quick-xml, which escapes every
//! text and attribute value.
//!
//! The board is drawn from [`geometry::vertices`]: a lattice point `(x, y)` is
//! drawn at `(x·√3/2·S, y·S/2)` pixels for a hexagon circumradius of `S`
//! ([`SIZE`]), with `r` growing downwards. Numbers are written with two
//! decimals, so the output is the same on every machine.

use super::*;
use crate::model::Id;
use quick_xml::Writer;
use quick_xml::events::{BytesEnd, BytesStart, BytesText, Event as Xml};

/// Circumradius of a space, in pixels.
pub const SIZE: f64 = 20.0;
/// Width of the legend beside the board, in pixels.
const LEGEND: f64 = 470.0;
const MARGIN: f64 = 16.0;
const TOP: f64 = 40.0;

/// The colour of a player's figures (seat 1 blue, seat 2 orange, then green, purple).
pub fn player_colour(p: PlayerId) -> &'static str {
    ["#2563eb", "#ea580c", "#16a34a", "#9333ea"][p.index() % 4]
}

fn zone_fill(kind: ZoneKind) -> &'static str {
    match kind {
        ZoneKind::Deployment => "#d6e4f0",
        ZoneKind::Central => "#f3e3a3",
        ZoneKind::Ziggurat => "#e4d2f0",
    }
}

fn sight_fill(s: Sight) -> &'static str {
    match s {
        Sight::Clear => "#22c55e",
        Sight::Limited => "#facc15",
        Sight::Blocked => "#1f2937",
    }
}

fn sight_name(s: Sight) -> &'static str {
    match s {
        Sight::Clear => "Clear",
        Sight::Limited => "Limited",
        Sight::Blocked => "Blocked",
    }
}

/// A number as SVG writes it: two decimals, no trailing zeros.
fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// Pixel position of a lattice point, given the board's origin.
struct Frame {
    ox: f64,
    oy: f64,
}

impl Frame {
    fn point(&self, (x, y): (i64, i64)) -> (f64, f64) {
        (self.ox + x as f64 * SIZE * 3f64.sqrt() / 2.0, self.oy + y as f64 * SIZE / 2.0)
    }

    fn centre(&self, h: Hex) -> (f64, f64) {
        self.point(geometry::centre(h))
    }

    fn polygon(&self, h: Hex) -> String {
        geometry::vertices(h)
            .iter()
            .map(|&v| {
                let (x, y) = self.point(v);
                format!("{},{}", num(x), num(y))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The XML being written.
struct Doc {
    w: Writer<Vec<u8>>,
}

impl Doc {
    fn start(&mut self, name: &str, attrs: &[(&str, &str)]) {
        let mut e = BytesStart::new(name);
        for a in attrs {
            e.push_attribute(*a);
        }
        // Writing into a Vec cannot fail.
        let _ = self.w.write_event(Xml::Start(e));
    }

    fn end(&mut self, name: &str) {
        let _ = self.w.write_event(Xml::End(BytesEnd::new(name)));
    }

    fn empty(&mut self, name: &str, attrs: &[(&str, &str)]) {
        let mut e = BytesStart::new(name);
        for a in attrs {
            e.push_attribute(*a);
        }
        let _ = self.w.write_event(Xml::Empty(e));
    }

    fn text(&mut self, text: &str) {
        let _ = self.w.write_event(Xml::Text(BytesText::new(text)));
    }

    /// `<name attrs>text</name>`.
    fn element(&mut self, name: &str, attrs: &[(&str, &str)], text: &str) {
        self.start(name, attrs);
        self.text(text);
        self.end(name);
    }

    fn label(&mut self, x: f64, y: f64, size: f64, class: &str, text: &str) {
        let (x, y, size) = (num(x), num(y), num(size));
        self.element(
            "text",
            &[("x", &x), ("y", &y), ("font-size", &size), ("class", class), ("text-anchor", "middle")],
            text,
        );
    }
}

/// The scene as an SVG document (UTF-8 text, one element per line).
pub fn to_svg(scene: &Scene, options: &Options) -> String {
    let n = scene.radius as f64;
    let half_w = (2.0 * n + 1.0) * SIZE * 3f64.sqrt() / 2.0;
    let half_h = (3.0 * n + 2.0) * SIZE / 2.0;
    let frame = Frame { ox: MARGIN + half_w, oy: TOP + half_h };
    let board_w = 2.0 * half_w + 2.0 * MARGIN;
    let legend_lines = 12 + scene.figures.len() * 2 + scene.status.len();
    let height = (TOP + 2.0 * half_h + MARGIN).max(TOP + legend_lines as f64 * 15.0 + MARGIN);
    let width = board_w + LEGEND;
    let mut d = Doc { w: Writer::new_with_indent(Vec::new(), b' ', 0) };
    let (ws, hs) = (num(width), num(height));
    let view = format!("0 0 {ws} {hs}");
    d.start(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("width", &ws),
            ("height", &hs),
            ("viewBox", &view),
            ("font-family", "sans-serif"),
        ],
    );
    d.element("style", &[], STYLE);
    d.empty("rect", &[("x", "0"), ("y", "0"), ("width", &ws), ("height", &hs), ("fill", "#fbfaf7")]);
    d.element("text", &[("x", &num(MARGIN)), ("y", "24"), ("class", "title")], &scene.title);
    spaces(&mut d, scene, &frame);
    if let Some(from) = options.sight_from {
        overlay(&mut d, scene, &frame, from);
    }
    zones(&mut d, scene, &frame);
    terrain(&mut d, scene, &frame);
    if options.coordinates {
        d.start("g", &[("id", "coordinates")]);
        for h in scene.spaces() {
            let (x, y) = frame.centre(h);
            d.label(x, y + SIZE * 0.75, 6.0, "coord", &format!("{},{}", h.q, h.r));
        }
        d.end("g");
    }
    figures(&mut d, scene, &frame);
    marks(&mut d, &frame, &options.marks);
    legend(&mut d, scene, options, board_w);
    d.end("svg");
    let mut out = String::from_utf8(d.w.into_inner()).unwrap_or_default();
    out.push('\n');
    out
}

const STYLE: &str = ".title{font-size:16px;font-weight:bold;fill:#222}\
.coord{fill:#555}.zone{fill:#334;font-weight:bold}.fig{fill:#fff;font-weight:bold}\
.badge{fill:#fff;font-weight:bold}.legend{font-size:12px;fill:#222}.head{font-size:13px;font-weight:bold;fill:#222}\
.mark{fill:#111;font-weight:bold}.range{fill:#111}.option{cursor:pointer}";

fn spaces(d: &mut Doc, scene: &Scene, frame: &Frame) {
    d.start("g", &[("id", "spaces"), ("stroke", "#a29b8c"), ("stroke-width", "1")]);
    for h in scene.spaces() {
        let zone = scene.zone_of(h);
        let (fill, what) = if scene.blocked.contains(&h) {
            ("#4b4b4b", Id::from("Blocked space"))
        } else {
            match zone {
                Some(z) => (zone_fill(z.kind), z.id),
                None => ("#f1ede4", Id::default()),
            }
        };
        let (q, r) = (h.q.to_string(), h.r.to_string());
        d.start("polygon", &[("points", &frame.polygon(h)), ("fill", fill), ("data-q", &q), ("data-r", &r)]);
        let tip = if what.is_empty() { format!("[{q}, {r}]") } else { format!("[{q}, {r}] {what}") };
        d.element("title", &[], &tip);
        d.end("polygon");
    }
    d.end("g");
    // The Scoring Zone's outline, drawn over its neighbours' sides.
    let scoring: Vec<_> = scene.zones.iter().filter(|z| scene.scoring_zones.contains(&z.id)).collect();
    if !scoring.is_empty() {
        d.start("g", &[("id", "scoring-zone"), ("fill", "none"), ("stroke", "#b45309"), ("stroke-width", "3")]);
        for h in scoring.iter().flat_map(|z| &z.spaces) {
            d.empty("polygon", &[("points", &frame.polygon(*h))]);
        }
        d.end("g");
    }
}

fn overlay(d: &mut Doc, scene: &Scene, frame: &Frame, from: Hex) {
    d.start("g", &[("id", "sight"), ("stroke", "none")]);
    for c in scene.sight_from(from) {
        let (q, r) = (c.space.q.to_string(), c.space.r.to_string());
        let opacity = if c.sight == Sight::Blocked { "0.3" } else { "0.45" };
        d.start(
            "polygon",
            &[
                ("points", &frame.polygon(c.space)),
                ("fill", sight_fill(c.sight)),
                ("fill-opacity", opacity),
                ("data-sight", sight_name(c.sight)),
                ("data-q", &q),
                ("data-r", &r),
            ],
        );
        let range = c.range.map_or("no route".to_string(), |n| format!("Range {n}"));
        d.element("title", &[], &format!("[{q}, {r}] {} Line of Sight, {range}", sight_name(c.sight)));
        d.end("polygon");
        if let (Some(n), true) = (c.range, c.sight.has_line_of_sight()) {
            let (x, y) = frame.centre(c.space);
            d.label(x, y - SIZE * 0.45, 7.0, "range", &n.to_string());
        }
    }
    d.empty(
        "polygon",
        &[("points", &frame.polygon(from)), ("fill", "none"), ("stroke", "#be123c"), ("stroke-width", "3")],
    );
    d.end("g");
}

fn zones(d: &mut Doc, scene: &Scene, frame: &Frame) {
    d.start("g", &[("id", "zones")]);
    for z in &scene.zones {
        // The label goes on the space nearest the zone's middle.
        let n = z.spaces.len().max(1) as i64;
        let (sx, sy) = z.spaces.iter().map(|h| geometry::centre(*h)).fold((0, 0), |a, c| (a.0 + c.0, a.1 + c.1));
        let Some(mid) = z.spaces.iter().min_by_key(|h| {
            let (x, y) = geometry::centre(**h);
            ((x * n - sx).pow(2) * 3 + (y * n - sy).pow(2), **h)
        }) else {
            continue;
        };
        let name = match (z.kind, z.number) {
            (ZoneKind::Deployment, Some(k)) => format!("Zone {k}"),
            (ZoneKind::Deployment, None) => z.id.to_string(),
            (ZoneKind::Central, _) => "Central".into(),
            (ZoneKind::Ziggurat, _) => "Ziggurat".into(),
        };
        let scoring = scene.scoring_zones.contains(&z.id);
        let (x, y) = frame.centre(*mid);
        d.label(x, y - SIZE * 1.05, 9.0, "zone", &if scoring { format!("{name} (Scoring)") } else { name });
    }
    d.end("g");
}

fn terrain(d: &mut Doc, scene: &Scene, frame: &Frame) {
    d.start("g", &[("id", "terrain")]);
    for h in &scene.barriers {
        let (x, y) = frame.centre(*h);
        let (w, hh) = (SIZE * 1.3, SIZE * 0.5);
        d.start(
            "rect",
            &[
                ("x", &num(x - w / 2.0)),
                ("y", &num(y - hh / 2.0)),
                ("width", &num(w)),
                ("height", &num(hh)),
                ("rx", "3"),
                ("fill", "#8b5a2b"),
                ("stroke", "#4a2f12"),
                ("class", "barrier"),
            ],
        );
        d.element("title", &[], &format!("Barrier at [{}, {}]", h.q, h.r));
        d.end("rect");
    }
    for h in &scene.smoke {
        let (x, y) = frame.centre(*h);
        d.empty(
            "circle",
            &[("cx", &num(x)), ("cy", &num(y)), ("r", &num(SIZE * 0.8)), ("fill", "#9ca3af"), ("fill-opacity", "0.7")],
        );
    }
    for m in &scene.special_spaces {
        let (x, y) = frame.centre(m.space);
        let s = SIZE * 0.45;
        let pts = format!(
            "{},{} {},{} {},{} {},{}",
            num(x),
            num(y - s),
            num(x + s),
            num(y),
            num(x),
            num(y + s),
            num(x - s),
            num(y)
        );
        let (fill, tip) = match &m.revealed {
            Some(id) => ("#a855f7", format!("Special Space [{}, {}]: {id}", m.space.q, m.space.r)),
            None => ("#6b21a8", format!("Special Space [{}, {}], face down", m.space.q, m.space.r)),
        };
        d.start("polygon", &[("points", &pts), ("fill", fill), ("class", "special-space")]);
        d.element("title", &[], &tip);
        d.end("polygon");
        let text = m.revealed.as_deref().map_or("?".to_string(), |id| short_label(id, FigureKind::Character));
        d.label(x, y + 3.0, 8.0, "badge", &text);
    }
    d.end("g");
}

fn figures(d: &mut Doc, scene: &Scene, frame: &Frame) {
    d.start("g", &[("id", "figures")]);
    for f in &scene.figures {
        let Some(h) = f.space() else { continue };
        let (x, y) = frame.centre(h);
        let colour = player_colour(f.player);
        let (stroke, width) = if f.active { ("#facc15", "3") } else { ("#111", "1.5") };
        d.start("g", &[("class", "figure"), ("data-id", &f.id)]);
        d.element("title", &[], &figure_line(f));
        let r = SIZE * 0.62;
        match f.kind {
            FigureKind::Character => d.empty(
                "circle",
                &[
                    ("cx", &num(x)),
                    ("cy", &num(y)),
                    ("r", &num(r)),
                    ("fill", colour),
                    ("stroke", stroke),
                    ("stroke-width", width),
                ],
            ),
            FigureKind::Minion => {
                let s = r * 1.5;
                d.empty(
                    "rect",
                    &[
                        ("x", &num(x - s / 2.0)),
                        ("y", &num(y - s / 2.0)),
                        ("width", &num(s)),
                        ("height", &num(s)),
                        ("rx", "3"),
                        ("fill", colour),
                        ("stroke", stroke),
                        ("stroke-width", width),
                    ],
                )
            }
            FigureKind::RunningProjectile => {
                let pts = format!(
                    "{},{} {},{} {},{}",
                    num(x),
                    num(y - r),
                    num(x + r),
                    num(y + r * 0.7),
                    num(x - r),
                    num(y + r * 0.7)
                );
                d.empty("polygon", &[("points", &pts), ("fill", "#6b7280"), ("stroke", colour), ("stroke-width", "2")])
            }
        }
        d.label(x, y + 4.0, 10.0, "fig", &f.label);
        if f.damage > 0 {
            let (bx, by) = (x + r * 0.85, y - r * 0.85);
            d.empty("circle", &[("cx", &num(bx)), ("cy", &num(by)), ("r", "6"), ("fill", "#dc2626")]);
            d.label(bx, by + 3.0, 8.0, "badge", &f.damage.to_string());
        }
        for (i, (state, side)) in f.tokens.iter().enumerate() {
            let bx = x - r + i as f64 * 8.0;
            let by = y + r * 0.55;
            let fill = if *side == TokenSide::Red { "#b91c1c" } else { "#1d4ed8" };
            d.empty(
                "rect",
                &[
                    ("x", &num(bx)),
                    ("y", &num(by)),
                    ("width", "7"),
                    ("height", "7"),
                    ("fill", fill),
                    ("stroke", "#fff"),
                ],
            );
            let initial = state.chars().next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
            d.label(bx + 3.5, by + 6.0, 6.0, "badge", &initial);
        }
        if f.active {
            d.label(x, y - r - 3.0, 8.0, "mark", &format!("{} AP", f.action_points));
        }
        d.end("g");
    }
    d.end("g");
}

fn marks(d: &mut Doc, frame: &Frame, marks: &[(Hex, String)]) {
    if marks.is_empty() {
        return;
    }
    // Each option's number on a yellow disc: the disc takes no class, so no
    // rule of STYLE (`.mark` fills text black) paints over its fill. A
    // disc's group names the option numbers it stands for (`data-option`,
    // from 1, comma-separated when several options are on one space), which
    // the viewer answers on a click.
    d.start("g", &[("id", "marks")]);
    for (h, text) in marks {
        let (x, y) = frame.centre(*h);
        let r = if text.len() > 2 { 11.0 } else { 8.0 };
        d.start("g", &[("class", "option"), ("data-option", text)]);
        d.empty(
            "circle",
            &[
                ("cx", &num(x)),
                ("cy", &num(y)),
                ("r", &num(r)),
                ("fill", "#fde047"),
                ("stroke", "#111"),
                ("stroke-width", "1.5"),
            ],
        );
        d.label(x, y + 3.5, if text.len() > 2 { 7.0 } else { 9.0 }, "mark", text);
        d.end("g");
    }
    d.end("g");
}

/// One line about a figure: label, id, where, Damage, States, Action Points.
pub fn figure_line(f: &Figure) -> String {
    let place = match f.location {
        Location::Space(h) => format!("[{}, {}]", h.q, h.r),
        Location::Infirmary => "Infirmary".into(),
        Location::Bench => "Bench".into(),
        Location::Aside => "aside".into(),
    };
    let damage = match f.hit_points {
        Some(hp) => format!("Damage {}/{hp}", f.damage),
        None => format!("Damage {}", f.damage),
    };
    let mut line = format!("{} {} {place} {damage}", f.label, f.id);
    if !f.tokens.is_empty() {
        let states: Vec<String> = f
            .tokens
            .iter()
            .map(|(s, side)| format!("{s} ({})", if *side == TokenSide::Red { "red" } else { "blue" }))
            .collect();
        line.push_str(&format!(", {}", states.join(", ")));
    }
    if f.active {
        line.push_str(&format!(", active, {} AP", f.action_points));
    }
    line
}

fn legend(d: &mut Doc, scene: &Scene, options: &Options, left: f64) {
    d.start("g", &[("id", "legend")]);
    let x = num(left);
    let mut y = TOP + 4.0;
    let line = |d: &mut Doc, class: &str, text: &str, y: &mut f64| {
        d.element("text", &[("x", &x), ("y", &num(*y)), ("class", class)], text);
        *y += 15.0;
    };
    for s in &scene.status {
        line(d, "legend", s, &mut y);
    }
    let mut players: Vec<PlayerId> = scene.figures.iter().map(|f| f.player).collect();
    players.sort();
    players.dedup();
    for p in players {
        y += 4.0;
        d.empty(
            "rect",
            &[("x", &x), ("y", &num(y - 10.0)), ("width", "10"), ("height", "10"), ("fill", player_colour(p))],
        );
        d.element("text", &[("x", &num(left + 14.0)), ("y", &num(y)), ("class", "head")], &p.to_string());
        y += 15.0;
        for f in scene.figures.iter().filter(|f| f.player == p) {
            line(d, "legend", &figure_line(f), &mut y);
        }
    }
    y += 8.0;
    line(d, "head", "Key", &mut y);
    let key = [
        ("#4b4b4b", "Blocked space"),
        ("#8b5a2b", "Barrier (Obstacle)"),
        ("#d6e4f0", "Deployment Zone"),
        ("#f3e3a3", "Central Zone"),
        ("#e4d2f0", "Ziggurat"),
        ("#6b21a8", "Special Space marker"),
        ("#6b7280", "Running Projectile"),
    ];
    for (fill, text) in key {
        d.empty("rect", &[("x", &x), ("y", &num(y - 10.0)), ("width", "10"), ("height", "10"), ("fill", fill)]);
        d.element("text", &[("x", &num(left + 14.0)), ("y", &num(y)), ("class", "legend")], text);
        y += 15.0;
    }
    if let Some(why) = options.sight_from.and_then(|from| scene.sight_refused(from)) {
        line(d, "head", &format!("No Line of Sight drawn: {why}"), &mut y);
    } else if let Some(from) = options.sight_from {
        line(d, "head", &format!("Line of Sight from [{}, {}]", from.q, from.r), &mut y);
        for s in [Sight::Clear, Sight::Limited, Sight::Blocked] {
            d.empty(
                "rect",
                &[("x", &x), ("y", &num(y - 10.0)), ("width", "10"), ("height", "10"), ("fill", sight_fill(s))],
            );
            d.element("text", &[("x", &num(left + 14.0)), ("y", &num(y)), ("class", "legend")], sight_name(s));
            y += 15.0;
        }
        line(d, "legend", "numbers: Line-of-Sight Range", &mut y);
    }
    d.end("g");
}
