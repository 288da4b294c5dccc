//! HexaDome geometry: spaces, Adjacency, Range, Line of Sight and Cover
//! (`000 § Adjacency`, `§ Range`, `§ Line of Sight`, `§ Cover`, `§ Blocked Spaces`,
//! `§ Occupied Spaces`, `§ Obstacles`).
//!
//! Pure functions with no state: the caller says which spaces obstruct, give
//! Cover or can be crossed through predicates, so the same code serves static
//! terrain, Characters and Obstacles, and "what if" questions.
//!
//! # The plane
//!
//! Spaces are pointy-top hexagons in axial coordinates `(q, r)`. In the usual
//! layout (hexagon circumradius 1) a centre sits at `x = √3·(q + r/2)`,
//! `y = 3r/2` and the six vertices at angles 30° + 60°·k. Scaling `x` by `2/√3`
//! and `y` by 2 turns this into an integer lattice: the centre of `(q, r)` is
//! `(2q + r, 3r)` and its vertices are the centre plus `(0, ±2)` and `(±1, ±1)`
//! ([`centre`], [`vertices`]). Neighbouring spaces share their vertices exactly
//! (the tiling is edge to edge), and no vertex lies inside another space's edge.
//! An affine map preserves straightness, incidence, orientation signs and
//! betweenness, so every Line of Sight test here (which side of a line a point is
//! on, whether a point lies on a segment, whether a segment enters a hexagon) is
//! done exactly, with `i64` cross and dot products, and no floating point.
//!
//! The rulings this module follows are written out, with citations, in
//! `docs/rulings-geometry.md` (G1–G8); the comments below name them.

use std::collections::VecDeque;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

mod grid;
mod search;
mod table;
pub use grid::HexGrid;
pub use search::{DistanceField, OpenSpaces, distance_field_into, distance_field_on, path_distance_on};
pub use table::SightTable;

/// A point of the scaled integer plane (see the module documentation): `x` in
/// units of `√3/2` circumradii, `y` in units of half a circumradius.
type Pt = (i64, i64);

/// The six axial steps to the Adjacent spaces, in the order [`Hex::neighbours`]
/// returns them: `(+1, 0)`, `(+1, −1)`, `(0, −1)`, `(−1, 0)`, `(−1, +1)`, `(0, +1)`.
const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// Vertex offsets from a centre in the scaled plane, counter-clockwise (with `y`
/// pointing up) from the top point. The hexagon's interior lies to the left of
/// each directed edge `V[k] → V[k+1]`.
const VERTEX_OFFSETS: [Pt; 6] = [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)];

/// The farthest apart two spaces of one board can be: the diameter of the
/// largest board a map can describe (its `radius` is at most 255). Line of
/// Sight and Cover between spaces farther apart (not on one board) are
/// answered without looking at the spaces between: there are too many to
/// look at, and no game asks.
pub const MAX_SIGHT_DISTANCE: u32 = 2 * u8::MAX as u32;

/// One space of the HexaDome, in axial coordinates (pointy-top hexagons).
///
/// `q` grows along a row, `r` from row to row; the implied third cube
/// coordinate is `s = −q − r`. Ordering is by `q`, then `r` (only for sorted,
/// deterministic collections: it has no meaning on the board). Serialized as
/// `{ "q": .., "r": .. }`. Rules source: `000 § HexaDome` (the board is divided
/// into hexagonal spaces), `000 § Adjacency`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hex {
    /// Axial column coordinate.
    pub q: i32,
    /// Axial row coordinate.
    pub r: i32,
}

impl Hex {
    /// The space at axial coordinates `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The six spaces Adjacent to this one: those sharing a side with it, not
    /// just a vertex (`000 § Adjacency`). Always six, whether or not they are on
    /// the board; in the axial-step order `(+1, 0)`, `(+1, −1)`, `(0, −1)`,
    /// `(−1, 0)`, `(−1, +1)`, `(0, +1)`.
    pub fn neighbours(self) -> [Hex; 6] {
        // Saturating: a space at the edge of `i32` is off every board, and so
        // are its "neighbours"; no arithmetic on coordinates may overflow.
        DIRECTIONS.map(|(dq, dr)| Hex::new(self.q.saturating_add(dq), self.r.saturating_add(dr)))
    }

