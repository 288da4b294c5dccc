//! Per-space data as flat arrays: one slot for each space of a hexagonal area,
//! found by arithmetic on its coordinates, with no hashing and no allocation
//! per lookup. What the hot loops of a game use for "one value per space"
//! (distance fields, passability).

use super::Hex;

/// One value of type `T` for every space within `radius` steps of `centre`
/// (a hexagon of `3·radius·(radius + 1) + 1` spaces). Spaces outside the area
/// have no slot: [`get`](HexGrid::get) answers `None` for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexGrid<T> {
    centre: Hex,
    radius: i64,
    /// The side of the square of axial offsets the slots are laid out in.
    side: i64,
    cells: Vec<T>,
}

impl<T: Clone> HexGrid<T> {
    /// The area of `radius` spaces around `centre`, every slot `fill`.
    pub fn new(centre: Hex, radius: u32, fill: T) -> HexGrid<T> {
        let radius = i64::from(radius);
        let side = 2 * radius + 1;
        HexGrid { centre, radius, side, cells: vec![fill; (side * side) as usize] }
    }

    /// Every slot set to `value`.
    pub fn fill(&mut self, value: T) {
        self.cells.fill(value);
    }
}

impl<T> HexGrid<T> {
    /// The slot of space `h`, if it is in the area.
    #[inline]
    fn index(&self, h: Hex) -> Option<usize> {
        let dq = i64::from(h.q) - i64::from(self.centre.q);
        let dr = i64::from(h.r) - i64::from(self.centre.r);
        let r = self.radius;
        if dq.abs() > r || dr.abs() > r || (dq + dr).abs() > r {
            return None;
        }
        Some(((dq + r) * self.side + (dr + r)) as usize)
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
        let (r, side, c) = (self.radius, self.side, self.centre);
        self.cells.iter().enumerate().filter_map(move |(i, v)| {
            let (dq, dr) = (i as i64 / side - r, i as i64 % side - r);
            ((dq + dr).abs() <= r).then(|| (Hex::new((i64::from(c.q) + dq) as i32, (i64::from(c.r) + dr) as i32), v))
        })
    }
}

/// Steps from `from` to every space reachable within `limit` steps through
/// spaces whose slot in `passable` is `true` (a breadth-first distance field,
/// as [`super::distance_field`], over a passability grid computed once). Spaces
/// outside the grid's area are impassable. `from` itself is 0 even if not
/// passable. The result has the grid's area; unreached spaces are `None` in
/// [`DistanceField::get`].
pub fn distance_field_on(passable: &HexGrid<bool>, from: Hex, limit: u32) -> DistanceField {
    let (r, side) = (passable.radius, passable.side);
    let mut dist = HexGrid { centre: passable.centre, radius: r, side, cells: vec![u32::MAX; passable.cells.len()] };
    // A start outside the area has no slot: nothing is reached from it.
    let Some(start) = passable.index(from) else { return DistanceField { dist } };
    dist.cells[start] = 0;
    // Every slot enters the queue at most once: a plain vector and a cursor.
    let mut queue = Vec::with_capacity(passable.cells.len());
    queue.push(start);
    let mut head = 0;
    while let Some(&i) = queue.get(head) {
        head += 1;
        let d = dist.cells[i];
        if d >= limit {
            continue;
        }
        let (dq, dr) = (i as i64 / side - r, i as i64 % side - r);
        for (a, b) in super::DIRECTIONS {
            let (nq, nr) = (dq + i64::from(a), dr + i64::from(b));
            if nq.abs() > r || nr.abs() > r || (nq + nr).abs() > r {
                continue;
            }
            let j = ((nq + r) * side + (nr + r)) as usize;
            if passable.cells[j] && dist.cells[j] == u32::MAX {
                dist.cells[j] = d + 1;
                queue.push(j);
            }
        }
    }
    DistanceField { dist }
}

/// Steps from one space to each space of an area ([`distance_field_on`]).
#[derive(Debug, Clone)]
pub struct DistanceField {
    dist: HexGrid<u32>,
}

impl DistanceField {
    /// The steps to `h`, if it was reached.
    #[inline]
    pub fn get(&self, h: Hex) -> Option<u32> {
        self.dist.get(h).copied().filter(|&d| d != u32::MAX)
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
}
