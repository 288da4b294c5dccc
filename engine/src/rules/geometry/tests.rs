//! Geometry tests: the rulebooks' diagrams of Range, Line of Sight and Cover.

use super::*;
use std::collections::HashSet;

fn hexes(v: &[(i32, i32)]) -> HashSet<Hex> {
    v.iter().map(|&(q, r)| Hex::new(q, r)).collect()
}

fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

/// Every space of the hexagonal board of this radius, sorted.
fn board(radius: i32) -> Vec<Hex> {
    (-radius..=radius)
        .flat_map(|q| (-radius..=radius).map(move |r| h(q, r)))
        .filter(|x| x.within(radius as u32))
        .collect()
}

/// A small linear congruential generator (Knuth's MMIX constants): the tests
/// need reproducible pseudo-random boards, not good randomness.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as u32) % n
    }

    fn pick(&mut self, from: &[Hex]) -> Hex {
        from[self.below(from.len() as u32) as usize]
    }
}

/// The 6×6 matrix of unobstructed segments, row = vertex of `from`,
/// column = vertex of `to`.
fn segment_matrix(from: Hex, to: Hex, obs: &HashSet<Hex>) -> [[bool; 6]; 6] {
    let field = Field::collect(from, to, &|x| obs.contains(&x));
    let (vf, vt) = (vertices(from), vertices(to));
    std::array::from_fn(|i| std::array::from_fn(|j| !field.segment_obstructed(vf[i], vt[j], true)))
}

// 000 § Range: own space Range 0, Adjacent spaces Range 1, and so on;
// 000 § Adjacency: a space is not Adjacent to itself.
#[test]
fn distance_neighbours_within() {
    let o = h(0, 0);
    assert_eq!(o.distance(o), 0);
    assert!(!o.is_adjacent(o));
    let ns = o.neighbours();
    assert_eq!(ns, [h(1, 0), h(1, -1), h(0, -1), h(-1, 0), h(-1, 1), h(0, 1)]);
    for n in ns {
        assert_eq!(o.distance(n), 1);
        assert!(o.is_adjacent(n) && n.is_adjacent(o));
    }
    assert_eq!(ns.iter().collect::<HashSet<_>>().len(), 6);
    assert_eq!(h(-2, 0).distance(h(2, 0)), 4);
    assert_eq!(h(0, -4).distance(h(2, 0)), 6);
    assert_eq!(h(3, -1).distance(h(-2, 4)), 5);
    assert_eq!(h(1, 1).distance(h(0, 0)), 2);
    assert!(!h(1, 1).is_adjacent(h(0, 0)));
    // Symmetric, and the triangle inequality holds.
    let b = board(3);
    for &x in &b {
        for &y in &b {
            assert_eq!(x.distance(y), y.distance(x));
            assert!(x.distance(y) <= x.distance(o) + o.distance(y));
        }
    }
    assert!(h(3, -3).within(3) && h(-3, 0).within(3) && h(0, 3).within(3));
    assert!(!h(3, 1).within(3) && !h(-2, -2).within(3) && !h(4, 0).within(3));
    assert_eq!(board(3).len(), 37);
    assert_eq!(board(4).len(), 61);
    assert!(h(0, 0).within(0) && !h(1, 0).within(0));
}

// The scaled plane (module docs, DESIGN § Geometry): centres at (2q + r, 3r),
// vertices shared exactly between neighbours, three spaces per vertex.
#[test]
fn embedding_shares_vertices_exactly() {
    assert_eq!(centre(h(0, 0)), (0, 0));
    assert_eq!(centre(h(1, 0)), (2, 0));
    assert_eq!(centre(h(0, 1)), (1, 3));
    assert_eq!(centre(h(-2, 3)), (-1, 9));
    assert_eq!(vertices(h(0, 0)), [(0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)]);
    let b = board(3);
    for &x in &b {
        let vx = vertices(x);
        let c = centre(x);
        assert_eq!(vx.iter().map(|v| v.0).sum::<i64>(), 6 * c.0);
        assert_eq!(vx.iter().map(|v| v.1).sum::<i64>(), 6 * c.1);
        for n in x.neighbours() {
            let shared = vx.iter().filter(|v| vertices(n).contains(v)).count();
            assert_eq!(shared, 2, "{x:?} and {n:?} share a side");
        }
        for v in vx {
            let around = std::iter::once(x).chain(x.neighbours()).filter(|s| vertices(*s).contains(&v)).count();
            assert_eq!(around, 3, "vertex {v:?} of {x:?}");
        }
        for &y in &b {
            if x.distance(y) >= 2 {
                assert!(vx.iter().all(|v| !vertices(y).contains(v)), "{x:?} and {y:?} only meet if Adjacent");
            }
        }
        // No vertex lies strictly inside another space's side (edge-to-edge tiling).
        for n in x.neighbours() {
            let (e, f) = shared_side(x, n);
            for &y in &b {
                assert!(vertices(y).iter().all(|&v| !strictly_inside(v, e, f)));
            }
        }
    }
}