    /// The space at axial coordinates given as wider integers (from Lua, a
    /// file, a URL), or `None` when either does not fit an `i32`: such a space
    /// is off every board, and truncating it would name another.
    pub fn checked(q: i64, r: i64) -> Option<Hex> {
        Some(Hex::new(i32::try_from(q).ok()?, i32::try_from(r).ok()?))
    }

    /// Hex distance in spaces on an open board: the number of steps between
    /// Adjacent spaces on the shortest route, "including the final space but not
    /// the first"; a space is at distance 0 from itself, Adjacent spaces at 1
    /// (`000 § Range`). Terrain is ignored; see [`path_distance`] for routes that
    /// must avoid spaces.
    ///
    /// Exact for every pair of `i32` coordinates: computed in `i64`, and a
    /// distance above `u32::MAX` (only between spaces near opposite corners
    /// of the `i32` plane, off every board) saturates to `u32::MAX` rather
    /// than wrapping to a small number.
    pub fn distance(self, other: Hex) -> u32 {
        let dq = i64::from(other.q) - i64::from(self.q);
        let dr = i64::from(other.r) - i64::from(self.r);
        u32::try_from((dq.abs() + dr.abs() + (dq + dr).abs()) / 2).unwrap_or(u32::MAX)
    }

    /// Whether the two spaces share a side: distance exactly 1. "A space cannot
    /// be Adjacent to itself" (`000 § Adjacency`).
    pub fn is_adjacent(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// Whether this space lies on a hexagonal board of the given radius (in
    /// spaces) centred on `(0, 0)`: `max(|q|, |r|, |q + r|) <= radius`. A board of
    /// radius `n` has `3n(n + 1) + 1` spaces.
    pub fn within(self, radius: u32) -> bool {
        self.distance(Hex::new(0, 0)) <= radius
    }
}

/// The centre of a space in the scaled integer plane: `(2q + r, 3r)` (see the
/// module documentation). For tests and debugging; the rules only use
/// [`vertices`]. Geometry source: `000 § Line of Sight` (lines are drawn between
/// vertices of spaces).
pub fn centre(h: Hex) -> (i64, i64) {
    (2 * i64::from(h.q) + i64::from(h.r), 3 * i64::from(h.r))
}

/// The six vertices of a space in the scaled integer plane: the [`centre`] plus
/// `(0, 2)`, `(−1, 1)`, `(−1, −1)`, `(0, −2)`, `(1, −1)`, `(1, 1)`, in that
/// (counter-clockwise) order. Adjacent spaces share exactly two of them; every
/// vertex belongs to exactly three spaces. Lines of Sight run from a vertex of
/// one space to vertices of another (`000 § Line of Sight`).
pub fn vertices(h: Hex) -> [(i64, i64); 6] {
    let (cx, cy) = centre(h);
    VERTEX_OFFSETS.map(|(dx, dy)| (cx + dx, cy + dy))
}

/// The three Line of Sight conditions (`000 § Line of Sight`), ordered from the
/// most to the least restrictive: `Blocked < Limited < Clear`, so `max` picks
/// "the less restrictive Line of Sight". Serialized in snake case
/// (`"blocked"`, `"limited"`, `"clear"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sight {
    /// Unobstructed lines from one vertex of the viewer's space reach at most
    /// one vertex of the Target's space: no Line of Sight.
    Blocked,
    /// Unobstructed lines from one vertex reach at least two vertices of the
    /// Target's space, but not all six.
    Limited,
    /// Unobstructed lines from one vertex reach all six vertices of the Target's
    /// space.
    Clear,
}

impl Sight {
    /// Whether this is Line of Sight at all: Clear or Limited. "For a Target to
    /// be within Line-of-Sight Range, you must have Clear or Limited Line of
    /// Sight to them" (`000 § Line of Sight`).
    pub fn has_line_of_sight(self) -> bool {
        self != Sight::Blocked
    }

    /// The condition given by the number (0–6) of Target vertices one viewer
    /// vertex reaches (`000 § Line of Sight`).
    fn from_reached(reached: usize) -> Sight {
        match reached {
            6.. => Sight::Clear,
            2..=5 => Sight::Limited,
            _ => Sight::Blocked,
        }
    }
}

