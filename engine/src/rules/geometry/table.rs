//! Line of Sight and Cover from a per-board table (`000 § Line of Sight`,
//! `§ Cover`, `§ Blocked Spaces`): what the 36 segments between two spaces'
//! vertices meet depends only on the spaces, and what the board's terrain
//! does to them only on the map, so both are worked out once and a question
//! becomes a lookup plus a check of what moves (Characters, Smoke).
//!
//! # What is stored
//!
//! - For each displacement `d` between two spaces of the board, up to the
//!   hex lattice's twelve symmetries (rotations by 60° and reflections, which
//!   map spaces to spaces and vertices to vertices, so they keep every
//!   incidence the rules test): the spaces other than the two ends that
//!   obstruct some segment on their own, with the set of those segments (a
//!   36-bit mask, bit `6·i + j` for viewer vertex `i` and Target vertex `j`
//!   in the canonical frame). Built on first use ([`Reach`]).
//! - For each ordered pair of spaces of the board: the segments the Blocked
//!   spaces obstruct, on first use.
//!
//! A question ORs in the masks of the moving obstructers and counts, per
//! viewer vertex, the segments left: the same count in any frame, so the
//! canonical frame's answer is the board's.
//!
//! # Why only single spaces
//!
//! [`super::line_of_sight`] also obstructs a segment that runs between two
//! Adjacent obstructing spaces (meets their shared side other than at its
//! ends). Such a segment always obstructs one of the two on its own (ruling
//! G1): crossing the side's inside enters both interiors; running along it
//! touches both its vertices (a segment from vertex to vertex that overlaps
//! a side contains it, no vertex lying inside a side); passing through one
//! of its vertices, which three spaces share, the segment leaves the vertex
//! into two opposite directions, which cannot both lie in the third space's
//! 120° corner, so it enters one of the two (or runs along a side of it and
//! touches two of its vertices). The test `the_table_answers_as_the_plain_
//! computation_on_every_bundled_map` checks the table against the plain
//! computation, pair rule included, on every pair of every bundled map.
//! Cover (ruling G7) tests the cover-giving space with the pair rule where
//! its partner need not give the Cover, so its pairs are stored ([`CoverReach`]).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{DIRECTIONS, Hex, HexGrid, Pt, Sight, enters_interior, meets_away_from_ends, on_segment, side_towards};

/// Bit set in a stored terrain mask once it is known.
const KNOWN: u64 = 1 << 63;

/// A symmetry of the hex lattice fixing `(0, 0)`, as an integer matrix on
/// axial coordinates: `(q, r) ↦ (m[0]·q + m[1]·r, m[2]·q + m[3]·r)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sym([i32; 4]);

impl Sym {
    const IDENTITY: Sym = Sym([1, 0, 0, 1]);

    fn apply(self, h: Hex) -> Hex {
        let m = self.0;
        Hex::new(m[0] * h.q + m[1] * h.r, m[2] * h.q + m[3] * h.r)
    }

    fn then(self, next: Sym) -> Sym {
        let (a, b) = (self.0, next.0);
        Sym([
            b[0] * a[0] + b[1] * a[2],
            b[0] * a[1] + b[1] * a[3],
            b[2] * a[0] + b[3] * a[2],
            b[2] * a[1] + b[3] * a[3],
        ])
    }

    /// The twelve: rotations by 60° (`(q, r) ↦ (−r, q + r)`) and the same
    /// after the reflection swapping `q` and `r`.
    fn all() -> [Sym; 12] {
        let (rotate, reflect) = (Sym([0, -1, 1, 1]), Sym([0, 1, 1, 0]));
        let mut out = [Sym::IDENTITY; 12];
        for k in 1..6 {
            out[k] = out[k - 1].then(rotate);
        }
        for k in 0..6 {
            out[6 + k] = reflect.then(out[k]);
        }
        out
    }

    fn inverse(self) -> Sym {
        let all = Sym::all();
        *all.iter().find(|s| self.then(**s) == Sym::IDENTITY).unwrap_or(&Sym::IDENTITY)
    }
}

/// What the 36 segments from the vertices of `(0, 0)` to those of a
/// canonical displacement `d` meet (see the module documentation).
struct Reach {
    /// The spaces other than `(0, 0)` and `d` that obstruct at least one
    /// segment on their own (enter its interior or touch two of its
    /// vertices), with the mask of those segments; sorted by space.
    singles: Vec<(Hex, u64)>,
    /// Cover's part, built when Cover is first asked at this displacement.
    cover: OnceLock<CoverReach>,
}

