//! Where units are and what they see: spaces, Free spaces, Enemies, Line of Sight, Range and Cover (`000 § HexaDome`, `000 § Line of Sight`, `000 § Range`, `000 § Cover`).

use super::*;

/// Line of Sight and Cover answers for the positions of the moment
/// (`Game::sight`, `Game::cover`): both depend only on the two spaces and on
/// what stands where (the static terrain aside), so they are kept until a unit
/// or a Smoke token is somewhere else. Games ask the same pairs again and
/// again (every Action's options, every Attack's Cover).
#[derive(Default)]
pub(super) struct SightCache {
    /// What stood where when the answers were computed: each unit on a space
    /// in unit order, with whether it obstructs (a Character), then each Smoke
    /// token's space (tag 2). It decides every `obstructs` and `provides`.
    positions: Vec<(Hex, u8)>,
    /// The same, being built for the current question (kept to reuse its memory).
    scratch: Vec<(Hex, u8)>,
    sight: rustc_hash::FxHashMap<(Hex, Hex), Sight>,
    cover: rustc_hash::FxHashMap<(Hex, Hex), bool>,
    /// Range's path lengths (`Game::path_distance`), by (from, to, limit):
    /// they avoid the spaces units occupy, so they depend on the same positions.
    paths: rustc_hash::FxHashMap<(Hex, Hex, u32), Option<u32>>,
    /// The spaces of `positions` that obstruct Line of Sight
    /// (`Game::obstructs`): with the Blocked spaces, all that does.
    obstructing: Vec<Hex>,
    /// The spaces of `positions` a unit Occupies: with the terrain, what
    /// is not Free (`Game::is_free`).
    occupied: Vec<Hex>,
}

impl<'a> Game<'a> {
    pub(super) fn space_of(&self, id: &str) -> Option<Hex> {
        match self.unit(id) {
            Some(u) => match u.location {
                Location::Space(h) => Some(h),
                _ => None,
            },
            None => barrier_space(id).filter(|h| self.board.barriers.contains(h)),
        }
    }

    pub(super) fn occupant(&self, h: Hex) -> Option<&Unit> {
        self.state.units.iter().find(|u| u.location == Location::Space(h))
    }

    /// Free: on the board, not Blocked, no Character, no Barrier (`000 § Free Spaces`).
    pub(in crate::rules) fn is_free(&self, h: Hex) -> bool {
        self.board.is_open(h) && self.occupant(h).is_none()
    }

