//! Dealing an Invictus game anew from what one seat knows (the same
//! approach as Aristeia's `crate::rules::determinize`): the other players'
//! hands and Boosts and every draw pile's, the Boost deck's and the
//! Reinforcement deck's order below the cards drawn since the quiet point
//! dealt anew; a card that became public since keeps its place (the shuffling
//! and pinning are Aristeia's: `crate::rules::determinize`).

use super::state::{BoostCard, Card, GameState};
use crate::model::Id;
use crate::rules::determinize::{pins, shuffle_unpinned};
use crate::rules::seats::PlayerId;
use rand_chacha::ChaCha8Rng;

/// The places of a deck (top last) below the cards drawn from it since:
/// `was` cards then, `is` now. `None` when it grew (reshuffled since).
fn undrawn(was: usize, is: usize) -> Option<usize> {
    (is <= was).then_some(is)
}

/// Deal `quiet` anew for `seat`, consistent with what it knows at `now`.
pub(crate) fn redeal(quiet: &mut GameState, now: &GameState, seat: PlayerId, rng: &mut ChaCha8Rng) {
    for i in 0..quiet.players.len().min(now.players.len()) {
        let (q, n) = (&mut quiet.players[i], &now.players[i]);
        let Some(keep) = undrawn(q.draw.len(), n.draw.len()) else { continue };
        if q.seat == seat {
            let mut places: Vec<&mut Card> = q.draw[..keep].iter_mut().collect();
            let pinned = vec![false; places.len()];
            shuffle_unpinned(&mut places, &pinned, rng);
            continue;
        }
        let still: Vec<&Card> = n.hand.iter().chain(&n.draw).collect();
        let mut places: Vec<&mut Card> = q.hand.iter_mut().chain(q.draw.iter_mut()).collect();
        let pinned = pins(&places, &still);
        shuffle_unpinned(&mut places, &pinned, rng);
    }
    // Boosts: the deck and the other players' Boosts in hand.
    if undrawn(quiet.boost_deck.len(), now.boost_deck.len()).is_some() {
        let others = |p: &super::state::Player| p.seat != seat;
        let still: Vec<&BoostCard> = now
            .boost_deck
            .iter()
            .chain(now.players.iter().filter(|p| others(p)).flat_map(|p| p.boosts.iter().map(|b| &b.card)))
            .collect();
        let mut places: Vec<&mut BoostCard> = quiet.boost_deck.iter_mut().collect();
        for p in quiet.players.iter_mut().filter(|p| p.seat != seat) {
            places.extend(p.boosts.iter_mut().map(|b| &mut b.card));
        }
        let pinned = pins(&places, &still);
        shuffle_unpinned(&mut places, &pinned, rng);
    }
    if let Some(keep) = undrawn(quiet.reinforcement_deck.len(), now.reinforcement_deck.len()) {
        let mut places: Vec<&mut Id> = quiet.reinforcement_deck[..keep].iter_mut().collect();
        let pinned = vec![false; places.len()];
        shuffle_unpinned(&mut places, &pinned, rng);
    }
}
