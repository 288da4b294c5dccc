//! `003 § Game Setup`: teams and seats, dealing two god boards and choosing
//! one, the starter decks, the marketplace; `003 § Who Goes First?`.

use super::*;
use crate::invictus::state::{Player, Token};
use crate::model::Id;
use crate::model::{BoostColour, Skill};
use std::collections::BTreeMap;

/// How the teams sit (`003 § Team Assignment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Seating {
    /// Teams sit opposite each other: the first half of the seats, then the second.
    Standard,
    /// Teams alternate around the table.
    EveryOther,
    /// Teams drawn at random (as even as the count allows).
    Random,
    /// Every player for themselves (`003 § Boosts`: "If drawn during free-for-all").
    FreeForAll,
}

/// What a game is set up from.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct InvictusSetup {
    /// Players: 2, 4 or 6 in teams; 3 to 6 in a free-for-all.
    pub players: usize,
    /// How teams sit.
    pub seating: Seating,
    /// The god of each seat, instead of dealing two and choosing one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gods: Vec<String>,
    /// How gods come to the seats when none are named.
    #[serde(default, skip_serializing_if = "GodDeal::is_rulebook")]
    pub deal: GodDeal,
    /// The marketplace entry (`standard`).
    #[serde(default = "standard")]
    pub marketplace: String,
    /// Turns after which a game is stopped with no winner (a `stopped` event).
    #[serde(default = "max_turns")]
    pub max_turns: u32,
    /// Decisions after which a game is stopped with no winner (a `stopped`
    /// event; [`MAX_DECISIONS_PER_GAME`] unless set).
    #[serde(default = "max_decisions", skip_serializing_if = "is_max_decisions")]
    pub max_decisions: usize,
}

/// How the gods come to the seats of a game when `gods` names none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GodDeal {
    /// `003 § Character Assignment`: two god boards dealt to each player,
    /// who chooses one.
    #[default]
    Rulebook,
    /// For balance batches: one god dealt to each seat by the game's seed,
    /// so that over each run of as many consecutive seeds as there are gods
    /// loaded (seeds `k * G` to `k * G + G - 1`), every god sits once at
    /// every seat: a Latin square over the gods in an order shuffled anew
    /// for each run ([`GodDeal::even`]). No player chooses, so no god is
    /// left out by how players choose.
    Even,
}

impl GodDeal {
    fn is_rulebook(&self) -> bool {
        *self == GodDeal::Rulebook
    }

    /// The gods of the `players` seats of the game seeded `seed` under
    /// [`GodDeal::Even`], from `gods` (at least `players` of them, in any
    /// order: they are sorted first).
    pub fn even(gods: &[Id], seed: u64, players: usize) -> Vec<Id> {
        use rand::SeedableRng as _;
        use rand::seq::SliceRandom as _;
        let mut order = gods.to_vec();
        order.sort_unstable();
        let g = order.len().max(1) as u64;
        let (run, place) = (seed / g, seed % g);
        // "gods" in ASCII: runs of seeds shuffle apart from the game's own dice.
        let mut rng = ChaCha8Rng::seed_from_u64(run ^ 0x676f_6473);
        order.shuffle(&mut rng);
        (0..players as u64).map(|s| order[((place + s) % g) as usize]).collect()
    }
}

fn max_decisions() -> usize {
    MAX_DECISIONS_PER_GAME
}

fn is_max_decisions(n: &usize) -> bool {
    *n == MAX_DECISIONS_PER_GAME
}

fn standard() -> String {
    "standard".into()
}

fn max_turns() -> u32 {
    2000
}

impl InvictusSetup {
    /// `players` players in two teams, standard seating.
    pub fn teams(players: usize) -> Self {
        InvictusSetup {
            players,
            seating: Seating::Standard,
            gods: Vec::new(),
            deal: GodDeal::Rulebook,
            marketplace: standard(),
            max_turns: max_turns(),
            max_decisions: max_decisions(),
        }
    }

