//! The search player: single-observer information-set Monte Carlo tree
//! search (Cowling, Powley & Whitehouse 2012, SO-ISMCTS), max^n for any
//! number of seats, over the one table interface, so it plays both games.
//!
//! At a Decision of its seat with more than one option it samples
//! [`MctsPlayer::worlds`] games consistent with its view
//! ([`InfoSet::world`]: the hidden cards dealt anew, chance reseeded) and
//! runs [`MctsPlayer::iterations`] iterations, each on a fork of one of
//! them in turn:
//!
//! 1. **select**: from the root, while every option available in this
//!    world has a child, take the child of highest UCB1 for the seat that
//!    decides there (`mean + C * sqrt(ln(availability) / visits)`, where
//!    availability counts the iterations in which the option was legal;
//!    ISMCTS's subset-armed bandit), and answer it in the world; a
//!    Decision with one option is answered without a node;
//! 2. **expand**: add one untried option (the greedy player's answer
//!    first: at the root its whole answer, look-ahead included, below it
//!    the fast heuristic's; then the Decision's order; children are keyed
//!    by the option's text, so the same option in two worlds is one node);
//!    the greedy answer keeps a bias of [`BIAS`] / visits in the selection
//!    (progressive bias), so a small budget plays at least as greedy does;
//! 3. **play out** with the greedy player's fast heuristic at every seat to the horizon
//!    (the end of the Round in Aristeia!, [`INVICTUS_TURNS`] turns in
//!    Invictus: [`SeatView::progress`]);
//!
//! Steps 1 to 3 are one run of the engine ([`Table::play_on`]) with one
//! player at every seat that walks the tree, then plays greedy.
//!
//! 4. **score** with the evaluation function (`players::eval`: one value per
//!    seat) and add it to every node of the path.
//!
//! It answers the root's most visited option (the first tried among equals). Everything it draws comes
//! from an RNG seeded by the game's seed, its seat and the number of
//! Decisions answered before, so the same game gives the same answers.
//! Seated in an engine's own loop (no table: [`Player::choose`]) it answers
//! as the greedy player; `sim` plays games with a search player at a table.

use super::GreedyPlayer;
use super::eval::evaluate;
use crate::table::{InfoSet, Player, SeatView, Table};
use rand::{RngExt as _, SeedableRng as _};

/// Turns a playout of an Invictus game lasts past the current one.
pub const INVICTUS_TURNS: u32 = 4;

/// The exploration constant of UCB1 (values are in `[0, 1]`).
pub const EXPLORATION: f64 = 0.7;

/// The progressive bias toward the greedy player's answer: added to its
/// mean, divided by its visits.
pub const BIAS: f64 = 0.5;

/// Worlds sampled per Decision (at most one per iteration): each costs a
/// replay from the last quiet point and a check of the seat's view
/// (`Table::determinize`), about 1.4 ms in Assault.
pub const WORLDS: u32 = 4;

/// The default budget: iterations per searched Decision.
pub const DEFAULT_ITERATIONS: u32 = 32;

/// The search player ([module notes](self)).
#[derive(Debug, Clone)]
pub struct MctsPlayer {
    /// Iterations per Decision searched.
    pub iterations: u32,
    /// Worlds sampled per Decision (the iterations go round them).
    pub worlds: u32,
    /// The seed its searches are drawn from.
    pub seed: u64,
}

impl MctsPlayer {
    /// The player of `seat` in the game seeded `seed`, at `iterations` a Decision.
    pub fn for_seat(seed: u64, seat: usize, iterations: u32) -> MctsPlayer {
        MctsPlayer { iterations: iterations.max(1), worlds: WORLDS, seed: super::seat_seed(seed, seat) }
    }
}

/// One node of the tree: the values its iterations brought back, by seat.
struct Node {
    visits: u32,
    /// Iterations in which it was a legal option of its parent.
    available: u32,
    /// Sum of the values, by seat.
    value: Vec<f64>,
    /// Children, by the option's text.
    children: Vec<(String, usize)>,
}

impl Node {
    fn new(seats: usize) -> Node {
        Node { visits: 0, available: 0, value: vec![0.0; seats], children: Vec::new() }
    }
}