/// For each space `c_k = d + DIRECTIONS[k]` Adjacent to the Target's space:
/// the segments it obstructs on its own, and for each of its Adjacent
/// spaces `n` (not an end) the further segments that run between `c_k` and
/// `n` (ruling G7 treats `c_k` as obstructing; these count when `n` does).
struct CoverReach {
    single: [u64; 6],
    pairs: Vec<(u8, Hex, u64)>,
}

/// Whether the closed segment `a b` is obstructed by space `s` on its own:
/// enters its interior or touches two or more of its vertices (ruling G1).
fn obstructs_alone(a: Pt, b: Pt, s: Hex) -> bool {
    let v = super::vertices(s);
    let sides = v.map(|p| super::cross(a, b, p));
    // The line misses the closed hexagon altogether.
    if sides.iter().all(|&x| x > 0) || sides.iter().all(|&x| x < 0) {
        return false;
    }
    v.iter().filter(|&&p| on_segment(p, a, b)).count() >= 2 || enters_interior(a, b, s)
}

/// Every space whose closed hexagon's box meets the box of segment `a b`.
fn near_segment(a: Pt, b: Pt) -> impl Iterator<Item = Hex> {
    let (xlo, xhi, ylo, yhi) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
    // A hexagon spans x in [cx − 1, cx + 1] and y in [cy − 2, cy + 2], with
    // cx = 2q + r and cy = 3r.
    (super::ceil_div(ylo - 2, 3)..=(yhi + 2).div_euclid(3)).flat_map(move |r| {
        (super::ceil_div(xlo - 1 - r, 2)..=(xhi + 1 - r).div_euclid(2)).map(move |q| Hex::new(q as i32, r as i32))
    })
}

impl Reach {
    fn build(d: Hex) -> Reach {
        let (o, vf, vt) = (Hex::new(0, 0), super::vertices(Hex::new(0, 0)), super::vertices(d));
        let mut singles: Vec<(Hex, u64)> = Vec::new();
        for (i, &a) in vf.iter().enumerate() {
            for (j, &b) in vt.iter().enumerate() {
                let bit = 1u64 << (6 * i + j);
                singles.extend(
                    near_segment(a, b).filter(|&s| s != o && s != d && obstructs_alone(a, b, s)).map(|s| (s, bit)),
                );
            }
        }
        singles.sort_unstable_by_key(|e| e.0);
        let mut merged: Vec<(Hex, u64)> = Vec::with_capacity(singles.len());
        for (s, bit) in singles {
            match merged.last_mut() {
                Some(last) if last.0 == s => last.1 |= bit,
                _ => merged.push((s, bit)),
            }
        }
        Reach { singles: merged, cover: OnceLock::new() }
    }

    /// The segments space `s` (canonical frame) obstructs on its own.
    #[inline]
    fn single(&self, s: Hex) -> u64 {
        self.singles.binary_search_by_key(&s, |e| e.0).map_or(0, |k| self.singles[k].1)
    }

    fn cover(&self, d: Hex) -> &CoverReach {
        self.cover.get_or_init(|| {
            let (o, vf, vt) = (Hex::new(0, 0), super::vertices(Hex::new(0, 0)), super::vertices(d));
            let segments = |test: &dyn Fn(Pt, Pt) -> bool| {
                let mut m = 0u64;
                for (i, &a) in vf.iter().enumerate() {
                    for (j, &b) in vt.iter().enumerate() {
                        if test(a, b) {
                            m |= 1 << (6 * i + j);
                        }
                    }
                }
                m
            };
            let mut single = [0u64; 6];
            let mut pairs = Vec::new();
            for (k, &(dq, dr)) in DIRECTIONS.iter().enumerate() {
                let c = Hex::new(d.q + dq, d.r + dr);
                single[k] = segments(&|a, b| obstructs_alone(a, b, c));
                for (m, n) in c.neighbours().into_iter().enumerate() {
                    if n == o || n == d {
                        continue;
                    }
                    let side = side_towards(c, m);
                    let bits = segments(&|a, b| meets_away_from_ends(a, b, side.0, side.1)) & !single[k];
                    if bits != 0 {
                        pairs.push((k as u8, n, bits));
                    }
                }
            }
            CoverReach { single, pairs }
        })
    }
}

/// For each viewer vertex (a row of six bits), how many Target vertices the
/// segments not in `obstructed` reach; the best row's count.
fn best_reached(obstructed: u64) -> u32 {
    (0..6).map(|i| 6 - ((obstructed >> (6 * i)) & 63).count_ones()).max().unwrap_or(0)
}