    /// The teams of each seat (before any random draw).
    pub(crate) fn teams_by_seat(&self, rng_order: Option<&[usize]>) -> Vec<usize> {
        let n = self.players;
        match self.seating {
            Seating::Standard => (0..n).map(|s| usize::from(s >= n.div_ceil(2))).collect(),
            Seating::EveryOther => (0..n).map(|s| s % 2).collect(),
            Seating::FreeForAll => (0..n).collect(),
            Seating::Random => {
                let order = rng_order.unwrap_or(&[]);
                let mut t = vec![0; n];
                for (k, s) in order.iter().enumerate() {
                    t[*s] = usize::from(k >= n.div_ceil(2));
                }
                t
            }
        }
    }
}

impl<'a, 'c> Game<'a, 'c> {
    /// Set up a game: seats and teams, gods dealt and chosen, starter decks
    /// shuffled and 5 drawn, the marketplace, the first player.
    ///
    /// # Errors
    /// Too few or too many players for the mode, too few gods, a named god
    /// or the marketplace not loaded, a starter Artifact missing.
    pub fn new(
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        setup: &InvictusSetup,
        seed: u64,
        controllers: Vec<Box<dyn Controller + 'c>>,
    ) -> Result<Game<'a, 'c>, SetupError> {
        Self::new_capturing(content, runtime, setup, seed, controllers, false)
    }

    /// [`Game::new`], keeping the position where a controller first gives
    /// up when `capture` (`Game::capture_halt`, from the gods' choice on: a
    /// table's replay).
    ///
    /// # Errors
    /// As [`Game::new`].
    pub fn new_capturing(
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        setup: &InvictusSetup,
        seed: u64,
        controllers: Vec<Box<dyn Controller + 'c>>,
        capture: bool,
    ) -> Result<Game<'a, 'c>, SetupError> {
        Self::new_at_table(content, runtime, setup, seed, controllers, capture, None)
    }

    /// [`Game::new_capturing`], reseeded at a Decision of the setup
    /// (`Game::reseed_at`) when `reseed` says so.
    ///
    /// # Errors
    /// As [`Game::new`].
    pub(crate) fn new_at_table(
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        setup: &InvictusSetup,
        seed: u64,
        controllers: Vec<Box<dyn Controller + 'c>>,
        capture: bool,
        reseed: Option<(usize, u64)>,
    ) -> Result<Game<'a, 'c>, SetupError> {
        let n = setup.players;
        let ok = match setup.seating {
            Seating::FreeForAll => (3..=6).contains(&n),
            _ => matches!(n, 2 | 4 | 6),
        };
        if !ok {
            return Err(SetupError(format!(
                "{n} players: Invictus plays 2, 4 or 6 players in two teams, or 3 to 6 in a free-for-all (003 § Team Assignment)"
            )));
        }
        if controllers.len() != n {
            return Err(SetupError(format!("{} controllers for {n} players", controllers.len())));
        }
        let market = &content
            .marketplaces
            .get(setup.marketplace.as_str())
            .ok_or_else(|| SetupError(format!("no marketplace `{}` is loaded", setup.marketplace)))?
            .value;
        for a in &market.starter_deck {
            if !content.artifacts.contains_key(&a.artifact) {
                return Err(SetupError(format!("the starter deck names `{}`, which is not loaded", a.artifact)));
            }
        }
        let mut game = Game::empty(content, runtime, market, seed, controllers, setup.max_turns);
        game.max_decisions = setup.max_decisions;
        game.capture_halt = capture;
        game.reseed = reseed;
        if setup.gods.is_empty() && setup.deal == GodDeal::Even {
            let loaded: Vec<Id> = content.gods.keys().cloned().collect();
            if loaded.len() < n {
                return Err(SetupError(format!("{} gods are loaded; {n} players need at least {n}", loaded.len())));
            }
            let gods = GodDeal::even(&loaded, seed, n).iter().map(ToString::to_string).collect();
            game.seat_players(&InvictusSetup { gods, ..setup.clone() })?;
        } else {
            game.seat_players(setup)?;
        }
        game.build_marketplace();
        game.first_player();
        Ok(game)
    }