// Case `adjacent-always-clear` (cases/rules.toml), 000 § Adjacency "You can
// always draw Clear Line of Sight between two Adjacent spaces", 000 § Line of
// Sight "Adjacent Characters always have Clear Line of Sight to one another",
// 000 § Cover "Adjacent Characters never benefit from Cover when they Attack
// one another".
#[test]
fn adjacent_always_clear() {
    let (a, d) = (h(0, 0), h(1, 0));
    // (1, -1) and (0, 1) each touch both spaces; block both, and let the two
    // Characters' own spaces obstruct too.
    let blocked = hexes(&[(1, -1), (0, 1)]);
    let obstructs = |x: Hex| blocked.contains(&x) || x == a || x == d;
    assert_eq!(line_of_sight(a, d, obstructs), Sight::Clear);
    assert_eq!(line_of_sight(d, a, obstructs), Sight::Clear);
    assert!(!cover(d, a, |x| blocked.contains(&x), obstructs));
    assert!(!cover(a, d, |x| blocked.contains(&x), obstructs));
    // Even with every other space around them Blocked.
    let all = |x: Hex| x != a && x != d;
    for n in a.neighbours() {
        assert_eq!(line_of_sight(a, n, all), Sight::Clear);
        assert_eq!(line_of_sight(n, a, all), Sight::Clear);
        assert!(!cover(n, a, all, all) && !cover(a, n, all, all));
    }
    // A space sees itself (ruling G4).
    assert_eq!(line_of_sight(a, a, all), Sight::Clear);
    assert!(!cover(a, a, all, all));
}

// 000 § Line of Sight, Clear: with nothing in the way every vertex of the
// Target is reached from one vertex of the viewer's space.
#[test]
fn open_board_is_clear() {
    let b = board(4);
    for &x in &b {
        for &y in &b {
            assert_eq!(line_of_sight(x, y, |_| false), Sight::Clear, "{x:?} -> {y:?}");
        }
    }
    assert_eq!(line_of_sight(h(-8, 0), h(8, 0), |_| false), Sight::Clear);
    assert_eq!(line_of_sight(h(-6, 6), h(6, -6), |_| false), Sight::Clear);
    assert_eq!(line_of_sight(h(0, -9), h(1, 8), |_| false), Sight::Clear);
    // Obstructions away from the lines change nothing.
    let far = hexes(&[(0, 4), (0, -4), (3, 3), (-3, -3)]);
    assert_eq!(line_of_sight(h(-3, 0), h(3, 0), |x| far.contains(&x)), Sight::Clear);
}

// 000 § Blocked Spaces "They obstruct Line of Sight"; 000 § Line of Sight,
// Blocked: at most one vertex reached. A chain of Adjacent Blocked spaces
// (q = 0) cuts the board in two.
#[test]
fn wall_blocks() {
    let wall: HashSet<Hex> = (-6..=6).map(|r| h(0, r)).collect();
    let obstructs = |x: Hex| wall.contains(&x);
    assert_eq!(line_of_sight(h(-3, 0), h(3, 0), obstructs), Sight::Blocked);
    assert_eq!(line_of_sight(h(-1, 2), h(1, -2), obstructs), Sight::Blocked);
    let b = board(4);
    for &x in b.iter().filter(|x| x.q < 0) {
        for &y in b.iter().filter(|y| y.q > 0) {
            if !x.is_adjacent(y) {
                assert_eq!(line_of_sight(x, y, obstructs), Sight::Blocked, "{x:?} -> {y:?}");
                assert_eq!(line_of_sight(y, x, obstructs), Sight::Blocked, "{y:?} -> {x:?}");
            }
        }
    }
    // Along the wall the spaces still see each other. Right against it the
    // wall's zigzag of vertices juts into the lines to the Target's wall-side
    // vertices (the Target (-1, 1) has its vertices at points (-1, 1) and
    // (0, 2) in common with the wall space (0, 0)): Limited.
    // One space further out, Clear.
    assert_eq!(line_of_sight(h(-1, -1), h(-1, 1), obstructs), Sight::Limited);
    assert_eq!(line_of_sight(h(-1, -3), h(-1, 3), obstructs), Sight::Limited);
    assert_eq!(line_of_sight(h(-2, -3), h(-2, 3), obstructs), Sight::Clear);
}

