//! Breadth-first searches over a [`HexGrid`]'s padded slots (`000 § Range`,
//! `§ Movement Points`): a slot's Adjacent slots are at the six fixed index
//! steps (`±1`, `±width`, `±(width − 1)`), and the slots outside the area are
//! walls, so no step needs a bounds check or a division and nothing is hashed.
//!
//! Distance fields ([`distance_field_into`]) go a space at a time with a
//! queue (they cover the whole board: a queue visits each space once). Route
//! lengths ([`path_distance_on`]) go a layer at a time on bit sets (they are
//! short, a few layers, and a layer's Adjacent slots are the layer shifted
//! by the six steps: a few word operations for every 64 slots).

use std::cell::RefCell;

use super::{Hex, HexGrid};

/// A set of slots of a padded grid: slot `i` is bit `i % 64` of word `i / 64`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct SlotBits(Vec<u64>);

impl SlotBits {
    /// Empty, for `slots` slots, reusing the memory.
    fn reset(&mut self, slots: usize) {
        self.0.clear();
        self.0.resize(slots.div_ceil(64), 0);
    }

    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    #[inline]
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// `self` = the slots Adjacent to a slot of `layer` (the six `steps`).
    fn adjacent(&mut self, layer: &SlotBits, steps: [isize; 6]) {
        self.0.fill(0);
        for s in steps {
            or_shifted(&mut self.0, &layer.0, s);
        }
    }

    /// Keep the slots in `open` and not in `seen`; whether any is left.
    fn keep(&mut self, open: &SlotBits, seen: &SlotBits) -> bool {
        let mut any = 0;
        for ((w, o), s) in self.0.iter_mut().zip(&open.0).zip(&seen.0) {
            *w &= o & !s;
            any |= *w;
        }
        any != 0
    }

    /// `self |= other`.
    fn union(&mut self, other: &SlotBits) {
        for (s, o) in self.0.iter_mut().zip(&other.0) {
            *s |= o;
        }
    }
}

/// `out |= src` shifted by `s` slots (bit `i` of `src` to bit `i + s`);
/// bits shifted past either end are dropped. `out` and `src` have the same
/// length.
#[inline]
fn or_shifted(out: &mut [u64], src: &[u64], s: isize) {
    // s = 64·q + b: word w of `out` takes word w − q of `src` shifted left
    // by b, and the high bits of word w − q − 1.
    let (q, b) = (s.div_euclid(64), s.rem_euclid(64) as u32);
    let parts: [(isize, u32, bool); 2] = [(q, b, true), (q + 1, 64 - b, false)];
    for (q, shift, left) in parts {
        if !left && b == 0 {
            continue;
        }
        let (to, from) = if q >= 0 {
            (out.get_mut(q as usize..).unwrap_or_default(), src)
        } else {
            (&mut out[..], src.get(q.unsigned_abs()..).unwrap_or_default())
        };
        for (o, x) in to.iter_mut().zip(from) {
            *o |= if left { x << shift } else { x >> shift };
        }
    }
}

/// The slots of `grid`'s area that hold `true` (never a border or corner slot).
fn open_slots(grid: &HexGrid<bool>, inside: &SlotBits, out: &mut SlotBits) {
    out.0.clear();
    out.0.extend(grid.cells.chunks(64).zip(&inside.0).map(|(chunk, &inside)| {
        chunk.iter().enumerate().fold(0u64, |x, (k, &open)| x | (u64::from(open) << k)) & inside
    }));
}

/// The slots of the area of `radius` spaces (in a grid of that shape).
fn inside_slots<T>(grid: &HexGrid<T>, out: &mut SlotBits) {
    out.reset(grid.cells.len());
    let r = grid.radius;
    for dq in -r..=r {
        for dr in (-r).max(-r - dq)..=r.min(r - dq) {
            out.insert(grid.slot(dq, dr));
        }
    }
}

/// A slot no search may enter: outside the area, or not passable.
const WALL: u32 = u32::MAX;
/// A passable slot the search has not reached (yet).
const UNSEEN: u32 = u32::MAX - 1;

/// Steps from `from` to every space reachable within `limit` steps through
/// spaces whose slot in `passable` is `true` (a breadth-first distance field,
/// as [`super::distance_field`], over a passability grid computed once). Spaces
/// outside the grid's area are impassable. `from` itself is 0 even if not
/// passable. The result has the grid's area; unreached spaces are `None` in
/// [`DistanceField::get`]. [`distance_field_into`] does the same into a field
/// whose memory it reuses.
pub fn distance_field_on(passable: &HexGrid<bool>, from: Hex, limit: u32) -> DistanceField {
    let mut field = DistanceField::default();
    distance_field_into(passable, from, limit, &mut field);
    field
}