    /// The answers of [`SightCache`], emptied first if anything moved since
    /// they were computed.
    fn fresh_sight_cache(&self) -> std::cell::RefMut<'_, SightCache> {
        let mut cache = self.sight_cache.borrow_mut();
        let mut now = std::mem::take(&mut cache.scratch);
        now.clear();
        for u in &self.state.units {
            if let Location::Space(h) = u.location {
                now.push((h, u8::from(u.minion.is_none() && u.projectile.is_none())));
            }
        }
        now.extend(self.state.smoke.iter().map(|(h, _)| (*h, 2)));
        if now != cache.positions {
            std::mem::swap(&mut cache.positions, &mut now);
            cache.sight.clear();
            cache.cover.clear();
            cache.paths.clear();
            let SightCache { positions, obstructing, occupied, .. } = &mut *cache;
            obstructing.clear();
            obstructing.extend(positions.iter().map(|(h, _)| *h).filter(|h| self.obstructs(*h)));
            occupied.clear();
            occupied.extend(positions.iter().filter(|(_, tag)| *tag != 2).map(|(h, _)| *h));
        }
        cache.scratch = now;
        cache
    }

    /// Why a space is not Free, for messages.
    pub(in crate::rules) fn why_not_free(&self, h: Hex) -> String {
        if !self.board.on_board(h) {
            format!("is off the board (radius {})", self.board.radius)
        } else if self.board.blocked.contains(&h) {
            "is a Blocked space".into()
        } else if self.board.barriers.contains(&h) {
            "holds a Barrier".into()
        } else if let Some(u) = self.occupant(h) {
            format!("is Occupied by {}", u.id)
        } else {
            "is not Free".into()
        }
    }

    pub(super) fn enemies(&self, of: &str) -> SmallVec<[&Unit; 12]> {
        let owner = self.unit(of).map(|u| u.owner);
        // Running Projectiles are nobody's Enemies: Obstacles both sides may Attack.
        self.state
            .units
            .iter()
            .filter(|u| Some(u.owner) != owner && u.projectile.is_none() && matches!(u.location, Location::Space(_)))
            .collect()
    }

    /// The Enemies next to `id` (six spaces around it at most), in unit order.
    pub(super) fn adjacent_enemies(&self, id: &str) -> IdList<6> {
        let Some(h) = self.space_of(id) else { return IdList::new() };
        self.enemies(id)
            .into_iter()
            .filter(|e| matches!(e.location, Location::Space(s) if s.is_adjacent(h)))
            .map(|e| e.id)
            .collect()
    }

    /// What obstructs Line of Sight: Blocked spaces and Character-occupied spaces
    /// (`000 § Line of Sight`; Obstacles, Minions included, do not).
    pub(super) fn obstructs(&self, h: Hex) -> bool {
        // Minions are Obstacles (`002 § Minion`), which "don't block Line of Sight".
        self.board.blocked.contains(&h)
            || self.occupant(h).is_some_and(|u| u.minion.is_none() && u.projectile.is_none())
            || self.in_smoke(h)
    }

    pub(super) fn in_smoke(&self, h: Hex) -> bool {
        self.state.smoke.iter().any(|(s, _)| *s == h)
    }

    /// Line of Sight between two Characters in the HexaDome, with Dazzled and
    /// Hidden (`000 § Dazzled`, `§ Hidden`).
    pub(super) fn sight(&self, from: &str, to: &str) -> Sight {
        let (Some(a), Some(b)) = (self.space_of(from), self.space_of(to)) else { return Sight::Blocked };
        if a.is_adjacent(b) || a == b {
            return Sight::Clear;
        }
        // Dazzled, Hidden, and Smoke on either end: no sight beyond Range 0-1
        // (`000 § Dazzled`, `002 § Hidden`, `004 § Smoke`).
        if self.has_state(from, "dazzled") || self.has_state(to, "hidden") || self.in_smoke(a) || self.in_smoke(b) {
            return Sight::Blocked;
        }
        let mut cache = self.fresh_sight_cache();
        if let Some(s) = cache.sight.get(&(a, b)) {
            return *s;
        }
        // The map's table: `geometry::line_of_sight` with `self.obstructs`.
        let s = self.board.sight.line_of_sight(a, b, &cache.obstructing);
        cache.sight.insert((a, b), s);
        s
    }

    /// The length of the shortest route from `a` to `b` through Free spaces,
    /// at most `limit` ([`geometry::path_distance_on`]), kept in the
    /// [`SightCache`] while nothing moves.
    fn path_distance(&self, a: Hex, b: Hex, limit: u32) -> Option<u32> {
        if let Some(d) = self.fresh_sight_cache().paths.get(&(a, b, limit)) {
            return *d;
        }
        // `geometry::path_distance` through `self.is_free` spaces.
        let d = {
            let cache = self.fresh_sight_cache();
            geometry::path_distance_on(&self.board.open_spaces, &cache.occupied, a, b, limit)
        };
        self.sight_cache.borrow_mut().paths.insert((a, b, limit), d);
        d
    }

    /// Whether `to` is within `range` of `from` (`000 § Range`).
    pub(super) fn in_range(&self, from: &str, to: &str, range: &model::Range) -> bool {
        let (Some(a), Some(b)) = (self.space_of(from), self.space_of(to)) else { return false };
        // Cheap first: no route is shorter than the hex distance.
        if a.distance(b) > range.max as u32 {
            return false;
        }
        if range.line_of_sight {
            if a != b && !self.sight(from, to).has_line_of_sight() && !self.has_state(to, "marked") {
                return false;
            }
            let d = if a == b {
                0
            } else if a.is_adjacent(b) {
                // What the search answers for neighbours, without its sets.
                1
            } else {
                match self.path_distance(a, b, range.max as u32) {
                    Some(d) => d,
                    None => return false,
                }
            };
            d >= range.min as u32 && d <= range.max as u32
        } else {
            let d = a.distance(b);
            d >= range.min as u32 && d <= range.max as u32
        }
    }

    pub(super) fn cover(&self, who: &str, enemy: &str) -> bool {
        let (Some(a), Some(b)) = (self.space_of(who), self.space_of(enemy)) else { return false };
        // "Minions cannot benefit from Cover" (`002 § Minion`).
        if a.is_adjacent(b)
            || self.has_state(who, "marked")
            || self.has_state(who, "hidden")
            || self.is_minion(who)
            || self.is_projectile(who)
        {
            return false;
        }
        let provides =
            |h: Hex| self.board.blocked.contains(&h) || self.board.barriers.contains(&h) || self.occupant(h).is_some();
        let mut cache = self.fresh_sight_cache();
        if let Some(c) = cache.cover.get(&(a, b)) {
            return *c;
        }
        // The map's table: `geometry::cover` with `self.obstructs`.
        let c = self.board.sight.cover(a, b, provides, &cache.obstructing);
        cache.cover.insert((a, b), c);
        c
    }

    pub(super) fn zone_spaces(&self, zone: &str) -> &[Hex] {
        self.board.zones.get(zone).map_or(&[], |z| z.1.as_slice())
    }

    pub(super) fn zone_and_adjacent_free(&self, zone: &str) -> Vec<Hex> {
        let mut set: BTreeSet<Hex> = BTreeSet::new();
        for h in self.zone_spaces(zone) {
            set.insert(*h);
            set.extend(h.neighbours());
        }
        set.into_iter().filter(|h| self.is_free(*h)).collect()
    }

    pub(super) fn distance(&self, a: &str, b: &str) -> u32 {
        match (self.space_of(a), self.space_of(b)) {
            (Some(x), Some(y)) => x.distance(y),
            _ => u32::MAX,
        }
    }
}
