//! Setting up a situation's position ([`Game::from_situation`]): its
//! Characters, Minions, Scenario counters, Special Space markers and Running
//! Projectiles, each refused with the key concerned ([`SetupError`]) when it
//! cannot be set up.

use super::decision::Controller;
use super::game::{Game, GameSetup};
use super::geometry::Hex;
use super::seats::{PlayerId, Seated};
use super::situation::{Phase, SetupError, Situation, mean};
use super::state::{Location, MAX_COUNTER, MAX_POINTS, SpecialSpaceMarker, Token, TokenSide, Unit};
use crate::content::Content;
use crate::model::Id;
use crate::script::runtime::Runtime;
use std::collections::BTreeMap;

impl Game<'_> {
    /// The situation's Characters: spaces, Damage, Action and Movement Points, States.
    pub(super) fn place_situation_characters(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, c) in sit.character.iter().enumerate() {
            let at = |key: &str| format!("/character/{i}/{key}");
            let loc = match c.space {
                Some([q, r]) => {
                    let h = Hex::new(q, r);
                    if !self.is_free(h) {
                        return Err(SetupError::at(
                            at("space"),
                            format!("{}: [{q}, {r}] {}", c.id, self.why_not_free(h)),
                        ));
                    }
                    Location::Space(h)
                }
                None if c.infirmary => Location::Infirmary,
                None => Location::Bench,
            };
            let hp = content.characters[&c.id].value.hit_points;
            if c.damage >= hp {
                return Err(SetupError::at(
                    at("damage"),
                    format!("{}: {} Damage would put it in the Infirmary", c.id, c.damage),
                ));
            }
            let u = self.unit_mut(&c.id).expect("unit");
            u.location = loc;
            u.damage = c.damage;
            u.action_points = c.action_points.unwrap_or(0);
            u.movement_points = c.movement_points;
            u.until_end_of_round = c.round_effects.as_slice().into();
            // Who imposed each token: `imposed_by`, checked against the tokens.
            let mut sources: BTreeMap<&Id, std::collections::VecDeque<Id>> = BTreeMap::new();
            for (st, by) in &c.imposed_by {
                let key = format!("imposed_by/{st}");
                let n = c.states.iter().chain(&c.blue_states).filter(|s| *s == st).count();
                if n == 0 {
                    return Err(SetupError::at(
                        at(&key),
                        format!("{}: `imposed_by` names `{st}`, which is not among its `states`", c.id),
                    ));
                }
                for who in by.imposers() {
                    if !sit.character.iter().any(|o| o.id == *who) {
                        let ids: Vec<Id> = sit.character.iter().map(|o| o.id).collect();
                        return Err(SetupError::at(
                            at(&key),
                            format!("{}: `imposed_by`: `{who}` is not in the situation{}", c.id, mean(who, &ids)),
                        ));
                    }
                }
                let list =
                    by.sources(n).map_err(|e| SetupError::at(at(&key), format!("{}: `imposed_by` {st}: {e}", c.id)))?;
                sources.insert(st, list.into());
            }
            let states = c.states.iter().enumerate().map(|(k, s)| (s, TokenSide::Red, format!("states/{k}")));
            let blue = c.blue_states.iter().enumerate().map(|(k, s)| (s, TokenSide::Blue, format!("blue_states/{k}")));
            for (st, side, key) in states.chain(blue) {
                if !content.states.contains_key(st) {
                    return Err(SetupError::at(
                        at(&key),
                        format!("{}: no State `{st}`{}", c.id, state_hint(content, st)),
                    ));
                }
                let source = if st == "taunted" {
                    c.taunted_by
                } else {
                    sources.get_mut(st).and_then(std::collections::VecDeque::pop_front)
                };
                u.tokens.push(Token { state: *st, side, source, choice: None });
            }
            if let Some(by) = &c.taunted_by {
                if !c.states.iter().chain(&c.blue_states).any(|s| s == "taunted") {
                    return Err(SetupError::at(
                        at("taunted_by"),
                        format!("{}: `taunted_by` needs the Taunted State in `states`", c.id),
                    ));
                }
                if !sit.character.iter().any(|o| o.id == *by) {
                    return Err(SetupError::at(
                        at("taunted_by"),
                        format!("{}: `taunted_by`: `{by}` is not in the situation", c.id),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The situation's Minions, deployed by their Controllers.
    pub(super) fn place_situation_minions(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, m) in sit.minion.iter().enumerate() {
            let [q, r] = m.space;
            let h = Hex::new(q, r);
            if !self.is_free(h) {
                return Err(SetupError::at(
                    format!("/minion/{i}/space"),
                    format!("minion {}: [{q}, {r}] {}", m.card, self.why_not_free(h)),
                ));
            }
            if !sit.character.iter().any(|c| c.id == m.controller) {
                return Err(SetupError::at(
                    format!("/minion/{i}/controller"),
                    format!("minion {}: its Controller `{}` is not in the situation", m.card, m.controller),
                ));
            }
            let id = self
                .deploy_minion(&m.controller, &m.card, h)
                .map_err(|e| SetupError::at(format!("/minion/{i}/card"), format!("minion {}: {e}", m.card)))?;
            let hp = self.card(&id).hit_points;
            if m.damage >= hp {
                return Err(SetupError::at(
                    format!("/minion/{i}/damage"),
                    format!("{id}: {} Damage would remove it from the HexaDome", m.damage),
                ));
            }
            let u = self.unit_mut(&id).expect("minion");
            u.damage = m.damage;
            let states = m.states.iter().enumerate().map(|(k, s)| (s, TokenSide::Red, format!("states/{k}")));
            let blue = m.blue_states.iter().enumerate().map(|(k, s)| (s, TokenSide::Blue, format!("blue_states/{k}")));
            for (st, side, key) in states.chain(blue) {
                if !content.states.contains_key(st) {
                    return Err(SetupError::at(
                        format!("/minion/{i}/{key}"),
                        format!("{id}: no State `{st}`{}", state_hint(content, st)),
                    ));
                }
                u.tokens.push(Token { state: *st, side, source: None, choice: None });
            }
        }
        Ok(())
    }

    /// The situation's Scenario counters, on what can hold one: a Character
    /// (or Minion) of the situation, a zone of the map, or `player N` of a
    /// player of the situation (what `game:add_counter` accepts).
    pub(super) fn situation_counters(&mut self, sit: &Situation, zones: &[Id]) -> Result<(), SetupError> {
        let players = self.state.players.table().len();
        for (i, c) in sit.counters.iter().enumerate() {
            let player = c.on.strip_prefix("player ").and_then(|n| n.parse::<usize>().ok());
            let holds = self.unit(&c.on).is_some()
                || zones.contains(&c.on)
                || player.is_some_and(|n| (1..=players).contains(&n));
            if !holds {
                let mut known: Vec<Id> = sit.character.iter().map(|c| c.id).collect();
                known.extend(zones.iter().cloned());
                known.extend((1..=players).map(|n| Id::from(format!("player {n}"))));
                let help = mean(&c.on, &known);
                return Err(SetupError::at(
                    format!("/counters/{i}/on"),
                    format!(
                        "counter `{}` on `{}`: that is not a Character of the situation, a zone of the map, nor a player (`player 1` to `player {players}`){help}",
                        c.counter, c.on
                    ),
                ));
            }
            if c.value < 0 {
                return Err(SetupError::at(
                    format!("/counters/{i}/value"),
                    format!("counter `{}` on `{}`: {} is below 0", c.counter, c.on, c.value),
                ));
            }
            if c.value > 0 {
                self.state.counters.entry(c.on).or_default().insert(c.counter, c.value);
            }
        }
        Ok(())
    }

    /// The situation's Special Space markers and Running Projectiles.
    pub(super) fn place_situation_markers(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let content = self.content;
        for (i, m) in sit.special_spaces.iter().enumerate() {
            let at = |key: &str| format!("/special_spaces/{i}/{key}");
            if !content.special_spaces.contains_key(&m.marker) {
                return Err(SetupError::at(at("marker"), format!("no Special Space marker `{}`", m.marker)));
            }
            let space = Hex::new(m.space[0], m.space[1]);
            if self.state.special_spaces.iter().any(|x| x.space == space) {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "two Special Space markers on [{}, {}]: a Space cannot have two (001 § Special Spaces)",
                        m.space[0], m.space[1]
                    ),
                ));
            }
            if !self.board.on_board(space)
                || self.board.blocked.contains(&space)
                || self.board.barriers.contains(&space)
            {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "Special Space marker {}: [{}, {}] is not a space of the HexaDome",
                        m.marker, m.space[0], m.space[1]
                    ),
                ));
            }
            self.state.special_spaces.push(SpecialSpaceMarker { space, marker: m.marker, revealed: m.revealed });
        }
        for (i, r) in sit.running_projectiles.iter().enumerate() {
            let at = |key: &str| format!("/running_projectiles/{i}/{key}");
            if !content.running_projectiles.contains_key(&r.marker) {
                return Err(SetupError::at(at("marker"), format!("no Running Projectile `{}`", r.marker)));
            }
            if !(1..=self.table().len() as u8).contains(&r.player) {
                return Err(SetupError::at(
                    at("player"),
                    format!("Running Projectile {}: player must be a seat of the table", r.marker),
                ));
            }
            let space = Hex::new(r.space[0], r.space[1]);
            if !self.is_free(space) {
                return Err(SetupError::at(
                    at("space"),
                    format!(
                        "Running Projectile {}: [{}, {}] {}",
                        r.marker,
                        r.space[0],
                        r.space[1],
                        self.why_not_free(space)
                    ),
                ));
            }
            self.state.projectiles_deployed += 1;
            let id = format!("running-projectile-{}", self.state.projectiles_deployed);
            let owner = PlayerId::seat((r.player.clamp(1, self.table().len() as u8) - 1) as usize);
            self.state
                .units
                .push(Unit { projectile: Some(r.marker), ..Unit::new(Id::from(id), owner, Location::Space(space)) });
        }
        Ok(())
    }
}