/// [`distance_field_on`] written into `field`, whose buffers are reused: no
/// allocation once `field` has held a field of an area of the same size.
pub fn distance_field_into(passable: &HexGrid<bool>, from: Hex, limit: u32, field: &mut DistanceField) {
    let DistanceField { dist, walls, queue } = field;
    // The walls of the area's shape: every slot outside the hexagon. Kept
    // while the shape stays the same.
    if walls.radius != passable.radius || walls.cells.len() != passable.cells.len() {
        walls.reset(passable.centre, passable.radius as u32, WALL);
        let r = walls.radius;
        for dq in -r..=r {
            for dr in -r..=r {
                if (dq + dr).abs() <= r {
                    let i = walls.slot(dq, dr);
                    walls.cells[i] = UNSEEN;
                }
            }
        }
    }
    walls.centre = passable.centre;
    (dist.centre, dist.radius, dist.width) = (passable.centre, passable.radius, passable.width);
    dist.cells.clear();
    dist.cells.extend(passable.cells.iter().zip(&walls.cells).map(|(&open, &w)| if open { w } else { WALL }));
    // A start outside the area has no slot: nothing is reached from it.
    let Some(start) = passable.index(from) else { return };
    dist.cells[start] = 0;
    let steps = passable.steps();
    // Every slot enters the queue at most once: a plain vector and a cursor.
    queue.clear();
    queue.push(start as u32);
    let mut head = 0;
    let cells = &mut dist.cells[..];
    while let Some(&i) = queue.get(head) {
        head += 1;
        let i = i as usize;
        let d = cells[i];
        if d >= limit {
            continue;
        }
        for step in steps {
            // In bounds: a slot of the area is never on the border, and the
            // border's slots are walls, so no step leaves the box.
            let j = i.wrapping_add_signed(step);
            if cells[j] == UNSEEN {
                cells[j] = d + 1;
                queue.push(j as u32);
            }
        }
    }
}

/// Steps from one space to each space of an area ([`distance_field_on`]).
#[derive(Debug, Clone)]
pub struct DistanceField {
    /// Steps to each slot; [`WALL`] and [`UNSEEN`] where not reached.
    dist: HexGrid<u32>,
    /// The area's shape: [`UNSEEN`] inside, [`WALL`] outside.
    walls: HexGrid<u32>,
    /// The search's queue of slots, kept for its memory.
    queue: Vec<u32>,
}

impl Default for DistanceField {
    /// A field of no area: nothing is reached.
    fn default() -> Self {
        let empty = HexGrid { centre: Hex::new(0, 0), radius: -1, width: 0, cells: Vec::new() };
        DistanceField { dist: empty.clone(), walls: empty, queue: Vec::new() }
    }
}

impl DistanceField {
    /// The steps to `h`, if it was reached.
    #[inline]
    pub fn get(&self, h: Hex) -> Option<u32> {
        self.dist.get(h).copied().filter(|&d| d < UNSEEN)
    }
}

/// Which spaces of an area are open (a passability [`HexGrid`] as a bit
/// set), for [`path_distance_on`]: computed once per board.
#[derive(Debug, Clone)]
pub struct OpenSpaces {
    /// The area's shape (its values unused).
    shape: HexGrid<()>,
    open: SlotBits,
}

impl OpenSpaces {
    /// The spaces of `grid`'s area whose value is `true`.
    pub fn of(grid: &HexGrid<bool>) -> OpenSpaces {
        let shape = HexGrid { centre: grid.centre, radius: grid.radius, width: grid.width, cells: Vec::new() };
        let (mut inside, mut open) = (SlotBits::default(), SlotBits::default());
        inside_slots(grid, &mut inside);
        open_slots(grid, &inside, &mut open);
        OpenSpaces { shape, open }
    }
}

thread_local! {
    /// [`path_distance_on`]'s sets, kept for their memory: passable, seen,
    /// the last layer and the next.
    static PATH_SETS: RefCell<[SlotBits; 4]> = RefCell::default();
}

/// [`super::path_distance`] with `passable(h)` = "`h` is in `open` and not
/// in `closed`": the same answer. `closed` holds what the terrain does not
/// know (spaces Occupied by a unit); it may repeat spaces or hold spaces
/// outside the area. A `from` or `to` outside `open`'s area is answered by
/// the plain search.
pub fn path_distance_on(open: &OpenSpaces, closed: &[Hex], from: Hex, to: Hex, limit: u32) -> Option<u32> {
    if from == to {
        return Some(0);
    }
    let shape = &open.shape;
    let (Some(start), Some(goal)) = (shape.index(from), shape.index(to)) else {
        let passable = |h: Hex| shape.index(h).is_some_and(|i| open.open.contains(i)) && !closed.contains(&h);
        return super::path_distance(from, to, passable, limit);
    };
    PATH_SETS.with(|sets| {
        let [passable, seen, layer, next] = &mut *sets.borrow_mut();
        passable.0.clone_from(&open.open.0);
        for &h in closed {
            if let Some(i) = shape.index(h) {
                passable.remove(i);
            }
        }
        // The goal need not be passable (it is the Target's Occupied space):
        // a layer's Adjacent slots are tested for it before passability.
        let slots = passable.0.len() * 64;
        seen.reset(slots);
        seen.insert(start);
        layer.reset(slots);
        layer.insert(start);
        next.reset(slots);
        let steps = shape.steps();
        let mut found = None;
        for d in 1..=limit {
            next.adjacent(layer, steps);
            if next.contains(goal) {
                found = Some(d);
                break;
            }
            if !next.keep(passable, seen) {
                break;
            }
            seen.union(next);
            std::mem::swap(layer, next);
        }
        found
    })
}