/// The Line of Sight and Cover table of one board: its radius and Blocked
/// spaces (the terrain that obstructs), what segments between its spaces
/// meet, and what its terrain obstructs, worked out on first use (see the
/// module documentation). Shared by every game on the map (`Arc`), and by
/// threads: the lazily filled parts are `OnceLock`s and atomics.
pub struct SightTable {
    radius: u32,
    /// Blocked spaces near the board (within `radius + 2` steps: the only
    /// ones a segment between its spaces can meet).
    blocked: HexGrid<bool>,
    /// Blocked spaces farther away (a map may list them; they obstruct
    /// nothing the board holds, but the fallback asks).
    far_blocked: Vec<Hex>,
    /// The number (`0..spaces`) of each space of the board.
    number: HexGrid<u32>,
    spaces: usize,
    /// Per ordered pair of spaces (`spaces · from + to`): the segments the
    /// Blocked spaces obstruct, with [`KNOWN`] once computed.
    terrain: Vec<AtomicU64>,
    /// Per displacement (within `2·radius`): its canonical [`Reach`]'s slot
    /// and the symmetry taking it to the canonical frame.
    displacement: HexGrid<(u32, u8)>,
    canonical: Vec<Hex>,
    reaches: Vec<OnceLock<Reach>>,
    syms: [Sym; 12],
    /// `syms[k].inverse()`, from the canonical frame back.
    back: [Sym; 12],
}

impl std::fmt::Debug for SightTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let built = self.reaches.iter().filter(|r| r.get().is_some()).count();
        f.debug_struct("SightTable")
            .field("radius", &self.radius)
            .field("displacements", &self.reaches.len())
            .field("built", &built)
            .finish_non_exhaustive()
    }
}

impl SightTable {
    /// The table of a board of `radius` (centred on `(0, 0)`) whose
    /// `blocked` spaces obstruct Line of Sight (`000 § Blocked Spaces`).
    /// Cheap: the parts are computed on first use.
    pub fn new(radius: u32, blocked: impl IntoIterator<Item = Hex>) -> SightTable {
        let origin = Hex::new(0, 0);
        let mut grid = HexGrid::new(origin, radius + 2, false);
        let mut far_blocked = Vec::new();
        for h in blocked {
            match grid.get_mut(h) {
                Some(slot) => *slot = true,
                None => far_blocked.push(h),
            }
        }
        let mut number = HexGrid::new(origin, radius, u32::MAX);
        let board: Vec<Hex> = number.iter().map(|(h, _)| h).collect();
        for (k, h) in board.iter().enumerate() {
            number.set(*h, k as u32);
        }
        let syms = Sym::all();
        let mut displacement = HexGrid::new(origin, 2 * radius, (u32::MAX, 0u8));
        let mut canonical: Vec<Hex> = Vec::new();
        let mut slots = rustc_hash::FxHashMap::default();
        let all: Vec<Hex> = displacement.iter().map(|(h, _)| h).collect();
        for d in all {
            let (k, d0) =
                syms.iter().enumerate().map(|(k, s)| (k, s.apply(d))).min_by_key(|&(_, h)| h).unwrap_or((0, d));
            let slot = *slots.entry(d0).or_insert_with(|| {
                canonical.push(d0);
                canonical.len() as u32 - 1
            });
            displacement.set(d, (slot, k as u8));
        }
        let spaces = board.len();
        SightTable {
            radius,
            blocked: grid,
            far_blocked,
            number,
            spaces,
            terrain: (0..spaces * spaces).map(|_| AtomicU64::new(0)).collect(),
            displacement,
            reaches: (0..canonical.len()).map(|_| OnceLock::new()).collect(),
            canonical,
            syms,
            back: syms.map(Sym::inverse),
        }
    }

    /// The radius of the board the table is of.
    pub fn radius(&self) -> u32 {
        self.radius
    }

    fn is_blocked(&self, h: Hex) -> bool {
        self.blocked.get(h).copied().unwrap_or(false) || self.far_blocked.contains(&h)
    }

    /// What obstructs in the plain computation: the terrain, then `extra`.
    fn obstructs(&self, h: Hex, extra: &[Hex]) -> bool {
        self.is_blocked(h) || extra.contains(&h)
    }