    /// A game with the standard marketplace and no players yet, at turn 1,
    /// for a situation to lay its position over.
    ///
    /// # Errors
    /// No `standard` marketplace loaded.
    pub(crate) fn for_situation(
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        seed: u64,
        controllers: Vec<Box<dyn Controller + 'c>>,
    ) -> Result<Game<'a, 'c>, SetupError> {
        let market = &content
            .marketplaces
            .get("standard")
            .ok_or_else(|| SetupError("no marketplace `standard` is loaded".into()))?
            .value;
        let mut game = Game::empty(content, runtime, market, seed, controllers, 2000);
        game.build_marketplace();
        game.state.turn = 1;
        Ok(game)
    }

    fn empty(
        content: &'a Content,
        runtime: Option<&'a Runtime>,
        market: &'a Marketplace,
        seed: u64,
        controllers: Vec<Box<dyn Controller + 'c>>,
        max_turns: u32,
    ) -> Game<'a, 'c> {
        let state = GameState {
            players: Vec::new(),
            team_game: false,
            piles: BTreeMap::new(),
            boost_deck: Vec::new(),
            boost_discard: Vec::new(),
            reinforcement_deck: Vec::new(),
            reinforcement_discard: Vec::new(),
            revivals_allowed: true,
            apocalypses: 0,
            turn: 0,
            active: PlayerId::seat(0),
            charged_this_turn: false,
            discharged_this_turn: false,
            turn_over: false,
            outcome: None,
        };
        Game {
            content,
            runtime,
            market,
            cards: std::sync::Arc::new(super::CardIndex::of(content)),
            state,
            events: Vec::new(),
            answers: Vec::new(),
            effect_failures: 0,
            effects_run: Vec::new(),
            last_failure: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            controllers,
            attack: None,
            effect_owner: None,
            effect_entry: None,
            snapshots: Vec::new(),
            max_turns,
            max_decisions: MAX_DECISIONS_PER_GAME,
            stopped: false,
            capture_halt: false,
            halted_at: None,
            reseed: None,
        }
    }

    /// Teams, gods (`003 § Character Assignment`) and each player's board and deck
    /// (`003 § Character Setup`).
    fn seat_players(&mut self, setup: &InvictusSetup) -> Result<(), SetupError> {
        let n = setup.players;
        let mut order: Vec<usize> = (0..n).collect();
        if setup.seating == Seating::Random {
            self.shuffle(&mut order);
        }
        let teams = setup.teams_by_seat(Some(&order));
        let dealt: Vec<Vec<Id>> = if setup.gods.is_empty() {
            let mut pool: Vec<Id> = self.content.gods.keys().cloned().collect();
            if pool.len() < n {
                return Err(SetupError(format!("{} gods are loaded; {n} players need at least {n}", pool.len())));
            }
            self.shuffle(&mut pool);
            let each = if pool.len() >= 2 * n { 2 } else { 1 };
            (0..n).map(|s| pool[s * each..s * each + each].to_vec()).collect()
        } else {
            if setup.gods.len() != n {
                return Err(SetupError(format!("{} gods named for {n} players", setup.gods.len())));
            }
            for g in &setup.gods {
                if !self.content.gods.contains_key(g.as_str()) {
                    return Err(SetupError(format!("no god `{g}` is loaded")));
                }
            }
            setup.gods.iter().map(|g| vec![g.as_str().into()]).collect()
        };
        for (s, hand) in dealt.iter().enumerate() {
            let god = hand[0];
            self.state.players.push(self.new_player(PlayerId::seat(s), teams[s], &god));
        }
        // Each player chooses one of the two boards without discussing (asked in seat order).
        for (s, hand) in dealt.iter().enumerate() {
            let p = PlayerId::seat(s);
            let options: Vec<Choice> = hand.iter().map(|g| Choice::God { god: g.as_str().into() }).collect();
            let Choice::God { god } = self.ask(p, DecisionKind::ChooseGod, "which god do you play?", options) else {
                unreachable!("only gods offered")
            };
            let other = hand.iter().find(|g| **g != god).cloned();
            let mut player = self.new_player(p, teams[s], &god);
            player.other_god = other;
            self.state.players[s] = player;
            self.emit(Event::Seated { seat: s, team: teams[s], god, dealt: hand.clone() });
        }
        let mut counts = BTreeMap::new();
        for t in &teams {
            *counts.entry(*t).or_insert(0) += 1;
        }
        self.state.team_game = counts.values().any(|c| *c > 1);
        for s in 0..n {
            let p = PlayerId::seat(s);
            let mut deck = Vec::new();
            for a in &self.market.starter_deck {
                deck.extend((0..a.count).map(|_| Card::Artifact(a.artifact)));
            }
            self.shuffle(&mut deck);
            self.state.player_mut(p).draw = deck;
            self.draw_to(p, self.market.hand_size as usize);
            self.state.player_mut(p).stamina = self.full_stamina(p);
        }
        Ok(())
    }

