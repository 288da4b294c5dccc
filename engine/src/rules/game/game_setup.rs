//! How a game is set up ([`GameSetup`]): from a content `setup` entry, or
//! random teams for a Scenario at a number of seats (`000 § Setup`; `001 §
//! Preparations`).

use super::*;

/// How a game is set up.
#[derive(Debug, Clone)]
pub struct GameSetup {
    /// Scenario id.
    pub scenario: Id,
    /// Each player's Characters.
    pub teams: Seated<Vec<Id>>,
    /// Each player's Tactics deck (ids, repeated for copies).
    pub decks: Seated<Vec<Id>>,
    /// Each player's Deployment Zone id.
    pub zones: Seated<Id>,
    /// The RNG seed.
    pub seed: u64,
    /// The optional rules played (`001 § Additional Rules`; none by default).
    pub optional_rules: BTreeSet<OptionalRule>,
    /// What players may not do (restricted play, [`Restriction`]; none by default).
    pub restrictions: Vec<Restriction>,
}

impl GameSetup {
    /// The setup of a content `setup` entry.
    pub fn from_content(content: &Content, id: &str, seed: u64) -> Result<GameSetup> {
        let s = &content.setups.get(id).ok_or_else(|| format!("no setup `{id}`"))?.value;
        if !(2..=4).contains(&s.teams.len()) {
            return Err(format!("setup `{id}` has {} teams; 2 to 4 are needed", s.teams.len()));
        }
        let table = Table::of(s.teams.len());
        let defaults = content
            .scenarios
            .get(&s.scenario)
            .and_then(|sc| content.maps.get(&sc.value.map).map(|m| (&sc.value, &m.value)))
            .and_then(|(sc, map)| GameSetup::default_zones(sc, map, table).ok());
        let zone = |p: PlayerId| {
            s.teams[p.index()].deployment_zone.unwrap_or_else(|| match (&defaults, p.index()) {
                (_, 0) if table.len() == 2 => "zone-1".into(),
                (_, 1) if table.len() == 2 => "zone-4".into(),
                (Some(d), _) => d[p],
                (None, i) => format!("zone-{}", i + 1).into(),
            })
        };
        Ok(GameSetup {
            scenario: s.scenario,
            teams: s.teams.iter().map(|t| t.characters.clone()).collect::<Vec<_>>().into(),
            decks: s.teams.iter().map(|t| t.tactics.clone()).collect::<Vec<_>>().into(),
            zones: Seated::from_fn(table, zone),
            seed,
            optional_rules: BTreeSet::new(),
            restrictions: Vec::new(),
        })
    }
}

impl GameSetup {
    /// How many players a Scenario is played by when nobody says: two if it
    /// allows two (Aristeia!), else its least (Prime Time's 3).
    pub fn default_seats(sc: &model::Scenario) -> usize {
        if (sc.players.min..=sc.players.max).contains(&2) { 2 } else { sc.players.min.max(2) as usize }
    }

