//! Per-space data as flat arrays: one slot for each space of a hexagonal area,
//! found by arithmetic on its coordinates, with no hashing and no allocation
//! per lookup. What the hot loops of a game use for "one value per space"
//! (distance fields, passability; the searches over them are in `search.rs`).
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
    pub(super) centre: Hex,
    pub(super) radius: i64,
    /// Slots per row: the box's `2·radius + 1` columns and a border slot on
    /// each side.
    pub(super) width: i64,
    pub(super) cells: Vec<T>,
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
    pub(super) fn slot(&self, dq: i64, dr: i64) -> usize {
        ((dr + self.radius + 1) * self.width + (dq + self.radius + 1)) as usize
    }

    /// The slot of space `h`, if it is in the area.
    #[inline]
    pub(super) fn index(&self, h: Hex) -> Option<usize> {
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
    pub(super) fn steps(&self) -> [isize; 6] {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_has_a_slot_for_each_space_of_its_hexagon_only() {
        let g = HexGrid::new(Hex::new(2, -1), 3, 0u8);
        assert_eq!(g.iter().count(), 3 * 3 * 4 + 1);
        assert!(g.iter().all(|(h, _)| h.distance(Hex::new(2, -1)) <= 3));
        assert!(g.contains(Hex::new(5, -1)) && !g.contains(Hex::new(5, 0)) && !g.contains(Hex::new(-3, 0)));
        assert_eq!(g.get(Hex::new(i32::MIN, i32::MAX)), None);
    }
}