/// A situation's Objective cards (`001 § Objectives Deck`): card ids, copies
/// repeated.
#[derive(Debug, Clone, Default, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationObjectives {
    /// The Objectives Deck, in the order the cards will be drawn (the first
    /// drawn first).
    #[serde(default)]
    pub deck: Vec<Id>,
    /// The available cards, face up, in line.
    #[serde(default)]
    pub available: Vec<Id>,
    /// The discard deck.
    #[serde(default)]
    pub discard: Vec<Id>,
    /// Each player's hidden cards, in seat order (hidden objectives).
    #[serde(default)]
    pub hidden: Vec<Vec<Id>>,
}

impl Game<'_> {
    /// The situation's Objective cards, each checked against the loaded
    /// cards; with none given, a Scenario that uses the deck gets it built
    /// and shuffled with the seed, and nothing available.
    pub(super) fn situation_objectives(&mut self, sit: &Situation) -> Result<(), SetupError> {
        let Some(o) = &sit.objectives else {
            if self.content.scenarios[&sit.scenario].value.objectives_deck || !sit.optional_rules.is_empty() {
                self.build_objectives_deck();
            }
            return Ok(());
        };
        let known: Vec<Id> = self.content.objectives.keys().cloned().collect();
        let check = |key: &str, cards: &[Id]| -> Result<(), SetupError> {
            match cards.iter().position(|c| !self.content.objectives.contains_key(c)) {
                Some(k) => Err(SetupError::at(
                    format!("/objectives/{key}/{k}"),
                    format!("no Objective card `{}`{}", cards[k], mean(&cards[k], &known)),
                )),
                None => Ok(()),
            }
        };
        check("deck", &o.deck)?;
        check("available", &o.available)?;
        check("discard", &o.discard)?;
        for (i, h) in o.hidden.iter().enumerate() {
            check(&format!("hidden/{i}"), h)?;
        }
        if o.hidden.len() > self.table().len() {
            return Err(SetupError::at("/objectives/hidden", "more hands of hidden objectives than players"));
        }
        let mut hidden = o.hidden.clone();
        hidden.resize(self.table().len(), Vec::new());
        self.state.objectives = Some(crate::rules::state::ObjectivesDeck {
            deck: o.deck.iter().rev().cloned().collect(),
            available: o.available.clone(),
            discard: o.discard.clone(),
            hidden,
            refill_pending: false,
        });
        Ok(())
    }
}