/// One iteration's player at every seat: down the tree by UCB1 while every
/// option has a child, adds one child, then the greedy player to the horizon.
struct Walker<'t> {
    tree: &'t mut Vec<Node>,
    node: usize,
    path: Vec<usize>,
    expanded: bool,
    horizon: u32,
    seats: usize,
    /// The greedy player's answer at the root, with its look-ahead
    /// (`GreedyPlayer::choose_in`); below the root, the fast heuristic's.
    root_prior: Option<usize>,
}

impl Player for Walker<'_> {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        if seat.options() <= 1 {
            return Some(0);
        }
        if self.expanded {
            return if seat.progress() > self.horizon { None } else { GreedyPlayer.choose(seat) };
        }
        let d = seat.decision();
        let mover = d.player.index();
        // The greedy player's answer is tried first and keeps a bias that
        // fades with visits (progressive bias): a small budget plays at
        // least as the greedy player does.
        let greedy = match self.root_prior {
            Some(o) if self.node == 0 && o < d.options.len() => o,
            _ => GreedyPlayer.choose(seat).unwrap_or(0),
        };
        let mut untried = None;
        let mut best: Option<(f64, usize, usize)> = None;
        let order = std::iter::once(greedy).chain((0..d.options.len()).filter(|o| *o != greedy));
        for o in order {
            let key = &d.options[o];
            match self.tree[self.node].children.iter().find(|(k, _)| k == key).map(|(_, c)| *c) {
                Some(c) => {
                    let n = &mut self.tree[c];
                    n.available += 1;
                    let visits = f64::from(n.visits.max(1));
                    let mean = n.value.get(mover).copied().unwrap_or(0.0) / visits;
                    let bias = if o == greedy { BIAS / visits } else { 0.0 };
                    let ucb = mean + bias + EXPLORATION * (f64::from(n.available).ln() / visits).sqrt();
                    if best.is_none_or(|(b, _, _)| ucb > b) {
                        best = Some((ucb, o, c));
                    }
                }
                None if untried.is_none() => untried = Some(o),
                None => {}
            }
        }
        if let Some(o) = untried {
            let child = self.tree.len();
            let mut node = Node::new(self.seats);
            node.available = 1;
            self.tree.push(node);
            self.tree[self.node].children.push((d.options[o].clone(), child));
            self.path.push(child);
            self.expanded = true;
            return Some(o);
        }
        let (_, o, c) = best?;
        self.path.push(c);
        self.node = c;
        Some(o)
    }
}

impl Player for MctsPlayer {
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        GreedyPlayer.choose(seat)
    }

    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        let options = info.view().options();
        if options <= 1 {
            return Some(0);
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(
            self.seed ^ (info.answered() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let worlds: Vec<Box<dyn Table<'_> + '_>> =
            (0..self.worlds.min(self.iterations)).filter_map(|_| info.world(rng.random::<u64>()).ok()).collect();
        if worlds.is_empty() {
            return GreedyPlayer.choose_in(info);
        }
        let root_options = info.view().decision().options.clone();
        let seats = info.seats();
        let horizon = info.view().progress() + if worlds[0].game() == "invictus" { INVICTUS_TURNS } else { 0 };
        // The root's prior is the greedy player's whole answer, look-ahead
        // included, so that a small budget plays at least as it does.
        let root_prior = GreedyPlayer.choose_in(info);
        let mut tree = vec![Node::new(seats)];
        for i in 0..self.iterations as usize {
            let mut world = worlds[i % worlds.len()].fork();
            // Select, expand and play out in one run of the engine.
            let mut walker =
                Walker { tree: &mut tree, node: 0, path: vec![0], expanded: false, horizon, seats, root_prior };
            let _ = world.play_on(&mut [&mut walker]);
            let path = std::mem::take(&mut walker.path);
            let value = evaluate(&*world);
            for &n in &path {
                tree[n].visits += 1;
                for (s, v) in value.iter().enumerate().take(seats) {
                    tree[n].value[s] += v;
                }
            }
        }
        // The most visited; among equals, the first tried (the greedy answer).
        let mut best: Option<(u32, &String)> = None;
        for (key, c) in &tree[0].children {
            if best.is_none_or(|(v, _)| tree[*c].visits > v) {
                best = Some((tree[*c].visits, key));
            }
        }
        best.and_then(|(_, key)| root_options.iter().position(|o| o == key)).or(root_prior)
    }

    fn searches(&self) -> bool {
        true
    }
}