// 000 § Line of Sight, worked by hand: (-2, 0) -> (2, 0) with (0, 0) Blocked.
// Centres (-4, 0), (4, 0) and (0, 0); the Blocked hexagon spans x in [-1, 1]
// and, at x = 0, y in [-2, 2]. From the viewer's top vertex (-4, 2) the
// segment to the Target's top vertex (4, 2) runs along y = 2 and only grazes
// the blocker's top vertex (0, 2): unobstructed. Every other segment from
// any viewer vertex crosses x = 0 strictly between y = -2 and y = 2 (e.g.
// (-4, 2) -> (3, 1) is at y = 10/7 there), i.e. through the interior. So the
// best vertex reaches one Target vertex: Blocked, not Limited. The same
// holds at every length along a row.
#[test]
fn single_blocked_space_on_a_straight_line() {
    let one = hexes(&[(0, 0)]);
    let obstructs = |x: Hex| one.contains(&x);
    assert_eq!(line_of_sight(h(-2, 0), h(2, 0), obstructs), Sight::Blocked);
    let m = segment_matrix(h(-2, 0), h(2, 0), &one);
    let per_vertex: Vec<usize> = m.iter().map(|row| row.iter().filter(|&&ok| ok).count()).collect();
    assert_eq!(per_vertex, vec![1, 0, 0, 1, 0, 0], "only the two grazing lines y = ±2 get through");
    assert!(m[0][0] && m[3][3]);
    for n in 1..=4 {
        assert_eq!(line_of_sight(h(-n, 0), h(n, 0), obstructs), Sight::Blocked, "length {}", 2 * n);
    }
    // Off the row's axis the same blocker leaves Limited Line of Sight.
    assert_eq!(line_of_sight(h(-2, 0), h(2, -1), obstructs), Sight::Limited);
    // Diagonally (through two spaces' shared side), one blocker of the pair
    // leaves Limited Line of Sight.
    assert_eq!(line_of_sight(h(0, 0), h(1, 1), |x| x == h(1, 0)), Sight::Limited);
}

// 000 § Line of Sight, "Important!": only touching two or more vertices of
// one space obstructs; a line touching a single vertex passes.
#[test]
fn grazing_one_vertex_does_not_obstruct() {
    let one = Field::collect(h(-2, 0), h(2, 0), &|x| x == h(0, 0));
    assert!(!enters_interior((-4, 2), (4, 2), h(0, 0)));
    assert!(on_segment((0, 2), (-4, 2), (4, 2)));
    assert!(!one.segment_obstructed((-4, 2), (4, 2), true));
    // One vertex each of two Adjacent blockers, away from their shared side.
    let two = Field::collect(h(-2, 0), h(2, 0), &|x| x == h(0, 0) || x == h(1, 0));
    assert!(on_segment((2, 2), (-4, 2), (4, 2)));
    assert!(!two.segment_obstructed((-4, 2), (4, 2), true));
    // The same line through the interior of (0, 1) (a chord from (0, 2) to (2, 2)).
    let above = Field::collect(h(-2, 0), h(2, 0), &|x| x == h(0, 1));
    assert!(above.segment_obstructed((-4, 2), (4, 2), true));
    // Two vertices of one space, without entering it: along one of its sides.
    let side = Field::collect(h(0, 0), h(1, 1), &|x| x == h(1, 0));
    assert!(!enters_interior((1, 1), (2, 2), h(1, 0)));
    assert!(side.segment_obstructed((1, 1), (2, 2), false));
}

