//! A [`Scene`] as a compact text board for the terminal, one character a
//! space: the human seat of `arena sim --players human,...` prints it with
//! each Decision.
//!
//! A space `(q, r)` is written in row `r` at column `2q + r` (the centre of
//! [`geometry::centre`]'s lattice), so Adjacent spaces are one row apart and
//! one column aside, or two columns apart in a row, as on the board. What each
//! character means is in [`KEY`].

use super::*;

/// What the characters of the text board mean.
pub const KEY: &str = ". free  # Blocked  = Barrier  o zone  * Scoring Zone  ? Special Space  ~ Smoke  ! Running Projectile  \
A-Z player 1  a-z player 2  1-9 options";

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

/// A letter for each Character and Minion in the HexaDome: player 1's from
/// `A`, player 2's from `a`, in the scene's order.
fn letters(scene: &Scene) -> BTreeMap<Id, char> {
    let mut next: BTreeMap<usize, u8> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for f in &scene.figures {
        if f.space().is_none() || f.kind == FigureKind::RunningProjectile {
            continue;
        }
        let seat = f.player.index();
        let base = if seat == 0 { b'A' } else { b'a' };
        let k = next.entry(seat).or_insert(0);
        if *k < 26 {
            out.insert(f.id.clone(), char::from(base + *k));
            *k += 1;
        }
    }
    out
}
