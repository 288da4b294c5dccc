//! The table: who sits where, and who is whose opponent.
//!
//! The single authority on table topology (`000 § Setup`, `001 § Prime Time`):
//! player ids ([`PlayerId`], seats numbered clockwise from 0), the seats of a
//! game ([`Table`]), opponents, next clockwise, and an order of play starting
//! from a given seat (the Underdog's, Prime Time's). Nothing else in the
//! engine computes "the other player" from a number, or indexes per-player
//! data by a bare integer: per-player data is [`Seated`].
//!
//! Two players play Aristeia! (`000`); three or four play Prime Time (`001`),
//! whose rules the game applies when the table has more than two seats
//! ([`Table::prime_time`]). Every relation here is written for any number of
//! seats, so no other module does seat arithmetic: the snake order of picking,
//! deploying and placing Initiative cards is [`Table::snake_from`].

use serde::{Deserialize, Serialize};

/// A player: the seat at the table, numbered clockwise from 0 (player 1).
/// Serialized as that number, so events and replays read `"player": 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(usize);

impl PlayerId {
    /// The seat with index `i` (0 = player 1).
    pub const fn seat(i: usize) -> PlayerId {
        PlayerId(i)
    }

    /// The index of the seat (0 = player 1), for arrays kept by seat.
    pub const fn index(self) -> usize {
        self.0
    }

    /// The player's number as people say it: 1 for the first seat.
    pub const fn number(self) -> usize {
        self.0 + 1
    }
}

impl std::fmt::Display for PlayerId {
    /// `player 1`, `player 2`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "player {}", self.number())
    }
}

/// The seats of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    seats: usize,
}

impl Table {
    /// A table of `seats` players (2 for Aristeia!, 3-4 for Prime Time).
    pub const fn of(seats: usize) -> Table {
        Table { seats }
    }

    /// How many players.
    pub const fn len(self) -> usize {
        self.seats
    }

    /// Whether nobody sits at it.
    pub const fn is_empty(self) -> bool {
        self.seats == 0
    }

    /// Every seat, clockwise from player 1.
    pub fn seats(self) -> impl Iterator<Item = PlayerId> + Clone {
        (0..self.seats).map(PlayerId)
    }

    /// The seat to the left of `p` (clockwise), wrapping around.
    pub fn next_clockwise(self, p: PlayerId) -> PlayerId {
        PlayerId((p.0 + 1) % self.seats.max(1))
    }

    /// Every seat once, clockwise, starting from `first` (the Underdog's or
    /// Prime Time's order, `000 § Underdog`, `001 § Prime Time`).
    pub fn order_from(self, first: PlayerId) -> Vec<PlayerId> {
        (0..self.seats).map(|i| PlayerId((first.0 + i) % self.seats)).collect()
    }

    /// The snake order of `001 § Preparations` (4. Team Creation, 8. Team
    /// Deployment) and `001 § Round` (1. Planning Phase): every seat
    /// clockwise from `first`, then every seat again counter-clockwise from
    /// the last one, so `first` is the first and the last. With two seats:
    /// `first`, other, other, `first`.
    pub fn snake_from(self, first: PlayerId) -> Vec<PlayerId> {
        let mut order = self.order_from(first);
        let back: Vec<PlayerId> = order.iter().rev().copied().collect();
        order.extend(back);
        order
    }

    /// Whether the Prime Time rules apply (`001`): a table of three or four.
    /// A 2-player table plays `000`'s rules, the Underdog and the Infirmary,
    /// even for a Scenario of 001 opened to two players (docs/rulings.md R46).
    pub const fn prime_time(self) -> bool {
        self.seats > 2
    }

    /// The seat to the right of `p` (counter-clockwise), wrapping around.
    pub fn next_counter_clockwise(self, p: PlayerId) -> PlayerId {
        let n = self.seats.max(1);
        PlayerId((p.0 + n - 1) % n)
    }

    /// Every other player: in Aristeia! each player is every other player's
    /// Enemy (`000 § Enemies`; `001 § Enemies` for 3-4 players).
    pub fn opponents(self, p: PlayerId) -> impl Iterator<Item = PlayerId> {
        self.seats().filter(move |o| *o != p)
    }

    /// The opponent in a 2-player game: the first other seat clockwise. With
    /// more players a rule must say which opponent it means; this is the one
    /// to the left.
    pub fn opponent(self, p: PlayerId) -> PlayerId {
        self.next_clockwise(p)
    }