// 000 § Line of Sight: "The line between two Adjacent Occupied or Blocked
// spaces does obstruct Line of Sight."
#[test]
fn between_two_adjacent_blocked_spaces_obstructs() {
    // (1, 0) and (0, 1) share the side (1, 1)-(2, 2); (0, 0) and (1, 1) sit at
    // its two ends, so the segment between those vertices runs exactly
    // between the two spaces.
    assert_eq!(shared_side(h(1, 0), h(0, 1)), ((2, 2), (1, 1)));
    let pair = hexes(&[(1, 0), (0, 1)]);
    let field = Field::collect(h(0, 0), h(1, 1), &|x| pair.contains(&x));
    assert!(field.segment_obstructed((1, 1), (2, 2), true));
    assert!(meets_away_from_ends((1, 1), (2, 2), (2, 2), (1, 1)));
    // Through the point where they meet, (2, 2), from (-1, 1) to (5, 3).
    let far = Field::collect(h(0, 0), h(2, 1), &|x| pair.contains(&x));
    assert!(on_segment((2, 2), (-1, 1), (5, 3)));
    assert!(far.segment_obstructed((-1, 1), (5, 3), true));
    // Ending on that point is not running between them.
    assert!(!meets_away_from_ends((-1, 1), (2, 2), (2, 2), (1, 1)));
    assert_eq!(line_of_sight(h(0, 0), h(1, 1), |x| pair.contains(&x)), Sight::Blocked);
    assert_eq!(line_of_sight(h(1, 1), h(0, 0), |x| pair.contains(&x)), Sight::Blocked);
    assert_eq!(line_of_sight(h(0, 0), h(1, 1), |_| false), Sight::Clear);
}

// 000 § Line of Sight: "Characters and Obstacles do not obstruct Line of Sight
// to the vertices of their own spaces when they are the Target"; "obstructed
// by spaces Occupied by another Character" (How to Play); 000 § Obstacles
// "Obstacles and the spaces they're on don't block Line of Sight".
#[test]
fn own_spaces_and_obstacles_do_not_obstruct() {
    let (a, t) = (h(-1, 0), h(1, 0));
    // Both Characters' spaces "obstruct", but not their own lines.
    assert_eq!(line_of_sight(a, t, |x| x == a || x == t), Sight::Clear);
    assert_eq!(line_of_sight(h(-3, 1), h(3, -2), |x| x == h(-3, 1) || x == h(3, -2)), Sight::Clear);
    // An Obstacle between them: the caller's `obstructs` is false there, and
    // the Obstacle gives Cover instead.
    let obstacle = h(0, 0);
    let characters = |x: Hex| x == a || x == t;
    assert_eq!(line_of_sight(a, t, characters), Sight::Clear);
    assert_eq!(line_of_sight(t, a, characters), Sight::Clear);
    assert!(cover(t, a, |x| x == obstacle, characters), "a Barrier in the way gives Cover");
    assert!(cover(a, t, |x| x == obstacle, characters), "to both sides: it is Adjacent to both");
    // The same space with a Character on it obstructs.
    assert_eq!(line_of_sight(a, t, |x| x == obstacle), Sight::Blocked);
}

// 000 § Line of Sight counts Target vertices from one viewer vertex, so the
// condition from A to B and from B to A are the best row and the best column
// of the same 6×6 matrix of unobstructed segments, and may differ (ruling G5).
#[test]
fn sight_is_not_symmetric() {
    // One Character (or Blocked space) beside the far space: from (-2, -2) one
    // of its vertices peeks past (-1, -2) and reaches two vertices of (4, -1);
    // from (4, -1) no vertex reaches more than one vertex of (-2, -2).
    let one = hexes(&[(-1, -2)]);
    let (x, y) = (h(4, -1), h(-2, -2));
    assert_eq!(line_of_sight(x, y, |z| one.contains(&z)), Sight::Blocked);
    assert_eq!(line_of_sight(y, x, |z| one.contains(&z)), Sight::Limited);
    // Clear one way, Limited the other.
    assert_eq!(line_of_sight(h(0, 0), h(-4, 0), |z| z == h(-4, 1)), Sight::Limited);
    assert_eq!(line_of_sight(h(-4, 0), h(0, 0), |z| z == h(-4, 1)), Sight::Clear);

    // On random boards: each segment is obstructed or not whichever way it is
    // drawn (the matrix transposes), yet the conditions often differ.
    let b = board(4);
    let mut rng = Lcg(7);
    let (mut differ, mut lost, mut total) = (0, 0, 0);
    for _ in 0..100 {
        let obs: HashSet<Hex> = b.iter().copied().filter(|_| rng.below(100) < 20).collect();
        for _ in 0..10 {
            let (p, q) = (rng.pick(&b), rng.pick(&b));
            if p.distance(q) < 2 {
                continue;
            }
            let (fwd, back) = (segment_matrix(p, q, &obs), segment_matrix(q, p, &obs));
            for i in 0..6 {
                for j in 0..6 {
                    assert_eq!(fwd[i][j], back[j][i], "{p:?} -> {q:?}, segment {i}-{j}");
                }
            }
            let row = (0..6).map(|i| fwd[i].iter().filter(|&&ok| ok).count()).max().unwrap_or(0);
            let col = (0..6).map(|j| (0..6).filter(|&i| fwd[i][j]).count()).max().unwrap_or(0);
            let (s, t) = (line_of_sight(p, q, |z| obs.contains(&z)), line_of_sight(q, p, |z| obs.contains(&z)));
            assert_eq!((s, t), (Sight::from_reached(row), Sight::from_reached(col)));
            total += 1;
            differ += usize::from(s != t);
            lost += usize::from(s.has_line_of_sight() != t.has_line_of_sight());
        }
    }
    // Finding, recorded in ruling G5: asymmetry is common, and sometimes only
    // one of the two has Line of Sight at all.
    assert!(total > 500 && differ > total / 20 && lost > 0, "{differ} differ, {lost} one-way, of {total}");
}

