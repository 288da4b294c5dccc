//! The table against the plain computation ([`super::super::line_of_sight`],
//! [`super::super::cover`]), which stays the reference.

use super::*;
use std::collections::BTreeSet;

/// A small linear congruential generator (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Every ordered pair of `spaces`: the table's Line of Sight and Cover are
/// the plain computation's with the same obstructing spaces (terrain and
/// `extra`) and cover-giving ones (terrain, `barriers` and `extra`).
fn assert_same(table: &SightTable, spaces: &[Hex], blocked: &BTreeSet<Hex>, barriers: &BTreeSet<Hex>, extra: &[Hex]) {
    let obstructs = |h: Hex| blocked.contains(&h) || extra.contains(&h);
    let provides = |h: Hex| blocked.contains(&h) || barriers.contains(&h) || extra.contains(&h);
    for &a in spaces {
        for &b in spaces {
            let plain = super::super::line_of_sight(a, b, obstructs);
            assert_eq!(table.line_of_sight(a, b, extra), plain, "sight {a:?} -> {b:?} with {extra:?}");
            let plain = super::super::cover(a, b, provides, obstructs);
            assert_eq!(table.cover(a, b, provides, extra), plain, "cover of {a:?} against {b:?} with {extra:?}");
        }
    }
}

#[test]
fn the_symmetries_are_the_twelve_of_the_lattice() {
    let all = Sym::all();
    let o = Hex::new(0, 0);
    let mut ns: Vec<Hex> = o.neighbours().to_vec();
    ns.sort();
    for (k, s) in all.iter().enumerate() {
        assert!(all[..k].iter().all(|t| t != s), "{s:?} twice");
        let mut image: Vec<Hex> = o.neighbours().map(|n| s.apply(n)).to_vec();
        image.sort();
        assert_eq!(image, ns, "{s:?} maps Adjacent spaces to Adjacent spaces");
        assert_eq!(s.then(s.inverse()), Sym::IDENTITY);
        assert_eq!(s.inverse().apply(s.apply(Hex::new(3, -7))), Hex::new(3, -7));
    }
}

/// Random boards of radius 5, with random Characters: every pair.
#[test]
fn the_table_answers_as_the_plain_computation_on_random_boards() {
    let mut rng = Lcg(11);
    let spaces: Vec<Hex> = HexGrid::new(Hex::new(0, 0), 5, ()).iter().map(|(h, _)| h).collect();
    for round in 0..6 {
        let blocked: BTreeSet<Hex> =
            (0..[0, 4, 10, 18, 25, 8][round]).map(|_| spaces[rng.below(spaces.len())]).collect();
        let barriers: BTreeSet<Hex> = (0..3).map(|_| spaces[rng.below(spaces.len())]).collect();
        let table = SightTable::new(5, blocked.iter().copied());
        let extra: Vec<Hex> = (0..round * 2).map(|_| spaces[rng.below(spaces.len())]).collect();
        assert_same(&table, &spaces, &blocked, &barriers, &[]);
        assert_same(&table, &spaces, &blocked, &barriers, &extra);
    }
}

/// Spaces off the board (and Blocked spaces off it) are answered as the
/// plain computation does.
#[test]
fn spaces_off_the_board_fall_back_to_the_plain_computation() {
    let blocked: BTreeSet<Hex> = [Hex::new(4, 0), Hex::new(5, -1), Hex::new(9, -9), Hex::new(0, -4)].into();
    let table = SightTable::new(3, blocked.iter().copied());
    let spaces: Vec<Hex> = HexGrid::new(Hex::new(0, 0), 6, ()).iter().map(|(h, _)| h).collect();
    let extra = [Hex::new(1, 1), Hex::new(5, 0), Hex::new(-4, 2)];
    assert_same(&table, &spaces, &blocked, &BTreeSet::new(), &extra);
    assert_eq!(table.line_of_sight(Hex::new(0, 0), Hex::new(i32::MAX, 0), &[]), Sight::Blocked);
}

/// Every ordered pair of spaces on every map of the bundled packs
/// (`content/`), with no Characters and with Characters placed.
#[test]
fn the_table_answers_as_the_plain_computation_on_every_bundled_map() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let loaded = crate::load::load(&[root], &crate::load::Options::default());
    let mut maps = 0;
    for entry in loaded.content.maps.values() {
        let map = &entry.value;
        let h = |v: &[i16; 2]| Hex::new(i32::from(v[0]), i32::from(v[1]));
        let blocked: BTreeSet<Hex> = map.blocked.iter().map(h).collect();
        let barriers: BTreeSet<Hex> = map.barriers.iter().map(h).collect();
        let table = SightTable::new(u32::from(map.radius), blocked.iter().copied());
        let spaces: Vec<Hex> = HexGrid::new(Hex::new(0, 0), u32::from(map.radius), ()).iter().map(|(h, _)| h).collect();
        let free: Vec<Hex> = spaces.iter().copied().filter(|s| !blocked.contains(s) && !barriers.contains(s)).collect();
        let mut rng = Lcg(u64::from(map.radius) + blocked.len() as u64);
        assert_same(&table, &spaces, &blocked, &barriers, &[]);
        let characters: Vec<Hex> = (0..8).map(|_| free[rng.below(free.len())]).collect();
        assert_same(&table, &spaces, &blocked, &barriers, &characters);
        maps += 1;
    }
    assert!(maps >= 2, "the bundled packs hold maps");
}
