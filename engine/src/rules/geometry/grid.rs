//! Per-space data as flat arrays: one slot for each space of a hexagonal area,
//! found by arithmetic on its coordinates, with no hashing and no allocation
//! per lookup. What the hot loops of a game use for "one value per space"
//! (distance fields, passability).
//!
//! The slots are laid out row by row (`r`, then `q`) over the area's bounding
//! box of axial offsets plus a border one slot wide, so that the six
//! Adjacent spaces of a slot are at fixed index steps (`±1`, `±width`,
//! `±(width − 1)`) and a breadth-first search needs no bounds checks, no
//! division and no test of the hexagon: the slots outside the area (the
//! box's corners and the border) are walls.

use super::Hex;

/// One value of type `T` for every space within `radius` steps of `centre`
/// (a hexagon of `3·radius·(radius + 1) + 1` spaces). Spaces outside the area
/// have no slot: [`get`](HexGrid::get) answers `None` for them.
#[derive(Debug, PartialEq, Eq)]
pub struct HexGrid<T> {
    centre: Hex,
    radius: i64,
    /// Slots per row: the box's `2·radius + 1` columns and a border slot on
    /// each side.
    width: i64,
    cells: Vec<T>,
}

impl<T: Clone> Clone for HexGrid<T> {
    fn clone(&self) -> Self {
        HexGrid { centre: self.centre, radius: self.radius, width: self.width, cells: self.cells.clone() }
    }

    /// Reuses `self`'s allocation when the areas have the same size.
    fn clone_from(&mut self, source: &Self) {
        (self.centre, self.radius, self.width) = (source.centre, source.radius, source.width);
        self.cells.clone_from(&source.cells);
    }
}

impl<T: Clone> HexGrid<T> {
    /// The area of `radius` spaces around `centre`, every slot `fill`.
    pub fn new(centre: Hex, radius: u32, fill: T) -> HexGrid<T> {
        let mut g = HexGrid { centre, radius: 0, width: 0, cells: Vec::new() };
        g.reset(centre, radius, fill);
        g
    }

    /// Make this the area of `radius` spaces around `centre`, every slot
    /// `fill`, reusing the allocation.
    pub fn reset(&mut self, centre: Hex, radius: u32, fill: T) {
        let radius = i64::from(radius);
        let width = 2 * radius + 3;
        (self.centre, self.radius, self.width) = (centre, radius, width);
        self.cells.clear();
        self.cells.resize((width * width) as usize, fill);
    }

    /// Every slot set to `value`.
    pub fn fill(&mut self, value: T) {
        self.cells.fill(value);
    }
}

impl<T> HexGrid<T> {
    /// The slot of the space at axial offset `(dq, dr)` from the centre (in
    /// the area or on its box's border).
    #[inline]
    fn slot(&self, dq: i64, dr: i64) -> usize {
        ((dr + self.radius + 1) * self.width + (dq + self.radius + 1)) as usize
    }

    /// The slot of space `h`, if it is in the area.
    #[inline]
    fn index(&self, h: Hex) -> Option<usize> {
        let dq = i64::from(h.q) - i64::from(self.centre.q);
        let dr = i64::from(h.r) - i64::from(self.centre.r);
        let r = self.radius;
        if dq.abs() > r || dr.abs() > r || (dq + dr).abs() > r {
            return None;
        }
        Some(self.slot(dq, dr))
    }

    /// The index steps to the six Adjacent slots, in [`super::DIRECTIONS`] order.
    #[inline]
    fn steps(&self) -> [isize; 6] {
        super::DIRECTIONS.map(|(dq, dr)| (i64::from(dq) + i64::from(dr) * self.width) as isize)
    }

    /// Whether `h` is in the area.
    pub fn contains(&self, h: Hex) -> bool {
        self.index(h).is_some()
    }

    /// The value of space `h`; `None` outside the area.
    #[inline]
    pub fn get(&self, h: Hex) -> Option<&T> {
        self.index(h).map(|i| &self.cells[i])
    }

    /// The value of space `h`, mutably; `None` outside the area.
    #[inline]
    pub fn get_mut(&mut self, h: Hex) -> Option<&mut T> {
        self.index(h).map(|i| &mut self.cells[i])
    }

    /// Set the value of space `h`; a space outside the area is ignored.
    #[inline]
    pub fn set(&mut self, h: Hex, value: T) {
        if let Some(slot) = self.get_mut(h) {
            *slot = value;
        }
    }

    /// The centre of the area.
    pub fn centre(&self) -> Hex {
        self.centre
    }

    /// The radius of the area, in spaces.
    pub fn radius(&self) -> u32 {
        self.radius as u32
    }

    /// Every space of the area with its value, by `q` then `r`.
    pub fn iter(&self) -> impl Iterator<Item = (Hex, &T)> {
        let (r, c) = (self.radius, self.centre);
        (-r..=r).flat_map(move |dq| {
            (-r..=r).filter(move |dr| (dq + dr).abs() <= r).map(move |dr| {
                let h = Hex::new((i64::from(c.q) + dq) as i32, (i64::from(c.r) + dr) as i32);
                (h, &self.cells[self.slot(dq, dr)])
            })
        })
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

#[cfg(test)]
mod tests {
    use super::super::distance_field;
    use super::*;

    #[test]
    fn a_grid_has_a_slot_for_each_space_of_its_hexagon_only() {
        let g = HexGrid::new(Hex::new(2, -1), 3, 0u8);
        assert_eq!(g.iter().count(), 3 * 3 * 4 + 1);
        assert!(g.iter().all(|(h, _)| h.distance(Hex::new(2, -1)) <= 3));
        assert!(g.contains(Hex::new(5, -1)) && !g.contains(Hex::new(5, 0)) && !g.contains(Hex::new(-3, 0)));
        assert_eq!(g.get(Hex::new(i32::MIN, i32::MAX)), None);
    }

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
}