// 000 § Cover: "Adjacent to a Blocked or Occupied space that is partially
// obstructing the Enemy's Line of Sight"; 000 § Obstacles "may grant Cover to
// adjacent Characters"; ruling G7.
#[test]
fn cover_cases() {
    let (a, d) = (h(-3, 0), h(2, 0));
    let only = |c: Hex| move |x: Hex| x == c;
    let never = |_: Hex| false;
    // Diagonally in front of the Defender: a Blocked space cuts some lines.
    for c in [h(1, 1), h(2, -1)] {
        assert_eq!(line_of_sight(a, d, only(c)), Sight::Limited);
        assert!(cover(d, a, only(c), only(c)), "Blocked {c:?}");
        // An Obstacle there: Clear Line of Sight through it, and still Cover.
        assert_eq!(line_of_sight(a, d, never), Sight::Clear);
        assert!(cover(d, a, only(c), never), "Obstacle {c:?}");
    }
    // A Barrier squarely in front: the Attacker shoots through it, the
    // Defender is in Cover.
    assert!(cover(d, a, only(h(1, 0)), never));
    // Behind or beside-behind the Defender: no line touches it, no Cover.
    for c in [h(3, 0), h(3, -1), h(2, 1)] {
        assert_eq!(line_of_sight(a, d, only(c)), Sight::Clear);
        assert!(!cover(d, a, only(c), only(c)), "Blocked {c:?}");
        assert!(!cover(d, a, only(c), never), "Obstacle {c:?}");
    }
    // Cover-giving space that is not Adjacent to the Defender: no Cover.
    assert!(!cover(d, a, only(h(0, 0)), never));
    // Nothing around: no Cover.
    assert!(!cover(d, a, never, never));
    // The Attacker's own Cover is judged on the Defender's Line of Sight to it
    // (000 § Cover "Both the Attacker and the Defender"): an ally beside the
    // Attacker, toward the Defender, like 8-Ball beside Wild Bill in the How
    // to Play example. The ally is a Character: it obstructs and gives Cover.
    let ally = h(-2, -1);
    assert!(ally.is_adjacent(a));
    assert!(cover(a, d, only(ally), only(ally)));
    assert!(!cover(d, a, only(ally), only(ally)));
    assert_eq!(line_of_sight(a, d, only(ally)), Sight::Clear);
    // The Enemy draws its Line of Sight from the vertex it likes best: with a
    // Barrier at (0, 1), four of the six vertices of (-3, 2) have a line
    // through it, but from the other two nothing touches it, so no Cover.
    let (a2, d2, c2) = (h(-3, 2), h(0, 0), h(0, 1));
    let lines = covered_lines(d2, a2, &only(c2), &never);
    assert_eq!(lines.len(), 6);
    assert_eq!(lines.iter().filter(|l| l.1).count(), 4);
    assert!(!cover(d2, a2, only(c2), never));
    // A Blocked space there gives the same answer: Clear from the untouched
    // vertices, so those are the ones the Enemy uses.
    assert_eq!(line_of_sight(a2, d2, only(c2)), Sight::Clear);
    assert!(!cover(d2, a2, only(c2), only(c2)));
}

