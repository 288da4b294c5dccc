//! Dealing an Aristeia! game anew from what one seat knows: the hidden part
//! of a quiet point's state redealt at random, consistent with what the
//! seat has seen by a later position (`crate::table::Table::determinize`).
//!
//! What is hidden from a seat is what its `View` hides (`super::view`):
//! the other players' Tactics hands (`000 § Hand`), the order of every
//! Tactics deck, the Objectives Deck and the other players' hidden
//! Objective cards (`001 § Objective Cards (Additional Rule)`), another
//! player's face-down Running Order placements (`000 § Planning Phase`,
//! `001 § Round`), Running Projectile markers face down (`001 § Running
//! Projectiles`) and Special Space markers not yet flipped (`001 §
//! Special Spaces`).
//!
//! A card that became public between the quiet point and the position
//! (played, claimed, drawn face up) keeps its place: it is "pinned". The
//! other cards of a group (a player's hand and deck, say) are shuffled
//! among the group's unpinned places. Where the bookkeeping cannot tell
//! what moved (a deck reshuffled since), the group is left as it was.
//! Whatever this misses, the table's check catches: a deal whose replay
//! does not show the seat what it saw is dealt again.

use super::event::PlayerId;
use super::state::GameState;
use crate::model::Id;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Shuffle the values of the unpinned places among themselves. They are
/// put in order first, so that the deal depends on which cards are hidden
/// and on `rng` only, not on where they were: two games a seat cannot tell
/// apart are dealt alike (a search player's answers depend on its
/// information set only, `players::mcts`).
pub(crate) fn shuffle_unpinned<T: Ord + Clone>(places: &mut [&mut T], pinned: &[bool], rng: &mut ChaCha8Rng) {
    let free: Vec<usize> = (0..places.len()).filter(|&i| !pinned[i]).collect();
    let mut values: Vec<T> = free.iter().map(|&i| (*places[i]).clone()).collect();
    values.sort();
    for (&i, v) in free.iter().zip(values) {
        *places[i] = v;
    }
    for k in (1..free.len()).rev() {
        let j = rng.random_range(0..=k);
        if j != k {
            let (a, b) = (free[j], free[k]);
            let (lo, hi) = (a.min(b), a.max(b));
            let (left, right) = places.split_at_mut(hi);
            std::mem::swap(&mut *left[lo], &mut *right[0]);
        }
    }
}

/// For each place (in order), whether its card is pinned: not among
/// `still_hidden` (each copy there frees one place holding that card).
pub(crate) fn pins<T: PartialEq>(places: &[&mut T], still_hidden: &[&T]) -> Vec<bool> {
    let mut left: Vec<Option<&T>> = still_hidden.iter().map(|t| Some(*t)).collect();
    places
        .iter()
        .map(|p| match left.iter_mut().find(|l| l.is_some_and(|l| *l == **p)) {
            Some(slot) => {
                *slot = None;
                false
            }
            None => true,
        })
        .collect()
}

/// Deal `quiet` anew for `seat`, consistent with what it knows at `now`.
pub(crate) fn redeal(quiet: &mut GameState, now: &GameState, seat: PlayerId, rng: &mut ChaCha8Rng) {
    tactics(quiet, now, seat, rng);
    objectives(quiet, now, seat, rng);
    running_orders(quiet, now, seat, rng);
    projectiles(quiet, now, rng);
    special_spaces(quiet, now, rng);
}

/// Tactics: another player's hand and deck shuffled together (their sizes
/// kept); the seat's own deck below the cards it drew since.
fn tactics(quiet: &mut GameState, now: &GameState, seat: PlayerId, rng: &mut ChaCha8Rng) {
    for p in quiet.players.table().seats() {
        let (q, n) = (&mut quiet.players[p], &now.players[p]);
        if n.deck.len() > q.deck.len() {
            continue; // reshuffled since: what moved cannot be told
        }
        if p == seat {
            // Its hand is its own; it drew the top cards of its deck (top last).
            let drawn = q.deck.len() - n.deck.len();
            let keep = q.deck.len() - drawn;
            let mut places: Vec<&mut Id> = q.deck[..keep].iter_mut().collect();
            let pinned = vec![false; places.len()];
            shuffle_unpinned(&mut places, &pinned, rng);
            continue;
        }
        let still: Vec<&Id> = n.hand.iter().chain(&n.deck).collect();
        let mut places: Vec<&mut Id> = q.hand.iter_mut().chain(q.deck.iter_mut()).collect();
        let pinned = pins(&places, &still);
        shuffle_unpinned(&mut places, &pinned, rng);
    }
}

/// The Objectives Deck and the other players' hidden Objective cards.
fn objectives(quiet: &mut GameState, now: &GameState, seat: PlayerId, rng: &mut ChaCha8Rng) {
    let (Some(q), Some(n)) = (quiet.objectives.as_mut(), now.objectives.as_ref()) else { return };
    if n.deck.len() > q.deck.len() {
        return; // reshuffled since
    }
    let others = |h: usize| h != seat.index();
    let still: Vec<&Id> =
        n.deck.iter().chain(n.hidden.iter().enumerate().filter(|(h, _)| others(*h)).flat_map(|(_, c)| c)).collect();
    let mut places: Vec<&mut Id> = q.deck.iter_mut().collect();
    for (h, cards) in q.hidden.iter_mut().enumerate() {
        if others(h) {
            places.extend(cards.iter_mut());
        }
    }
    let pinned = pins(&places, &still);
    shuffle_unpinned(&mut places, &pinned, rng);
}