impl<'a> Game<'a> {
    /// A game at a situation's position, ready to [`run_activation`](Self::run_activation).
    pub fn from_situation(
        content: &'a Content,
        runtime: &'a Runtime,
        sit: &Situation,
        controllers: Vec<&'a mut dyn Controller>,
    ) -> Result<Game<'a>, SetupError> {
        let Some(scenario) = content.scenarios.get(&sit.scenario).map(|e| &e.value) else {
            let known: Vec<Id> = content.scenarios.keys().cloned().collect();
            return Err(SetupError::at(
                "/scenario",
                format!("no scenario `{}`{}", sit.scenario, mean(&sit.scenario, &known)),
            ));
        };
        let map = &content.maps.get(&scenario.map).ok_or_else(|| format!("no map `{}`", scenario.map))?.value;
        if !(2..=4).contains(&sit.players) {
            return Err(SetupError::at("/players", format!("players must be 2, 3 or 4, not {}", sit.players)));
        }
        let n = sit.players;
        if !(1..=n).contains(&sit.underdog) {
            return Err(SetupError::at(
                "/underdog",
                format!("underdog must be a player from 1 to {n}, not {}", sit.underdog),
            ));
        }
        for (p, deck) in sit.decks.iter().enumerate() {
            if let Some(k) = deck.iter().position(|t| !content.tactics.contains_key(t)) {
                let at = format!("/decks/{p}/{k}");
                return Err(SetupError::at(
                    at,
                    format!("player {}'s deck: no Tactic `{}`{}", p + 1, deck[k], tactic_hint(content, &deck[k])),
                ));
            }
        }
        for (key, n) in [
            ("decks", sit.decks.len()),
            ("hands", sit.hands.len()),
            ("victory_points", sit.victory_points.len()),
            ("frags", sit.frags.len()),
        ] {
            if n > sit.players as usize {
                return Err(SetupError::at(
                    format!("/{key}"),
                    format!("`{key}` lists {n} players; the situation has {}", sit.players),
                ));
            }
        }
        check_points(sit)?;
        let mut teams: Vec<Vec<Id>> = vec![vec![]; n as usize];
        let characters: Vec<Id> = content.characters.keys().cloned().collect();
        for (i, c) in sit.character.iter().enumerate() {
            if teams.iter().flatten().any(|x| *x == c.id) {
                return Err(SetupError::at(
                    format!("/character/{i}/id"),
                    format!("`{}` is in the situation twice", c.id),
                ));
            }
            if !content.characters.contains_key(&c.id) {
                let help = mean(&c.id, &characters);
                return Err(SetupError::at(format!("/character/{i}/id"), format!("no Character `{}`{help}", c.id)));
            }
            if !(1..=n).contains(&c.player) {
                return Err(SetupError::at(
                    format!("/character/{i}/player"),
                    format!("{}: player must be from 1 to {n}", c.id),
                ));
            }
            teams[c.player as usize - 1].push(c.id);
        }
        let setup = GameSetup {
            scenario: sit.scenario,
            teams: teams.into(),
            decks: vec![vec![]; n as usize].into(),
            zones: GameSetup::default_zones(scenario, map, crate::rules::seats::Table::of(n as usize))?,
            seed: sit.seed,
            optional_rules: sit.optional_rules.iter().copied().collect(),
            restrictions: Vec::new(),
        };
        if let Some(why) = crate::rules::game::OptionalRule::refuse_any(&setup.optional_rules, n as usize) {
            return Err(SetupError::at("/optional_rules", why));
        }
        let drafting = setup.optional_rules.contains(&crate::rules::game::OptionalRule::Draft);
        if drafting && !matches!(sit.phase, Phase::TeamCreation | Phase::Setup) {
            return Err(SetupError::at(
                "/optional_rules",
                "`draft` picks the teams at Team Creation (001 § Draft): only phase = \"team-creation\" or \"setup\" \
                 plays it; a situation of another phase names its Characters: leave it out",
            ));
        }
        if drafting && !sit.character.is_empty() {
            return Err(SetupError::at(
                "/character",
                "the Draft picks the teams (001 § Draft): a situation that plays it names no `[[character]]`",
            ));
        }
        let board_zone = |z: &str| content.maps[&scenario.map].value.zones.iter().any(|x| x.id == z);
        let mut g = Game::new(content, runtime, &setup, controllers)?;
        if drafting {
            // Each player drafts a team of the Scenario's size (`001 §
            // Preparations`: "There must be 2 Characters per player").
            let per_team = scenario.characters_per_team.max(1) as usize;
            g.draft_sizes = Seated::splat(g.state.players.table(), per_team);
        }
        g.events.clear();
        g.state.underdog = PlayerId::seat((sit.underdog.clamp(1, n) - 1) as usize);
        let map_zones: Vec<Id> = map.zones.iter().map(|z| z.id).collect();
        let no_zone = |z: &str| {
            let help = match crate::read::suggest(z, &map_zones) {
                Some(s) => format!(" (did you mean `{s}`?)"),
                None => format!(" (its zones: {})", map_zones.join(", ")),
            };
            format!("map `{}` has no zone `{z}`{help}", scenario.map)
        };
        let zones = match (&sit.scoring_zone, &sit.scoring_zones) {
            (Some(_), Some(_)) => {
                return Err(SetupError::at("/scoring_zones", "give `scoring_zone` or `scoring_zones`, not both"));
            }
            (Some(z), None) if !board_zone(z) => return Err(SetupError::at("/scoring_zone", no_zone(z))),
            (Some(z), None) => Some(vec![*z]),
            (None, zones) => zones.clone(),
        };
        if let Some(zones) = zones {
            if let Some(k) = zones.iter().position(|z| !board_zone(z)) {
                return Err(SetupError::at(format!("/scoring_zones/{k}"), no_zone(&zones[k])));
            }
            g.state.scoring_zones = zones.into();
        }
        g.place_situation_characters(sit)?;
        g.place_situation_minions(sit)?;
        g.situation_counters(sit, &map_zones)?;
        g.events.clear();
        for p in g.state.players.table().seats() {
            let i = p.index();
            let hand = sit.hands.get(i).cloned().unwrap_or_default();
            if let Some(k) = hand.iter().position(|t| !content.tactics.contains_key(t)) {
                return Err(SetupError::at(
                    format!("/hands/{i}/{k}"),
                    format!("{p}'s hand: no Tactic `{}`{}", hand[k], tactic_hint(content, &hand[k])),
                ));
            }
            g.state.players[p].hand = hand.into();
            g.state.players[p].deck = sit.decks.get(i).map(|d| d.as_slice().into()).unwrap_or_default();
            g.state.players[p].victory_points = sit.victory_points.get(i).copied().unwrap_or(0);
            g.state.players[p].frags = sit.frags.get(i).copied().unwrap_or(0);
        }
        if sit.phase == Phase::Setup {
            g.retrieve_no_from_the_decks();
        }
        g.state.round = sit.round;
        let table = g.state.players.table();
        if !sit.previous_round_vp.is_empty() && sit.round >= 2 {
            g.state.scored = smallvec::SmallVec::from_elem(Seated::splat(table, 0), sit.round as usize - 1);
            for p in table.seats() {
                g.state.scored[sit.round as usize - 2][p] = sit.previous_round_vp.get(p.index()).copied().unwrap_or(0);
            }
        } else if !sit.previous_round_vp.is_empty() {
            return Err(SetupError::at("/previous_round_vp", "`previous_round_vp` needs `round` 2 or more"));
        }
        if !sit.frags_this_round.is_empty() {
            g.state.fragged = smallvec::SmallVec::from_elem(Seated::splat(table, 0), sit.round.max(1) as usize);
            for p in table.seats() {
                g.state.fragged[sit.round.max(1) as usize - 1][p] =
                    sit.frags_this_round.get(p.index()).copied().unwrap_or(0);
            }
        }
        if sit.phase == Phase::RoundStart {
            // `run_round_start` begins Round `round`.
            g.state.round = sit.round.saturating_sub(1);
        }
        g.state.smoke = sit.smoke.iter().map(|t| (Hex::new(t.space[0], t.space[1]), t.character)).collect();
        if let Some(i) = g.state.smoke.iter().position(|(h, _)| !g.board.on_board(*h)) {
            let [q, r] = sit.smoke[i].space;
            return Err(SetupError::at(
                format!("/smoke/{i}/space"),
                format!("Smoke token: [{q}, {r}] is not a space of the HexaDome (radius {})", g.board.radius),
            ));
        }
        g.place_situation_markers(sit)?;
        g.situation_objectives(sit)?;
        if sit.active.is_empty() && sit.phase == Phase::Activation {
            return Err(SetupError::at(
                "/active",
                "`active` names the Character whose Activation is played (phase = \"activation\", the default); \
                 another `phase` needs none",
            ));
        }
        if !sit.active.is_empty() && g.unit(&sit.active).is_none() {
            return Err(SetupError::at(
                "/active",
                format!("the active Character `{}` is not in the situation", sit.active),
            ));
        }
        if !sit.active.is_empty() && g.is_minion(&sit.active) {
            return Err(SetupError::at(
                "/active",
                format!("`{}` is a Minion: Minions have no Activation (their Controller activates them)", sit.active),
            ));
        }
        if sit.round == 0 || sit.round > scenario.rounds {
            return Err(SetupError::at(
                "/round",
                format!("round {} is not a Round of `{}` (1 to {})", sit.round, sit.scenario, scenario.rounds),
            ));
        }
        g.state.active = (!sit.active.is_empty()).then_some(sit.active);
        g.forced.faces = sit.dice.iter().cloned().collect();
        Ok(g)
    }
}