// Ruling G7: with a single cover-giving space on the board, a Barrier and a
// Blocked space in the same place give the same Cover, for every Enemy
// position.
#[test]
fn barrier_and_blocked_space_give_the_same_cover() {
    let d = h(0, 0);
    let mut some = 0;
    for c in d.neighbours() {
        for &a in board(5).iter().filter(|a| a.distance(d) >= 2) {
            let blocked = cover(d, a, |x| x == c, |x| x == c);
            let barrier = cover(d, a, |x| x == c, |_| false);
            assert_eq!(blocked, barrier, "cover at {c:?} against {a:?}");
            some += usize::from(blocked);
        }
    }
    assert!(some > 0);
}

// 000 § Range: count the shortest route; "Line-of-Sight Range measurements
// must avoid both Occupied and Blocked spaces"; the Target's own Occupied
// space ends the route.
#[test]
fn path_distance_around_a_wall() {
    let wall: HashSet<Hex> = (-3..=3).map(|r| h(0, r)).collect();
    let passable = |x: Hex| x.within(5) && !wall.contains(&x);
    let (from, to) = (h(-2, 0), h(2, 0));
    // Around either end of the wall: (-2, 0) .. (0, 4) is 6 steps, (0, 4) ..
    // (2, 0) is 4 more.
    assert_eq!(path_distance(from, to, passable, 20), Some(10));
    assert_eq!(path_distance(from, to, passable, 10), Some(10));
    assert_eq!(path_distance(from, to, passable, 9), None);
    // The destination may be Occupied (the Target stands there).
    assert_eq!(path_distance(from, to, |x| passable(x) && x != to, 20), Some(10));
    // On an open board it is the hex distance.
    assert_eq!(path_distance(from, to, |x| x.within(5), 20), Some(4));
    assert_eq!(path_distance(from, from, |_| false, 0), Some(0));
    assert_eq!(path_distance(from, h(-1, 0), |_| false, 1), Some(1));
    // Walled in: unreachable.
    assert_eq!(path_distance(from, to, |x| x.distance(from) > 1, 50), None);
    // A wall across the whole board.
    let full: HashSet<Hex> = (-6..=6).map(|r| h(0, r)).collect();
    assert_eq!(path_distance(from, to, |x| x.within(5) && !full.contains(&x), 100), None);
}

// Property-style checks over pseudo-random boards: 000 § Adjacency (always
// Clear), monotonicity (fewer obstructions never worsen Line of Sight), the
// own-space exemptions (ruling G2), the pair rule implied by the other two
// (ruling G1), and 000 § Cover's Adjacency note.
#[test]
fn invariants_on_random_boards() {
    let b = board(4);
    let mut rng = Lcg(0x5eed);
    for round in 0..300 {
        let density = 5 + rng.below(35);
        let obs: HashSet<Hex> = b.iter().copied().filter(|_| rng.below(100) < density).collect();
        let sub: HashSet<Hex> = obs.iter().copied().filter(|_| rng.below(2) == 0).collect();
        let covers: HashSet<Hex> = b.iter().copied().filter(|_| rng.below(100) < 15).collect();
        for _ in 0..6 {
            let (p, q) = (rng.pick(&b), rng.pick(&b));
            let in_obs = |x: Hex| obs.contains(&x);
            let s = line_of_sight(p, q, in_obs);
            if p == q || p.is_adjacent(q) {
                assert_eq!(s, Sight::Clear, "round {round}: {p:?} -> {q:?}");
            }
            let s_sub = line_of_sight(p, q, |x| sub.contains(&x));
            assert!(s_sub >= s, "round {round}: removing obstructions worsened {p:?} -> {q:?}");
            if s == Sight::Clear {
                assert!(s_sub.has_line_of_sight());
            }
            assert_eq!(line_of_sight(p, q, |x| in_obs(x) || x == p || x == q), s);
            assert_eq!(line_of_sight(p, q, |x| in_obs(x) && x != p && x != q), s);
            assert_eq!(sight_with(p, q, &in_obs, false), s, "round {round}: pair rule mattered {p:?} -> {q:?}");

            let gives = |x: Hex| covers.contains(&x) || obs.contains(&x);
            let c = cover(q, p, gives, in_obs);
            if p.distance(q) <= 1 {
                assert!(!c);
            }
            if !q.neighbours().iter().any(|&n| n != p && gives(n)) {
                assert!(!c);
            }
            let n = rng.pick(&p.neighbours());
            assert!(!cover(n, p, |_| true, in_obs) && !cover(p, n, |_| true, in_obs));
            assert_eq!(line_of_sight(n, p, |_| true), Sight::Clear);

            let passable = |x: Hex| x.within(4) && !obs.contains(&x);
            if let Some(len) = path_distance(p, q, passable, 40) {
                assert!(len >= p.distance(q));
                assert_eq!(path_distance(p, q, passable, len), Some(len));
                if len > 0 {
                    assert_eq!(path_distance(p, q, passable, len - 1), None);
                }
            }
            assert_eq!(path_distance(p, q, |x| x.within(4), 40), Some(p.distance(q)));
        }
    }
}

