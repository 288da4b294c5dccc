//! A [`Scene`] as a compact text board for the terminal, one character a
//! space: the human seat of `arena sim --players human,...` prints it with
//! each Decision.
//!
//! A space `(q, r)` is written in row `r` at column `2q + r` (the centre of
//! [`geometry::centre`]'s lattice), so Adjacent spaces are one row apart and
//! one column aside, or two columns apart in a row, as on the board. What each
//! character means is in [`key`].

use super::*;

/// What the characters of the text board mean, for a board of `seats`
/// players (see [`seats`]).
pub fn key(seats: usize) -> String {
    let players: Vec<String> = (0..seats.max(2))
        .map(|seat| {
            let (first, last) = letter_range(seat, seats);
            format!("{}-{} player {}", char::from(first), char::from(last), seat + 1)
        })
        .collect();
    format!(
        ". free  # Blocked  = Barrier  o zone  * Scoring Zone  ? Special Space  ~ Smoke  ! Running Projectile  {}  1-9 options",
        players.join("  ")
    )
}

/// The players of a scene: one more than the highest seat of its figures
/// (Characters on the Bench or in the Infirmary count), at least 2.
pub fn seats(scene: &Scene) -> usize {
    scene.figures.iter().map(|f| f.player.index() + 1).max().unwrap_or(2).max(2)
}

/// The letters of a seat's figures: at 2 players `A-Z` and `a-z`; at a Prime
/// Time table (3-4 players, `001`) thirteen each: `A-M`, `a-m`, `N-Z`, `n-z`.
fn letter_range(seat: usize, seats: usize) -> (u8, u8) {
    let base = if seat % 2 == 0 { b'A' } else { b'a' };
    if seats <= 2 { (base, base + 25) } else { (base + 13 * (seat as u8 / 2), base + 13 * (seat as u8 / 2) + 12) }
}

/// The board, then one line per figure in the HexaDome (its letter, id,
/// space, Damage, States, Action Points when active). `marks` are a
/// Decision's options on spaces, with their numbers from 1: written `1` to
/// `9`, and `+` past 9.
pub fn board(scene: &Scene, marks: &[(Hex, usize)]) -> String {
    let n = scene.radius as i32;
    let letters = letters(scene);
    let scoring: BTreeSet<Hex> = scene
        .zones
        .iter()
        .filter(|z| scene.scoring_zones.contains(&z.id))
        .flat_map(|z| z.spaces.iter().copied())
        .collect();
    let mut out = String::new();
    for r in -n..=n {
        let mut row = vec![' '; (4 * n + 1) as usize];
        for q in (-n).max(-n - r)..=n.min(n - r) {
            let h = Hex::new(q, r);
            let col = (2 * q + r + 2 * n) as usize;
            let mark = marks.iter().find(|m| m.0 == h).map(|m| m.1);
            row[col] = if let Some(n) = mark {
                if (1..=9).contains(&n) { char::from(b'0' + n as u8) } else { '+' }
            } else if let Some(f) = scene.occupant(h) {
                if f.kind == FigureKind::RunningProjectile { '!' } else { letters.get(&f.id).copied().unwrap_or('@') }
            } else if scene.blocked.contains(&h) {
                '#'
            } else if scene.barriers.contains(&h) {
                '='
            } else if scene.smoke.contains(&h) {
                '~'
            } else if scene.special_spaces.iter().any(|m| m.space == h) {
                '?'
            } else if scoring.contains(&h) {
                '*'
            } else if scene.zone_of(h).is_some() {
                'o'
            } else {
                '.'
            };
        }
        let line: String = row.into_iter().collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for f in &scene.figures {
        if let Some(c) = letters.get(&f.id) {
            let line = super::svg::figure_line(f);
            // The figure's label is the first word of its line; the letter replaces it.
            let rest = line.split_once(' ').map_or(line.as_str(), |(_, rest)| rest);
            out.push_str(&format!("  {c} {rest}\n"));
        }
    }
    out
}

/// A letter for each Character and Minion in the HexaDome, from its seat's
/// range (see [`key`]), in the scene's order.
fn letters(scene: &Scene) -> BTreeMap<Id, char> {
    let seats = seats(scene);
    let mut next: BTreeMap<usize, u8> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for f in &scene.figures {
        if f.space().is_none() || f.kind == FigureKind::RunningProjectile {
            continue;
        }
        let seat = f.player.index();
        let (first, last) = letter_range(seat, seats);
        let k = next.entry(seat).or_insert(0);
        if first + *k <= last {
            out.insert(f.id, char::from(first + *k));
            *k += 1;
        }
    }
    out
}