/// The Line of Sight condition from the viewer's space `from` to the Target's
/// space `to` (`000 § Line of Sight`, `000 § Adjacency`).
///
/// `obstructs(h)` says whether space `h` obstructs Line of Sight: true for
/// Blocked spaces and spaces Occupied by a Character (including a Hidden one,
/// `000 § Hidden`), false for Free spaces and spaces Occupied by an Obstacle
/// (`000 § Obstacles`). It is asked about every space near the lines, which may
/// include spaces off the board: the caller decides what those do. It is never
/// asked about `from` or `to`, which never obstruct (ruling G2).
///
/// The vertex rule, exactly: for each vertex of `from`, count the vertices of
/// `to` that an unobstructed straight segment reaches; the best vertex decides
/// ("use the less restrictive Line of Sight"): six is Clear, two to five is
/// Limited, fewer is Blocked. A segment is obstructed by an obstructing space
/// if it passes through the space's interior, or touches two or more of its
/// vertices ("Important!" note), or runs between two Adjacent obstructing
/// spaces; touching a single vertex of a space does not obstruct (ruling G1).
/// Adjacent spaces always have Clear Line of Sight, and so does a space to
/// itself (ruling G4). The result need not be symmetric in `from` and `to`
/// (ruling G5). Spaces more than [`MAX_SIGHT_DISTANCE`] apart (never on one
/// board) have no Line of Sight: Blocked.
pub fn line_of_sight(from: Hex, to: Hex, obstructs: impl Fn(Hex) -> bool) -> Sight {
    sight_with(from, to, &obstructs, true)
}

/// [`line_of_sight`] with the explicit "between two Adjacent spaces" test
/// switchable (`pair_rule`), so the tests can show it changes nothing (ruling G1).
fn sight_with(from: Hex, to: Hex, obstructs: &impl Fn(Hex) -> bool, pair_rule: bool) -> Sight {
    if from == to || from.is_adjacent(to) {
        return Sight::Clear;
    }
    if from.distance(to) > MAX_SIGHT_DISTANCE {
        return Sight::Blocked;
    }
    let field = Field::collect(from, to, obstructs);
    // The best viewer vertex decides: stop at the first that reaches all six.
    let targets = vertices(to);
    let mut best = 0;
    for a in vertices(from) {
        let n = targets.iter().filter(|&&b| !field.segment_obstructed(a, b, pair_rule)).count();
        best = best.max(n);
        if best == 6 {
            break;
        }
    }
    Sight::from_reached(best)
}

/// Whether the Character in `defender` benefits from Cover against the Enemy in
/// `attacker` (`000 § Cover`, `000 § Obstacles`, `000 § Blocked Spaces`,
/// `000 § Occupied Spaces`).
///
/// The question is asked of one side against the other: for the Defender's
/// Cover call `cover(defender_space, attacker_space, ..)`; for the Attacker's
/// own Cover ("Both the Attacker and the Defender can add one Black die") call
/// it with the spaces swapped, since what counts is "the Enemy's Line of Sight".
///
/// `provides_cover(h)`: `h` is a Blocked or Occupied space (a Character or an
/// Obstacle) that can give Cover. `obstructs(h)`: as in [`line_of_sight`]
/// (Obstacles give Cover but do not obstruct). Neither is asked about the two
/// Characters' own spaces.
///
/// Ruling G7: Adjacent (or identical) spaces never give Cover. Otherwise the
/// Enemy draws its Line of Sight from one of the vertices of its space that
/// give it its best condition; the Character is in Cover if, whichever of those
/// vertices the Enemy picks, at least one of the six segments from it to the
/// Character's vertices is obstructed by a cover-giving space Adjacent to the
/// Character, that space being treated as obstructing for the test (so an
/// Obstacle in the way gives Cover although the line passes through it).
/// Hidden and Marked Targets cannot benefit from Cover and No-Line-of-Sight
/// Attacks ignore it: those are the caller's business.
pub fn cover(
    defender: Hex,
    attacker: Hex,
    provides_cover: impl Fn(Hex) -> bool,
    obstructs: impl Fn(Hex) -> bool,
) -> bool {
    if defender == attacker || defender.is_adjacent(attacker) || defender.distance(attacker) > MAX_SIGHT_DISTANCE {
        return false;
    }
    let covered = covered_lines(defender, attacker, &provides_cover, &obstructs);
    !covered.is_empty() && covered.iter().all(|&(_, c)| c)
}