    fn new_player(&self, seat: PlayerId, team: usize, god: &str) -> Player {
        let health = self.content.gods.get(god).map_or(0, |g| g.value.health as i32);
        let token = |colour| Token { active: true, colour, from_reinforcement: false };
        let mut tokens = BTreeMap::new();
        tokens.insert(Skill::Stamina, vec![token(None)]);
        tokens.insert(Skill::Range, vec![token(None)]);
        tokens.insert(Skill::Accuracy, vec![token(Some(BoostColour::Omega))]);
        Player {
            seat,
            team,
            god: god.into(),
            other_god: None,
            health,
            max_health: health,
            stamina: 0,
            tokens,
            hand: Vec::new(),
            boosts: Vec::new(),
            draw: Vec::new(),
            discard: Vec::new(),
            charged: Vec::new(),
            reinforcements: Vec::new(),
            revived_by: Vec::new(),
            defeated: false,
        }
    }

    /// Artifact piles (all but Starter Cards), the shuffled Boost deck over the
    /// Apocalypse, the shuffled Reinforcement deck (`003 § Marketplace Setup`).
    fn build_marketplace(&mut self) {
        for (id, a) in &self.content.artifacts {
            if a.value.starter == 0 && a.value.purchase_price.is_some() {
                self.state.piles.insert(*id, a.value.count as u32);
            }
        }
        let mut deck = Vec::new();
        for (id, b) in &self.content.boosts {
            for (colour, copies) in b.value.copies.list() {
                deck.extend((0..copies).map(|_| BoostCard { id: *id, colour }));
            }
        }
        self.shuffle(&mut deck);
        self.state.boost_deck = deck;
        let mut r = Vec::new();
        for (id, e) in &self.content.reinforcements {
            r.extend((0..e.value.copies).map(|_| *id));
        }
        self.shuffle(&mut r);
        self.state.reinforcement_deck = r;
    }

    /// The lowest Health goes first; a tie is decided by a flip (`003 § Who Goes First?`).
    fn first_player(&mut self) {
        let low = self.state.players.iter().map(|p| p.health).min().unwrap_or(0);
        let tied: Vec<PlayerId> = self.state.players.iter().filter(|p| p.health == low).map(|p| p.seat).collect();
        let first = if tied.len() > 1 { tied[self.rng.random_range(0..tied.len())] } else { tied[0] };
        self.state.active = first;
        self.emit(Event::FirstPlayer { god: self.name(first), tie_flip: tied.len() > 1 });
    }

    /// Draw until `p` holds `n` Artifacts (counterfeits count), shuffling the
    /// discard pile into a new draw pile when it runs out (`003 § Completing Your Turn`).
    pub(crate) fn draw_to(&mut self, p: PlayerId, n: usize) {
        while self.state.player(p).hand.len() < n {
            if !self.draw_one(p) {
                break;
            }
        }
    }

    /// Draw one card; false when the draw and discard piles are both empty.
    pub(crate) fn draw_one(&mut self, p: PlayerId) -> bool {
        if self.state.player(p).draw.is_empty() {
            let mut d = std::mem::take(&mut self.state.player_mut(p).discard);
            if d.is_empty() {
                return false;
            }
            self.shuffle(&mut d);
            self.state.player_mut(p).draw = d;
        }
        let player = self.state.player_mut(p);
        match player.draw.pop() {
            Some(c) => {
                player.hand.push(c);
                true
            }
            None => false,
        }
    }
}