// 000 § Line of Sight: Blocked < Limited < Clear; Line-of-Sight Range needs
// Clear or Limited.
#[test]
fn sight_order_and_serde() {
    assert!(Sight::Blocked < Sight::Limited && Sight::Limited < Sight::Clear);
    assert!(Sight::Clear.has_line_of_sight() && Sight::Limited.has_line_of_sight());
    assert!(!Sight::Blocked.has_line_of_sight());
    assert_eq!(Sight::from_reached(6), Sight::Clear);
    assert_eq!(Sight::from_reached(2), Sight::Limited);
    assert_eq!(Sight::from_reached(5), Sight::Limited);
    assert_eq!(Sight::from_reached(1), Sight::Blocked);
    assert_eq!(serde_json::to_string(&Sight::Limited).unwrap(), "\"limited\"");
    assert_eq!(serde_json::to_string(&h(1, -2)).unwrap(), r#"{"q":1,"r":-2}"#);
    assert_eq!(serde_json::from_str::<Hex>(r#"{"q":-3,"r":4}"#).unwrap(), h(-3, 4));
}

/// Coordinates at the ends of `i32`: the distance is exact (or saturates),
/// never wrapped to a small number, so such a space is off every board.
#[test]
fn distance_between_far_spaces_does_not_wrap() {
    let corner = h(i32::MIN, i32::MIN);
    // dq = dr = 2^31: the distance is 2^32, one more than u32::MAX.
    assert_eq!(corner.distance(h(0, 0)), u32::MAX);
    assert!(!corner.within(255), "a space at (-2^31, -2^31) is on a radius-255 board");
    assert_eq!(h(i32::MAX, 0).distance(h(0, 0)), i32::MAX as u32);
    assert_eq!(h(i32::MAX, 0).distance(h(i32::MIN, 0)), u32::MAX);
    assert_eq!(h(-2_000_000_000, 0).distance(h(2_000_000_000, 0)), 4_000_000_000);
    assert!(!h(0, 3000).within(255));
    assert_eq!(h(3, -1).distance(h(-2, 4)), 5);
}

/// Neighbours of a space at the edge of `i32` do not overflow, and spaces
/// from wider integers that do not fit are refused, never truncated.
#[test]
fn coordinates_at_the_edge_of_i32_do_not_overflow() {
    let edge = h(i32::MAX, i32::MIN);
    assert!(edge.neighbours().iter().all(|n| !n.within(255)));
    assert_eq!(Hex::checked(4_294_967_297, 0), None, "2^32 + 1 would truncate to 1");
    assert_eq!(Hex::checked(-3, 2), Some(h(-3, 2)));
    assert_eq!(Hex::checked(0, i64::from(i32::MIN) - 1), None);
}

/// Line of Sight and Cover between spaces no board holds together are
/// answered at once, without a field the size of the plane between them.
#[test]
fn sight_between_spaces_no_board_holds_is_blocked_at_once() {
    let far = h(i32::MIN, i32::MIN);
    assert_eq!(line_of_sight(far, h(0, 0), |_| false), Sight::Blocked);
    assert_eq!(line_of_sight(h(0, 0), h(0, 3000), |_| false), Sight::Blocked);
    assert!(!cover(h(0, 0), far, |_| true, |_| false));
    // The farthest spaces of the largest board still get the rule.
    assert_eq!(line_of_sight(h(-255, 0), h(255, 0), |_| false), Sight::Clear);
}