/// Another player's Initiative cards still face down at `now`, shuffled
/// among that player's face-down places.
fn running_orders(quiet: &mut GameState, now: &GameState, seat: PlayerId, rng: &mut ChaCha8Rng) {
    let face_down = usize::from(now.turn);
    if quiet.running_orders.is_empty() {
        // Two players: each player's own order, a Turn revealing one position.
        for p in quiet.players.table().seats().filter(|p| *p != seat) {
            let order = &mut quiet.players[p].running_order;
            if order.len() > face_down && now.players[p].running_order == *order {
                let mut places: Vec<&mut Id> = order[face_down..].iter_mut().collect();
                let pinned = vec![false; places.len()];
                shuffle_unpinned(&mut places, &pinned, rng);
            }
        }
        return;
    }
    // Prime Time: two Running Orders; a Turn reveals one position of both.
    if now.running_orders != quiet.running_orders {
        return; // placed since: the replay places them again as answered
    }
    let owner = |units: &[super::state::Unit], c: &Id| units.iter().find(|u| u.id == *c).map(|u| u.owner);
    for p in quiet.players.table().seats().filter(|p| *p != seat) {
        let units = quiet.units.clone();
        let mut places: Vec<&mut Id> = Vec::new();
        for order in quiet.running_orders.iter_mut() {
            for slot in order.iter_mut().skip(face_down) {
                if let Some(c) = slot.as_mut().filter(|c| owner(&units, c) == Some(p)) {
                    places.push(c);
                }
            }
        }
        let pinned = vec![false; places.len()];
        shuffle_unpinned(&mut places, &pinned, rng);
    }
    // Each player's Characters in the order they activate (as the Planning
    // Phase builds it), when it had been built.
    if quiet.players.iter().any(|p| !p.running_order.is_empty()) {
        let seats: Vec<PlayerId> = quiet.players.table().seats().collect();
        for p in &seats {
            quiet.players[*p].running_order.clear();
        }
        for i in 0..quiet.running_orders.first().map_or(0, Vec::len) {
            for o in 0..quiet.running_orders.len() {
                if let Some(c) = quiet.running_orders[o][i] {
                    if let Some(p) = owner(&quiet.units, &c) {
                        quiet.players[p].running_order.push(c);
                    }
                }
            }
        }
    }
}

/// Running Projectile markers face down, on the board and in their deck,
/// when none was deployed, flipped or returned since.
fn projectiles(quiet: &mut GameState, now: &GameState, rng: &mut ChaCha8Rng) {
    let markers = |s: &GameState| -> Vec<(Id, Id)> {
        s.units.iter().filter_map(|u| u.projectile.as_ref().map(|m| (u.id, *m))).collect()
    };
    if quiet.projectile_deck != now.projectile_deck || markers(quiet) != markers(now) {
        return;
    }
    let mut places: Vec<&mut Id> = quiet.projectile_deck.iter_mut().collect();
    places.extend(quiet.units.iter_mut().filter_map(|u| u.projectile.as_mut()));
    let pinned = vec![false; places.len()];
    shuffle_unpinned(&mut places, &pinned, rng);
}

/// Special Space markers still face down at `now`.
fn special_spaces(quiet: &mut GameState, now: &GameState, rng: &mut ChaCha8Rng) {
    let down = |s: &GameState, space| s.special_spaces.iter().any(|m| m.space == space && !m.revealed);
    let spaces: Vec<_> = quiet.special_spaces.iter().filter(|m| !m.revealed).map(|m| m.space).collect();
    let still: Vec<bool> = spaces.iter().map(|h| down(now, *h)).collect();
    let mut places: Vec<&mut Id> =
        quiet.special_spaces.iter_mut().filter(|m| !m.revealed).map(|m| &mut m.marker).collect();
    let pinned: Vec<bool> = still.iter().map(|s| !s).collect();
    shuffle_unpinned(&mut places, &pinned, rng);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_shuffle_moves_only_the_unpinned_places() {
        let mut v: Vec<u32> = (0..10).collect();
        let pinned: Vec<bool> = (0..10).map(|i| i % 3 == 0).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut places: Vec<&mut u32> = v.iter_mut().collect();
        shuffle_unpinned(&mut places, &pinned, &mut rng);
        for i in [0, 3, 6, 9] {
            assert_eq!(v[i], i as u32, "a pinned place keeps its card");
        }
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "the cards are the same");
        assert_ne!(v, (0..10).collect::<Vec<_>>(), "the unpinned ones moved (seed 7)");
    }

    #[test]
    fn a_card_no_longer_hidden_is_pinned_one_copy_at_a_time() {
        let (mut a, mut b, mut c, mut d) = ("x", "y", "x", "z");
        let places = vec![&mut a, &mut b, &mut c, &mut d];
        // One "x" and the "z" are still hidden; one "x" and the "y" were played.
        let still = ["x", "z"];
        let still: Vec<&&str> = still.iter().collect();
        assert_eq!(pins(&places, &still), vec![false, true, true, false]);
    }
}