/// For each vertex of `attacker` that gives it its best Line of Sight
/// condition to `defender` (the vertices it may draw its Line of Sight from),
/// whether one of the segments from it to `defender`'s vertices is obstructed
/// by a cover-giving space Adjacent to `defender`, that space treated as
/// obstructing (ruling G7). Empty when no Adjacent space gives Cover.
fn covered_lines(
    defender: Hex,
    attacker: Hex,
    provides_cover: &impl Fn(Hex) -> bool,
    obstructs: &impl Fn(Hex) -> bool,
) -> Vec<(Pt, bool)> {
    let covers: Vec<Hex> = defender.neighbours().into_iter().filter(|&c| c != attacker && provides_cover(c)).collect();
    if covers.is_empty() {
        return Vec::new();
    }
    // The Enemy's Line of Sight to the Character: from the attacker's vertices.
    let field = Field::collect(attacker, defender, obstructs);
    let reached = reach(attacker, defender, |a, b| field.segment_obstructed(a, b, true));
    let best = Sight::from_reached(reached.iter().copied().max().unwrap_or(0));
    let targets = vertices(defender);
    vertices(attacker)
        .into_iter()
        .zip(reached)
        .filter(|&(_, n)| Sight::from_reached(n) == best)
        .map(|(a, _)| {
            let hit = covers
                .iter()
                .any(|&c| targets.iter().any(|&b| space_obstructs(a, b, c, |h| h == c || field.contains(h), true)));
            (a, hit)
        })
        .collect()
}

/// The length, in steps between Adjacent spaces, of the shortest route from
/// `from` to `to` whose intermediate spaces are all `passable`; the destination
/// itself need not be (it is usually the Target's Occupied space). `Some(0)`
/// when `from == to`; `None` when no such route has at most `limit` steps.
/// Counts "the spaces in the shortest route between them, including the final
/// space but not the first" (`000 § Range`); for Line-of-Sight Range the caller
/// makes Occupied and Blocked spaces impassable ("Line-of-Sight Range
/// measurements must avoid both Occupied and Blocked spaces", `000 § Range`),
/// and for movement the Free spaces only (`000 § Movement Points`,
/// `§ Displacements`; a move's destination must be Free as well, which the
/// caller checks). `passable` should also reject spaces off the board: the
/// search is bounded by `limit`, not by the board.
pub fn path_distance(from: Hex, to: Hex, passable: impl Fn(Hex) -> bool, limit: u32) -> Option<u32> {
    if from == to {
        return Some(0);
    }
    let limit = u64::from(limit);
    let mut seen = FxHashSet::default();
    seen.insert(from);
    let mut queue = VecDeque::from([(from, 0u64)]);
    while let Some((h, steps)) = queue.pop_front() {
        let next = steps + 1;
        for n in h.neighbours() {
            // Too far to reach `to` within the limit even on an open board.
            if next + u64::from(n.distance(to)) > limit {
                continue;
            }
            if n == to {
                return Some(next as u32);
            }
            if seen.insert(n) && passable(n) {
                queue.push_back((n, next));
            }
        }
    }
    None
}