/// Victory Points and Frags within [`MAX_POINTS`], so a typo (or a value
/// near `u32::MAX`) is an error at its line, not a game that wraps round.
fn check_points(sit: &Situation) -> Result<(), SetupError> {
    for (key, values) in [
        ("victory_points", &sit.victory_points),
        ("previous_round_vp", &sit.previous_round_vp),
        ("frags", &sit.frags),
        ("frags_this_round", &sit.frags_this_round),
    ] {
        if let Some(i) = values.iter().position(|v| *v > MAX_POINTS) {
            return Err(SetupError::at(
                format!("/{key}/{i}"),
                format!("`{key}`: {} for player {} is more than {MAX_POINTS}", values[i], i + 1),
            ));
        }
    }
    if let Some(i) = sit.counters.iter().position(|c| c.value > MAX_COUNTER) {
        let c = &sit.counters[i];
        return Err(SetupError::at(
            format!("/counters/{i}/value"),
            format!("counter `{}` on `{}`: {} is more than {MAX_COUNTER}", c.counter, c.on, c.value),
        ));
    }
    Ok(())
}

/// ` (did you mean `x`?)` for a State id near a loaded one.
fn state_hint(content: &Content, id: &str) -> String {
    let known: Vec<&str> = content.states.keys().map(|k| k.as_str()).collect();
    mean(id, &known)
}

/// ` (did you mean `x`?)` for a Tactic id near a loaded one.
fn tactic_hint(content: &Content, id: &str) -> String {
    let known: Vec<&str> = content.tactics.keys().map(|k| k.as_str()).collect();
    mean(id, &known)
}