    /// Random teams of the scenario's size for `seats` players from every
    /// loaded Character, drawn with `seed` (distinct Characters, `000 §
    /// GameSetup`, Step 2; `001 § Preparations`, 4. Team Creation: the picks
    /// are random, so seat `k` takes the `k`-th group of the shuffled pool),
    /// each deck the Standard Tactics plus two of each chosen Character's
    /// Tactics (`000 § Tactics`). Zones: [`GameSetup::default_zones`].
    pub fn random(content: &Content, scenario: &str, seats: usize, seed: u64) -> Result<GameSetup> {
        let sc = &content.scenarios.get(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?.value;
        let map = &content.maps.get(&sc.map).ok_or_else(|| format!("no map `{}`", sc.map))?.value;
        if !(sc.players.min as usize..=sc.players.max as usize).contains(&seats) || !(2..=4).contains(&seats) {
            return Err(format!("`{scenario}` is for {}-{} players, not {seats}", sc.players.min, sc.players.max));
        }
        let table = Table::of(seats);
        let per_team = sc.characters_per_team.max(1) as usize;
        // The Scenario's own Characters, when it names them (`001 § DeathMatch
        // - Run 'N Shoot!`), else every loaded one.
        let mut pool: Vec<Id> = if sc.characters.is_empty() {
            content.characters.keys().cloned().collect()
        } else {
            sc.characters.iter().filter(|c| content.characters.contains_key(*c)).cloned().collect()
        };
        if pool.len() < seats * per_team {
            return Err(format!(
                "{} Characters can be picked; `{scenario}` needs {} for {seats} players",
                pool.len(),
                seats * per_team
            ));
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_7ea5);
        shuffle(&mut pool, &mut rng);
        let teams: Seated<Vec<Id>> =
            Seated::from_fn(table, |p| pool[p.index() * per_team..(p.index() + 1) * per_team].to_vec());
        // `000 § Setup`, Step 4: "choose two of each of your Character's Tactics
        // and shuffle them with the ten Standard Tactics": the Standard
        // Tactics with their copies, and two of each Character's Tactics
        // drawn with the seed (all of them when it has two or fewer). At a
        // Prime Time table all four (`001 § Preparations`, 6. Tactics Deck
        // Building: "the four Tactic cards of each of their Characters ...
        // to obtain a total of eighteen Tactics").
        let own_per_character = if table.prime_time() { usize::MAX } else { 2 };
        let mut standard: Vec<Id> = Vec::new();
        for t in content.tactics.values().filter(|t| t.value.standard) {
            standard.extend(std::iter::repeat_n(t.value.id, t.value.copies.max(1) as usize));
        }
        let mut deck = |team: &[Id]| {
            let mut d = standard.clone();
            for c in team {
                let mut own: Vec<Id> = content
                    .tactics
                    .values()
                    .filter(|t| t.value.character.as_deref() == Some(c.as_str()))
                    .map(|t| t.value.id)
                    .collect();
                shuffle(&mut own, &mut rng);
                d.extend(own.into_iter().take(own_per_character));
            }
            d
        };
        let zones = GameSetup::default_zones(sc, map, table)?;
        let decks: Seated<Vec<Id>> = teams.iter().map(|t| deck(t)).collect::<Vec<_>>().into();
        Ok(GameSetup {
            scenario: scenario.into(),
            decks,
            teams,
            zones,
            seed,
            optional_rules: BTreeSet::new(),
            restrictions: Vec::new(),
        })
    }

    /// Each player's Deployment Zone: the Scenario's, else the map's first
    /// Deployment Zone and its opposite (or its last). With three or four
    /// players, where 001 lets each player deploy in any Deployment Zone the
    /// Scenario allows (`001 § Scenarios`, Deployment), this is only the home
    /// zone a setup names: the map's numbered Deployment Zones spread around
    /// the ring (docs/rulings.md R46).
    pub(in crate::rules) fn default_zones(sc: &model::Scenario, map: &model::Map, table: Table) -> Result<Seated<Id>> {
        if sc.deployment_zones.len() >= table.len() {
            return Ok(Seated::from_fn(table, |p| sc.deployment_zones[p.index()]));
        }
        let first = map
            .zones
            .iter()
            .find(|z| z.kind == model::ZoneKind::Deployment)
            .ok_or_else(|| format!("map `{}` has no Deployment Zone", map.id))?;
        if table.len() > 2 {
            let ring: Vec<Id> =
                map.zones.iter().filter(|z| z.kind == model::ZoneKind::Deployment).map(|z| z.id).collect();
            let n = ring.len();
            return Ok(Seated::from_fn(table, |p| ring[(p.index() * n / table.len()) % n]));
        }
        let second = first.opposite.unwrap_or_else(|| {
            map.zones.iter().rfind(|z| z.kind == model::ZoneKind::Deployment).map(|z| z.id).unwrap_or_default()
        });
        Ok(vec![first.id, second].into())
    }
}