/// Steps from `from` to every space reachable through `passable` spaces within
/// `limit` steps (a breadth-first distance field; `from` itself is 0 even if
/// not passable). One call answers "how far is each of these spaces" at once.
/// [`distance_field_on`] does the same over a passability grid computed once.
pub fn distance_field(from: Hex, passable: impl Fn(Hex) -> bool, limit: u32) -> FxHashMap<Hex, u32> {
    let mut dist = FxHashMap::default();
    dist.insert(from, 0u32);
    let mut queue = VecDeque::from([from]);
    while let Some(h) = queue.pop_front() {
        let d = dist[&h];
        if d >= limit {
            continue;
        }
        for n in h.neighbours() {
            if !dist.contains_key(&n) && passable(n) {
                dist.insert(n, d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// For each vertex of `from` (in [`vertices`] order), how many vertices of `to`
/// a segment reaches without `blocked(a, b)`.
fn reach(from: Hex, to: Hex, blocked: impl Fn(Pt, Pt) -> bool) -> [usize; 6] {
    let targets = vertices(to);
    vertices(from).map(|a| targets.iter().filter(|&&b| !blocked(a, b)).count())
}

/// The obstructing spaces that can matter to segments between the vertices of
/// two spaces: those whose closed hexagon meets the bounding box of both
/// spaces' vertices, minus the two spaces themselves (ruling G2). Any space
/// whose closure touches such a segment is among the candidates, so a pair of
/// Adjacent obstructing spaces whose shared side touches the segment has both
/// members in the set.
struct Field {
    obstructing: Vec<Hex>,
    /// Which spaces of the bounding rows `r0..` and columns `q0..` (`width`
    /// wide) are in `obstructing`: a flat bitmap, no hashing.
    r0: i64,
    q0: i64,
    width: i64,
    rows: i64,
    set: Vec<bool>,
}

impl Field {
    fn collect(from: Hex, to: Hex, obstructs: &impl Fn(Hex) -> bool) -> Field {
        let (vf, vt) = (vertices(from), vertices(to));
        let pts = vf.iter().chain(&vt);
        let xmin = pts.clone().map(|p| p.0).min().unwrap_or(0);
        let xmax = pts.clone().map(|p| p.0).max().unwrap_or(0);
        let ymin = pts.clone().map(|p| p.1).min().unwrap_or(0);
        let ymax = pts.map(|p| p.1).max().unwrap_or(0);
        // A hexagon spans x in [cx − 1, cx + 1] and y in [cy − 2, cy + 2], with
        // cx = 2q + r and cy = 3r.
        let (r0, r1) = (ceil_div(ymin - 2, 3), (ymax + 2).div_euclid(3));
        let (q0, q1) = (ceil_div(xmin - 1 - r1, 2), (xmax + 1 - r0).div_euclid(2));
        let (width, rows) = ((q1 - q0 + 1).max(0), (r1 - r0 + 1).max(0));
        let mut field =
            Field { obstructing: Vec::new(), r0, q0, width, rows, set: vec![false; (width * rows) as usize] };
        for r in r0..=r1 {
            for q in ceil_div(xmin - 1 - r, 2)..=(xmax + 1 - r).div_euclid(2) {
                let h = Hex::new(q as i32, r as i32);
                if h != from && h != to && obstructs(h) {
                    field.obstructing.push(h);
                    field.set[((r - r0) * width + (q - q0)) as usize] = true;
                }
            }
        }
        field
    }

    fn contains(&self, h: Hex) -> bool {
        let (q, r) = (i64::from(h.q) - self.q0, i64::from(h.r) - self.r0);
        (0..self.width).contains(&q) && (0..self.rows).contains(&r) && self.set[(r * self.width + q) as usize]
    }

    /// Whether segment `a → b` is obstructed by the collected spaces.
    /// `pair_rule` switches the explicit "between two Adjacent spaces" test
    /// (kept switchable so the tests can show it is implied by the other two).
    fn segment_obstructed(&self, a: Pt, b: Pt, pair_rule: bool) -> bool {
        // A space whose closed hexagon (x in cx ± 1, y in cy ± 2) lies outside
        // the segment's bounding box can neither be entered nor touched by it,
        // nor can its sides: skip it before the exact tests.
        let (xlo, xhi, ylo, yhi) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
        self.obstructing.iter().any(|&s| {
            let (cx, cy) = centre(s);
            cx + 1 >= xlo
                && cx - 1 <= xhi
                && cy + 2 >= ylo
                && cy - 2 <= yhi
                && space_obstructs(a, b, s, |h| self.contains(h), pair_rule)
        })
    }
}

/// `⌈n / d⌉` for `d > 0`.
fn ceil_div(n: i64, d: i64) -> i64 {
    -(-n).div_euclid(d)
}

/// Twice the signed area of triangle `o, a, b`: positive when `b` is to the left
/// of the directed line `o → a`, zero when the three are collinear.
fn cross(o: Pt, a: Pt, b: Pt) -> i64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// `(p − a)·(p − b)`: negative when `p` is strictly between `a` and `b` on their
/// line, zero at either end.
fn between(p: Pt, a: Pt, b: Pt) -> i64 {
    (p.0 - a.0) * (p.0 - b.0) + (p.1 - a.1) * (p.1 - b.1)
}

/// Whether `p` lies on the closed segment `a b`.
fn on_segment(p: Pt, a: Pt, b: Pt) -> bool {
    cross(a, b, p) == 0 && between(p, a, b) <= 0
}

/// Whether `p` lies on the segment `a b` strictly between its ends.
fn strictly_inside(p: Pt, a: Pt, b: Pt) -> bool {
    cross(a, b, p) == 0 && between(p, a, b) < 0
}

/// Whether the closed segment `a b` meets the open interior of space `h`.
/// Separating-axis test on the closed hexagon and the segment: they fail to
/// share an interior point exactly when the segment's line has every vertex on
/// one closed side, or one side's line of the hexagon has both segment ends on
/// its outer closed side.
fn enters_interior(a: Pt, b: Pt, h: Hex) -> bool {
    let v = vertices(h);
    let sides = v.map(|p| cross(a, b, p));
    if sides.iter().all(|&s| s >= 0) || sides.iter().all(|&s| s <= 0) {
        return false;
    }
    (0..6).all(|k| {
        let (e, f) = (v[k], v[(k + 1) % 6]);
        cross(e, f, a) > 0 || cross(e, f, b) > 0
    })
}

/// Whether segment `a b` meets segment `e f` at some point other than `a` or
/// `b`. (A segment that only ends on a side does not run between the two
/// spaces that share it.)
fn meets_away_from_ends(a: Pt, b: Pt, e: Pt, f: Pt) -> bool {
    let (d1, d2) = (cross(a, b, e), cross(a, b, f));
    if d1 == 0 && d2 == 0 {
        // Collinear: do they overlap along a stretch of positive length?
        let t = |p: Pt| (p.0 - a.0) * (b.0 - a.0) + (p.1 - a.1) * (b.1 - a.1);
        let len = t(b);
        let (te, tf) = (t(e), t(f));
        return te.min(tf).max(0) < te.max(tf).min(len);
    }
    let (d3, d4) = (cross(e, f, a), cross(e, f, b));
    let proper = d1.signum() * d2.signum() < 0 && d3.signum() * d4.signum() < 0;
    proper || strictly_inside(e, a, b) || strictly_inside(f, a, b)
}

/// Whether the obstructing space `s` obstructs segment `a b` (ruling G1): the
/// segment enters its interior, or touches two or more of its vertices, or
/// (with `pair_rule`) runs between it and an Adjacent space for which
/// `is_obstructing` holds, i.e. meets their shared side other than at `a`/`b`.
fn space_obstructs(a: Pt, b: Pt, s: Hex, is_obstructing: impl Fn(Hex) -> bool, pair_rule: bool) -> bool {
    if enters_interior(a, b, s) {
        return true;
    }
    let vs = vertices(s);
    if vs.iter().filter(|&&v| on_segment(v, a, b)).count() >= 2 {
        return true;
    }
    pair_rule
        && s.neighbours().into_iter().enumerate().filter(|&(_, n)| is_obstructing(n)).any(|(k, _)| {
            let (e, f) = side_towards(s, k);
            meets_away_from_ends(a, b, e, f)
        })
}

/// The side `s` shares with its neighbour in direction `k` ([`DIRECTIONS`]
/// order): [`shared_side`] of `s` and that neighbour, from a table.
fn side_towards(s: Hex, k: usize) -> (Pt, Pt) {
    static SIDES: std::sync::OnceLock<[(Pt, Pt); 6]> = std::sync::OnceLock::new();
    let sides = SIDES.get_or_init(|| {
        let o = Hex::new(0, 0);
        let n = o.neighbours();
        std::array::from_fn(|k| shared_side(o, n[k]))
    });
    let (cx, cy) = centre(s);
    let ((ex, ey), (fx, fy)) = sides[k];
    ((cx + ex, cy + ey), (cx + fx, cy + fy))
}

/// The two vertices shared by Adjacent spaces `s` and `n`.
fn shared_side(s: Hex, n: Hex) -> (Pt, Pt) {
    let other = vertices(n);
    let mut shared = vertices(s).into_iter().filter(|v| other.contains(v));
    match (shared.next(), shared.next()) {
        (Some(e), Some(f)) => (e, f),
        _ => unreachable!("{s:?} and {n:?} are Adjacent, so they share a side"),
    }
}

#[cfg(test)]
mod tests;