#[cfg(test)]
mod tests {
    use super::super::distance_field;
    use super::*;

    /// The field over a passability grid is the field of the same predicate,
    /// space for space, on boards with walls, with limits and from off-centre.
    #[test]
    fn distance_field_on_a_grid_equals_the_hashed_field() {
        let walls = [Hex::new(0, 1), Hex::new(1, 0), Hex::new(-2, 2), Hex::new(2, -3), Hex::new(-1, -1)];
        for (radius, from, limit) in [(5u32, Hex::new(0, 0), 40u32), (4, Hex::new(3, -1), 3), (6, Hex::new(-6, 6), 40)]
        {
            let mut grid = HexGrid::new(Hex::new(0, 0), radius, true);
            for w in walls {
                grid.set(w, false);
            }
            let passable = |h: Hex| h.within(radius) && !walls.contains(&h);
            let hashed = distance_field(from, passable, limit);
            let flat = distance_field_on(&grid, from, limit);
            for q in -8..=8 {
                for r in -8..=8 {
                    let h = Hex::new(q, r);
                    assert_eq!(flat.get(h), hashed.get(&h).copied(), "{h:?} from {from:?} limit {limit}");
                }
            }
        }
    }

    /// A field written again into the same memory, for other walls, another
    /// start, another area, is the fresh field of those inputs.
    #[test]
    fn a_reused_field_equals_a_fresh_one() {
        let mut reused = DistanceField::default();
        let mut rng = 7u64;
        for round in 0..40u32 {
            let radius = [3u32, 5, 5, 9][round as usize % 4];
            let centre = if round % 5 == 0 { Hex::new(1, -2) } else { Hex::new(0, 0) };
            let mut grid = HexGrid::new(centre, radius, true);
            let mut walls = Vec::new();
            for _ in 0..(radius * 3) {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (q, r) = ((rng >> 40) as i32 % 11 - 5, (rng >> 20) as i32 % 11 - 5);
                walls.push(Hex::new(q, r));
                grid.set(Hex::new(q, r), false);
            }
            let from = Hex::new(round as i32 % 3 - 1, 1 - round as i32 % 4);
            let limit = [40, 2, 7][round as usize % 3];
            distance_field_into(&grid, from, limit, &mut reused);
            let passable = |h: Hex| h.distance(centre) <= radius && !walls.contains(&h);
            let hashed = distance_field(from, passable, limit);
            for q in -12..=12 {
                for r in -12..=12 {
                    let h = Hex::new(q, r);
                    assert_eq!(reused.get(h), hashed.get(&h).copied(), "{h:?} round {round}");
                }
            }
        }
        assert_eq!(DistanceField::default().get(Hex::new(0, 0)), None);
    }

    /// The search over open spaces is the plain search of the same
    /// predicate, for every pair of a board with walls and units, with
    /// limits, and from and to spaces off the board.
    #[test]
    fn path_distance_on_open_spaces_equals_the_plain_search() {
        let mut rng = 3u64;
        let mut next = |n: u64| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((rng >> 33) % n) as i32
        };
        for round in 0..6 {
            let radius = [4u32, 6, 9][round % 3];
            let mut grid = HexGrid::new(Hex::new(0, 0), radius, true);
            let spaces: Vec<Hex> = grid.iter().map(|(h, _)| h).collect();
            let walls: Vec<Hex> = (0..radius * 4).map(|_| spaces[next(spaces.len() as u64) as usize]).collect();
            for w in &walls {
                grid.set(*w, false);
            }
            let closed: Vec<Hex> = (0..round * 2).map(|_| spaces[next(spaces.len() as u64) as usize]).collect();
            let open = OpenSpaces::of(&grid);
            let passable = |h: Hex| h.within(radius) && !walls.contains(&h) && !closed.contains(&h);
            let r = radius as i32 + 1;
            let mut checked = 0;
            for (k, &a) in spaces.iter().chain(&[Hex::new(r, 0), Hex::new(0, -r)]).enumerate() {
                if k % 3 != round % 3 && k < spaces.len() {
                    continue;
                }
                for b in spaces.iter().copied().chain([Hex::new(-r, r), Hex::new(r, 1)]) {
                    let limit = [3u32, 8, 40][(k + round) % 3];
                    let plain = super::super::path_distance(a, b, passable, limit);
                    assert_eq!(path_distance_on(&open, &closed, a, b, limit), plain, "{a:?} -> {b:?} limit {limit}");
                    checked += 1;
                }
            }
            assert!(checked > 100);
        }
    }
}