    /// Whether two players are Enemies of each other (different players;
    /// no teams in Aristeia!).
    pub fn are_enemies(self, a: PlayerId, b: PlayerId) -> bool {
        a != b
    }
}

/// One value per seat, indexed by [`PlayerId`], kept in place for up to four
/// seats (Aristeia!'s 2-4 players: copying it allocates nothing). Serialized
/// as a JSON array in seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Seated<T>(smallvec::SmallVec<[T; 4]>);

impl<T> Seated<T> {
    /// One value per seat, from `f(seat)`.
    pub fn from_fn(table: Table, f: impl FnMut(PlayerId) -> T) -> Seated<T> {
        Seated(table.seats().map(f).collect())
    }

    /// The values in seat order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The values in seat order, mutably.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    /// (seat, value) pairs in seat order.
    pub fn enumerate(&self) -> impl Iterator<Item = (PlayerId, &T)> {
        self.0.iter().enumerate().map(|(i, v)| (PlayerId(i), v))
    }

    /// The table these values are seated at.
    pub fn table(&self) -> Table {
        Table::of(self.0.len())
    }

    /// The values as a slice, in seat order.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
}

impl<T: Clone> Seated<T> {
    /// The same value at every seat.
    pub fn splat(table: Table, v: T) -> Seated<T> {
        Seated(smallvec::SmallVec::from_elem(v, table.len()))
    }
}

impl<T> From<Vec<T>> for Seated<T> {
    fn from(v: Vec<T>) -> Self {
        Seated(smallvec::SmallVec::from_vec(v))
    }
}

impl<T> std::ops::Index<PlayerId> for Seated<T> {
    type Output = T;
    fn index(&self, p: PlayerId) -> &T {
        &self.0[p.0]
    }
}

impl<T> std::ops::IndexMut<PlayerId> for Seated<T> {
    fn index_mut(&mut self, p: PlayerId) -> &mut T {
        &mut self.0[p.0]
    }
}

impl<'a, T> IntoIterator for &'a Seated<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_are_each_others_opponent() {
        let t = Table::of(2);
        let (a, b) = (PlayerId::seat(0), PlayerId::seat(1));
        assert_eq!(t.opponent(a), b);
        assert_eq!(t.opponent(b), a);
        assert_eq!(t.opponents(a).collect::<Vec<_>>(), vec![b]);
        assert!(t.are_enemies(a, b) && !t.are_enemies(a, a));
    }

    #[test]
    fn order_from_goes_clockwise_and_wraps() {
        // 001 § Prime Time: play goes on to the left of the Prime Time player.
        let t = Table::of(4);
        let order: Vec<usize> = t.order_from(PlayerId::seat(2)).into_iter().map(PlayerId::number).collect();
        assert_eq!(order, vec![3, 4, 1, 2]);
        assert_eq!(t.next_clockwise(PlayerId::seat(3)), PlayerId::seat(0));
        assert_eq!(t.opponents(PlayerId::seat(1)).count(), 3);
    }

    #[test]
    fn snake_order_starts_and_ends_with_the_first() {
        // 001 § Preparations, 4. Team Creation: "Prime Time is the first and
        // last to pick their Characters".
        let t = Table::of(4);
        let order: Vec<usize> = t.snake_from(PlayerId::seat(1)).into_iter().map(PlayerId::number).collect();
        assert_eq!(order, vec![2, 3, 4, 1, 1, 4, 3, 2]);
        let order: Vec<usize> = Table::of(3).snake_from(PlayerId::seat(0)).into_iter().map(PlayerId::number).collect();
        assert_eq!(order, vec![1, 2, 3, 3, 2, 1]);
        assert!(Table::of(3).prime_time() && !Table::of(2).prime_time());
        assert_eq!(Table::of(3).next_counter_clockwise(PlayerId::seat(0)), PlayerId::seat(2));
    }

    #[test]
    fn seated_values_serialize_as_an_array_and_player_ids_as_numbers() {
        let s = Seated::from_fn(Table::of(3), |p| p.number() * 10);
        assert_eq!(serde_json::to_string(&s).unwrap(), "[10,20,30]");
        assert_eq!(serde_json::to_string(&PlayerId::seat(1)).unwrap(), "1");
        assert_eq!(s[PlayerId::seat(2)], 30);
        assert_eq!(PlayerId::seat(0).to_string(), "player 1");
    }
}