    /// The segments (canonical frame) from `from`'s vertices to `to`'s that
    /// the terrain and `extra` obstruct, with the displacement's [`Reach`],
    /// canonical displacement and symmetry; `None` unless both spaces are on
    /// the board.
    fn obstructed(&self, from: Hex, to: Hex, extra: &[Hex]) -> Option<(u64, &Reach, Hex, usize)> {
        let (i, j) = (*self.number.get(from)?, *self.number.get(to)?);
        let d = Hex::new(to.q - from.q, to.r - from.r);
        let &(slot, k) = self.displacement.get(d)?;
        let (slot, k) = (slot as usize, usize::from(k));
        let d0 = self.canonical[slot];
        let reach = self.reaches[slot].get_or_init(|| Reach::build(d0));
        let cell = &self.terrain[i as usize * self.spaces + j as usize];
        let mut mask = cell.load(Ordering::Relaxed);
        if mask & KNOWN == 0 {
            let back = self.back[k];
            mask = reach
                .singles
                .iter()
                .filter(|(s, _)| {
                    let s = back.apply(*s);
                    self.is_blocked(Hex::new(from.q + s.q, from.r + s.r))
                })
                .fold(0, |m, (_, bits)| m | bits);
            // Another thread may store the same value first: the same answer.
            cell.store(mask | KNOWN, Ordering::Relaxed);
        }
        mask &= !KNOWN;
        let sym = self.syms[k];
        let reach_of = 2 * i64::from(self.radius) + 2;
        for &x in extra {
            let (dq, dr) = (i64::from(x.q) - i64::from(from.q), i64::from(x.r) - i64::from(from.r));
            if x == from || x == to || dq.abs() > reach_of || dr.abs() > reach_of {
                continue;
            }
            mask |= reach.single(sym.apply(Hex::new(dq as i32, dr as i32)));
        }
        Some((mask, reach, d0, k))
    }

    /// [`super::line_of_sight`] on this board with `obstructs(h)` = "`h` is
    /// Blocked or in `extra`": the same answer, for every pair of spaces.
    /// `extra` holds what obstructs besides the terrain (spaces Occupied by
    /// a Character, Smoke: `000 § Line of Sight`, `004 § Smoke`); it may
    /// repeat spaces or hold Blocked ones. Spaces off the board are answered
    /// by the plain computation.
    pub fn line_of_sight(&self, from: Hex, to: Hex, extra: &[Hex]) -> Sight {
        if from == to || from.is_adjacent(to) {
            return Sight::Clear;
        }
        match self.obstructed(from, to, extra) {
            Some((mask, ..)) => Sight::from_reached(best_reached(mask) as usize),
            None => super::line_of_sight(from, to, |h| self.obstructs(h, extra)),
        }
    }

    /// [`super::cover`] on this board with `obstructs` as in
    /// [`SightTable::line_of_sight`]: the same answer, for every pair of
    /// spaces. `provides_cover` as in [`super::cover`].
    pub fn cover(&self, defender: Hex, attacker: Hex, provides_cover: impl Fn(Hex) -> bool, extra: &[Hex]) -> bool {
        if defender == attacker || defender.is_adjacent(attacker) {
            return false;
        }
        let covers = defender.neighbours().map(|c| c != attacker && provides_cover(c));
        if !covers.contains(&true) {
            return false;
        }
        let Some((mask, reach, d0, k)) = self.obstructed(attacker, defender, extra) else {
            return super::cover(defender, attacker, provides_cover, |h| self.obstructs(h, extra));
        };
        let (sym, back) = (self.syms[k], self.back[k]);
        let table = reach.cover(d0);
        let mut hits = 0u64;
        for (dir, _) in covers.iter().enumerate().filter(|(_, c)| **c) {
            // The canonical direction of this cover-giving space from the Target's.
            let (dq, dr) = DIRECTIONS[dir];
            let s = sym.apply(Hex::new(dq, dr));
            let Some(k0) = DIRECTIONS.iter().position(|&t| t == (s.q, s.r)) else { continue };
            hits |= table.single[k0];
            for &(_, n, bits) in table.pairs.iter().filter(|p| usize::from(p.0) == k0) {
                let n = back.apply(n);
                if self.obstructs(Hex::new(attacker.q + n.q, attacker.r + n.r), extra) {
                    hits |= bits;
                }
            }
        }
        // The viewer vertices giving the best condition each have a hit.
        let best = Sight::from_reached(best_reached(mask) as usize);
        (0..6).all(|i| {
            let reached = 6 - ((mask >> (6 * i)) & 63).count_ones();
            Sight::from_reached(reached as usize) != best || (hits >> (6 * i)) & 63 != 0
        })
    }
}

#[cfg(test)]
mod tests;
