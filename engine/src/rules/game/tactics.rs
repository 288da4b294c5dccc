//! Tactics: drawing, which may be played in a window, playing one and its answers (`000 § Tactics`).

use super::*;
use crate::model::Id;

impl<'a> Game<'a> {
    /// `p` draws up to `n` Tactics from the top of their deck. A player whose
    /// deck is empty draws nothing: the discard pile never goes back into a
    /// deck ("Players cannot alter the order of the cards in a discard
    /// pile", `000 § Tactics`; docs/rulings.md R7).
    pub(super) fn draw(&mut self, p: PlayerId, n: u8) {
        let mut drawn = 0;
        for _ in 0..n {
            match self.state.players[p].deck.pop() {
                Some(t) => {
                    self.state.players[p].hand.push(t);
                    drawn += 1;
                }
                None => break,
            }
        }
        let hand = self.state.players[p].hand.len();
        self.emit(Event::TacticsDrawn { player: p, count: drawn, hand });
    }

    /// `p` Discards `count` Tactics from their Hand (`000 § Discarding`): of
    /// their choice (a Decision), or `at_random`: "shuffle your Hand and allow
    /// your opponent to choose one of your Tactics face down", a pick among
    /// cards nobody can tell apart, so each is drawn by the game's seeded RNG
    /// (docs/rulings.md R24). Fewer when the Hand runs out.
    pub(super) fn discard_tactics(&mut self, p: PlayerId, count: u8, at_random: bool) {
        for _ in 0..count {
            let hand = &self.state.players[p].hand;
            if hand.is_empty() {
                break;
            }
            let i = if at_random {
                self.state.rng.random_range(0..hand.len())
            } else {
                let mut options: Vec<Choice> = Vec::new();
                for t in hand {
                    let pick = Choice::Pick { id: *t };
                    if !options.contains(&pick) {
                        options.push(pick);
                    }
                }
                let Choice::Pick { id } = self.decide(p, DecisionKind::Choose, None, "Discard which Tactic?", options)
                else {
                    break;
                };
                let Some(i) = self.state.players[p].hand.iter().position(|t| *t == id) else { break };
                i
            };
            let t = self.state.players[p].hand.remove(i);
            self.state.players[p].discard.push(t);
            let how = if at_random { " at random" } else { "" };
            self.emit(Event::Log { text: format!("{p} Discards {t}{how}") });
        }
    }

    /// Tactics in `p`'s hand that can be played in `window` now: their timing
    /// matches, the engine can run them (they have Lua), and a Character's
    /// Actions Step Tactic is played in that Character's Activation
    /// (`000 § Tactics`: "as long as their conditions are met").
    pub(super) fn playable(&self, p: PlayerId, window: model::Window, active: Option<&str>) -> IdList<8> {
        let mut out = IdList::new();
        for t in &self.state.players[p].hand {
            if out.contains(t) {
                continue;
            }
            let Some(card) = self.content.tactics.get(t) else { continue };
            let c = &card.value;
            let scripted = c.effect.lua.is_some() || c.effect.script.is_some();
            if c.timing != window || !scripted {
                continue;
            }
            let activation_window = matches!(
                window,
                model::Window::ActionsStep
                    | model::Window::ActivationStart
                    | model::Window::ActionsStepEnd
                    | model::Window::StatesStep
            );
            if activation_window && !c.any_character && c.character.is_some() && c.character.as_deref() != active {
                continue;
            }
            out.push(*t);
        }
        out
    }

    /// Tactics of `p` playable in a window about one Character: a Character's
    /// own Tactic only for that Character (Epic Regeneration for Señor Massacre).
    pub(super) fn playable_for(&self, p: PlayerId, window: model::Window, character: &str) -> Vec<Id> {
        self.playable(p, window, None)
            .into_iter()
            .filter(|t| {
                self.content.tactics.get(t).is_none_or(|c| c.value.character.as_deref().is_none_or(|o| o == character))
            })
            .collect()
    }

    /// Play a Tactic: discard it, let the opponent answer with a Tactic that
    /// Nullifies it ("No!", `tactic-played` timing), then run its effect.
    pub(super) fn play_tactic(&mut self, p: PlayerId, tactic: &str, character: &str, target: Option<&str>) {
        self.play_tactic_as(p, tactic, character, target, None);
    }

    /// Play a Tactic as [`Game::play_tactic`]; with `only_die`, played on
    /// another player's Roll with an Advanced Tactics deck (or a Standard
    /// Tactic 009-014 whose timing is not `before-roll`), its Effects are
    /// not applied and only that die is added to the Roll's side, within
    /// the per-Roll limits (`001 § Sterling Forge`, `§ TComm`).
    fn play_tactic_as(
        &mut self,
        p: PlayerId,
        tactic: &str,
        character: &str,
        target: Option<&str>,
        only_die: Option<&str>,
    ) {
        let hand = &mut self.state.players[p].hand;
        let Some(i) = hand.iter().position(|t| t == tactic) else { return };
        let t = hand.remove(i);
        self.state.players[p].discard.push(t);
        self.emit(Event::TacticPlayed { player: p, tactic: t, character: character.into() });
        // "No!" may cancel "any Tactic used by another player" (`001 § No!`):
        // each other player in turn from Prime Time may answer, the first
        // who does plays it (docs/rulings.md R48). With two players, the opponent.
        let answerers: Vec<PlayerId> = if self.table().prime_time() {
            self.table().order_from(self.state.underdog).into_iter().filter(|o| *o != p).collect()
        } else {
            vec![self.table().opponent(p)]
        };
        for opponent in answerers {
            let answers = self.playable(opponent, model::Window::TacticPlayed, None);
            if answers.is_empty() {
                continue;
            }
            let options =
                std::iter::once(Choice::Done).chain(answers.into_iter().map(|a| Choice::Play { tactic: a })).collect();
            if let Choice::Play { tactic: no } =
                self.decide(opponent, DecisionKind::Tactic, None, format!("Answer {t}?"), options)
            {
                // The answer is played like any Tactic (and may be answered in
                // turn); its Lua Nullifies `t` with `game:nullify_tactic`.
                self.effect_frame.answering.push((t, false));
                // Played for one of the answering player's own Characters.
                let mine = {
                    let team = &self.state.players[opponent].team;
                    team.iter().find(|c| self.space_of(c).is_some()).or(team.first()).cloned().unwrap_or_default()
                };
                self.play_tactic(opponent, &no, &mine, Some(character));
                let (_, nullified) = self.effect_frame.answering.pop().unwrap_or_default();
                if nullified {
                    self.emit(Event::Log { text: format!("{t} is Nullified by {no}") });
                    return;
                }
                break;
            }
        }
        if let Some(die) = only_die {
            self.add_support_die(die, &t, character);
            return;
        }
        let text = self.content.tactics.get(&t).map(|c| c.value.effect.text.clone()).unwrap_or_default();
        self.run_effect(&format!("tactic:{t}"), "effect", character, target, None, &text);
    }

    /// One `die` added to the side of the pending Roll the Tactic is played
    /// on, unless the side already holds as many as a Roll may (`000 §
    /// Dice`) or its dice are fixed.
    fn add_support_die(&mut self, die: &str, tactic: &str, character: &str) {
        let limit = self.content.dice.get(die).map_or(0, |d| d.value.max_per_roll as usize);
        let side = self.roll_frame.tactic_side.unwrap_or(Side::Active);
        let locked = self.roll_frame.pool_locked[side as usize];
        let Some(pools) = self.roll_frame.pending_pools.as_mut() else { return };
        let pool = &mut pools[if side == Side::Active { 0 } else { 1 }];
        if !locked && pool.dice.iter().filter(|d| *d == die).count() < limit {
            pool.dice.push(die.into());
            self.emit(Event::Log {
                text: format!("{tactic} adds only its {die} die to {character}'s Roll, none of its other Effects"),
            });
        } else {
            self.emit(Event::Log {
                text: format!("{tactic}'s {die} die is not added to {character}'s Roll: it holds the most a Roll may"),
            });
        }
    }

    /// The Standard Tactics that may support another player's Roll, and the
    /// die each adds if only the die is added: cards 009-014 played as they
    /// are (`001 § Standard Tactics`), or with an Advanced Tactics deck the
    /// cards the deck names, only their die (`001 § Sterling Forge`, `§
    /// TComm`). A Tactic entry is numbered by its `card`, the lower number
    /// of its copies (docs/rulings.md R76).
    fn support_cards(&self, q: PlayerId) -> Vec<(Id, Option<Id>)> {
        const STERLING_FORGE: [u32; 6] = [9, 11, 12, 13, 16, 17];
        const TCOMM: [u32; 6] = [9, 11, 12, 13, 16, 18];
        let advanced = if self.rule(OptionalRule::SterlingForge) {
            Some(STERLING_FORGE)
        } else if self.rule(OptionalRule::Tcomm) {
            Some(TCOMM)
        } else {
            None
        };
        let Some(cards) = advanced else {
            // `001 § Standard Tactics` names the cards, not a timing: "009,
            // 010, 011, 012, 013, and 014 ... may be played to add dice to the
            // Roll of any other player". A `before-roll` card is played as it
            // is; one with another timing (Take Aim 011/012, whose timing is
            // its player's Actions Step) adds its `die` to the Roll
            // (docs/rulings.md R48).
            let before_roll = self.playable(q, model::Window::BeforeRoll, None);
            let mut out: Vec<(Id, Option<Id>)> = Vec::new();
            for t in &self.state.players[q].hand {
                let Some(c) = self.content.tactics.get(t).map(|c| &c.value) else { continue };
                let numbered = c.standard && c.card.is_some_and(|n| (9..=14).contains(&n));
                if !numbered || out.iter().any(|(o, _)| o == t) {
                    continue;
                }
                if before_roll.contains(t) {
                    out.push((*t, None));
                } else if let Some(die) = c.die.filter(|d| self.content.dice.contains_key(d)) {
                    out.push((*t, Some(die)));
                }
            }
            return out;
        };
        let mut out: Vec<(Id, Option<Id>)> = Vec::new();
        for t in &self.state.players[q].hand {
            let Some(c) = self.content.tactics.get(t).map(|c| &c.value) else { continue };
            let numbered = c.standard && c.card.is_some_and(|n| cards.contains(&n));
            let die = c.die.filter(|d| self.content.dice.contains_key(d));
            if numbered && die.is_some() && !out.iter().any(|(o, _)| o == t) {
                out.push((*t, die));
            }
        }
        out
    }

    /// The Tactics step of a Roll (`000 § Simple Rolls`, `§ Face to Face Roll`,
    /// step 1): "both players may play Tactics to modify the Roll". A player
    /// about to roll may play `before-roll` Tactics (and `before-attack-roll`
    /// ones when the Roll is an Attack's); a player whose opponent is about to
    /// roll may play `before-opponent-roll` Tactics. In a Face to Face Roll both
    /// players roll, so both windows are open to each. If both players want to
    /// play, the Underdog chooses who plays first (`000 § When Do Things Happen`).
    pub(super) fn roll_tactics(
        &mut self,
        roller: &str,
        other: Option<&str>,
        roll: RollKind,
        pools: [Pool; 2],
    ) -> [Pool; 2] {
        let Some(roller_owner) = self.unit(roller).map(|u| u.owner) else { return pools };
        // The other side's player: in a 3-4 player game, the owner of the
        // other Character of the Roll (with two players always the opponent).
        let other_owner = other
            .filter(|_| self.table().prime_time())
            .and_then(|o| self.unit(o))
            .map(|u| u.owner)
            .filter(|o| *o != roller_owner)
            .unwrap_or_else(|| self.table().opponent(roller_owner));
        let face_to_face = roll != RollKind::Simple;
        let windows = |p: PlayerId| -> Vec<model::Window> {
            let mut w = Vec::new();
            if p == roller_owner || face_to_face {
                w.push(model::Window::BeforeRoll);
            }
            if p == roller_owner && roll == RollKind::Attack {
                w.push(model::Window::BeforeAttackRoll);
            }
            if p == other_owner || face_to_face {
                w.push(model::Window::BeforeOpponentRoll);
            }
            w
        };
        let playable = |g: &Self, p: PlayerId| -> Vec<Id> {
            let mut out = Vec::new();
            for w in windows(p) {
                for t in g.playable(p, w, None) {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            out
        };
        let mine = playable(self, roller_owner);
        let theirs = playable(self, other_owner);
        if mine.is_empty() && theirs.is_empty() && !self.table().prime_time() {
            return pools;
        }
        // The other player's Character for their Tactics (ctx.self): the other
        // side of the Roll if it is theirs, else (a Simple Roll on an Ally) one
        // of their Characters in the HexaDome.
        let theirs_self: Id = other
            .filter(|o| self.unit(o).is_some_and(|u| u.owner == other_owner))
            .map(Id::from)
            .or_else(|| {
                let team = &self.state.players[other_owner].team;
                team.iter().find(|c| self.space_of(c).is_some()).or(team.first()).cloned()
            })
            .unwrap_or_default();
        self.roll_frame.pending_pools = Some(pools);
        let mut order = [roller_owner, other_owner];
        if !mine.is_empty() && !theirs.is_empty() {
            let underdog = self.state.underdog;
            let options: Vec<Choice> = order.iter().map(|p| Choice::Text { text: format!("{p} first") }).collect();
            if self.decide(underdog, DecisionKind::Tactic, None, "Who plays Tactics first?", options.clone())
                != options[0]
            {
                order = [other_owner, roller_owner];
            }
        }
        for p in order {
            let side = if p == roller_owner { Side::Active } else { Side::Opponent };
            let (me, them) = if p == roller_owner { (roller, other) } else { (theirs_self.as_str(), Some(roller)) };
            for _ in 0..8 {
                let mut playable = playable(self, p);
                playable.retain(|t| self.tactic_condition(t, me));
                if playable.is_empty() {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } =
                    self.decide(p, DecisionKind::Tactic, Some(me), "Play a Tactic before the Roll?", options)
                else {
                    break;
                };
                self.roll_frame.tactic_side = Some(side);
                self.play_tactic(p, &tactic, me, them);
                self.roll_frame.tactic_side = None;
            }
        }
        if self.table().prime_time() {
            self.supporting_tactics(roller, other, roll, [roller_owner, other_owner]);
        }
        self.roll_frame.pending_pools.take().unwrap_or_default()
    }

    /// `001 § Standard Tactics`: "Standard Tactics 009, 010, 011, 012, 013,
    /// and 014 of the Basic box may be played to add dice to the Roll of any
    /// other player ... The limit on the amount of orange, blue, and yellow
    /// dice must be respected at all times." The players of a 3-4 player
    /// game who are on neither side of the Roll, in turn from Prime Time,
    /// may play their Standard Tactics with cards 9-14 on either side: a
    /// `before-roll` one as it is (`add_die` keeps the per-Roll limits), one
    /// of another timing (Take Aim) by adding its `die` to that side's pool
    /// (docs/rulings.md R48). With an Advanced Tactics deck, the deck's cards instead, only
    /// their die ([`Game::support_cards`]).
    fn supporting_tactics(&mut self, roller: &str, other: Option<&str>, roll: RollKind, rolling: [PlayerId; 2]) {
        let sides: Vec<(Side, Id, Option<Id>)> = match other {
            Some(o) if roll != RollKind::Simple => {
                vec![(Side::Active, roller.into(), Some(o.into())), (Side::Opponent, o.into(), Some(roller.into()))]
            }
            _ => vec![(Side::Active, roller.into(), other.map(Id::from))],
        };
        let supporters: Vec<PlayerId> =
            self.table().order_from(self.state.underdog).into_iter().filter(|p| !rolling.contains(p)).collect();
        for q in supporters {
            for _ in 0..8 {
                let support = self.support_cards(q);
                let playable: Vec<Id> = support.iter().map(|(t, _)| *t).collect();
                if playable.is_empty() {
                    break;
                }
                let mut options = vec![Choice::Done];
                for t in &playable {
                    for (_, who, _) in &sides {
                        options.push(Choice::Text { text: format!("play {t} on {who}'s Roll") });
                    }
                }
                let pick =
                    self.decide(q, DecisionKind::Tactic, None, "Add dice to another player's Roll?", options.clone());
                let Some(i) = options.iter().position(|o| *o == pick).filter(|i| *i > 0) else { break };
                let (t, (side, who, them)) = (&playable[(i - 1) / sides.len()], &sides[(i - 1) % sides.len()]);
                let die = support[(i - 1) / sides.len()].1;
                self.roll_frame.tactic_side = Some(*side);
                self.play_tactic_as(q, &t.clone(), &who.clone(), them.clone().as_deref(), die.as_deref());
                self.roll_frame.tactic_side = None;
            }
        }
    }

    /// The `after-roll` window: "After making a Roll", before the Critical
    /// Block step, a rolling player may play Tactics that change their own
    /// rolled Roll (Fortune favors the Badass). In a Face to Face Roll both
    /// players rolled; if both want to play, the Underdog chooses who plays
    /// first (`000 § When Do Things Happen`).
    pub(super) fn after_roll_tactics(
        &mut self,
        ftf: &mut FaceToFace,
        active: &str,
        other: Option<&str>,
        both_rolled: bool,
    ) {
        let owner = |g: &Self, id: &str| g.unit(id).map(|u| u.owner);
        let Some(a) = owner(self, active) else { return };
        // (player, side, roller, the other roller): two at most, kept in place.
        type Roller = (PlayerId, Side, Id, Option<Id>);
        let mut sides: SmallVec<[Roller; 2]> =
            smallvec::smallvec![(a, Side::Active, Id::from(active), other.map(Id::from))];
        // The other side of a Face to Face Roll is the player who owns the
        // other roller (`000 § Face to Face Roll`: "both players" are the two
        // who roll), not the active player's left neighbour at a 3-4 player
        // table (`001 § Standard Tactics`: the others only add dice before).
        if let (true, Some(o)) = (both_rolled, other) {
            let b = owner(self, o).filter(|b| *b != a).unwrap_or_else(|| self.table().opponent(a));
            sides.push((b, Side::Opponent, Id::from(o), Some(Id::from(active))));
        }
        // The rollers' own `after-roll` Automatic Skills first, on their side.
        for (_, side, who, them) in sides.clone() {
            let has = self.card(&who).automatic_skills.iter().any(|k| k.timing == Some(model::Window::AfterRoll));
            if has {
                self.roll_frame.roll =
                    Some(RollCtx { roll: ftf.clone(), side, rollers: [who, them.unwrap_or_else(|| Id::new(""))] });
                self.automatic_skills(&who, model::Window::AfterRoll, them.as_deref(), None);
                if let Some(rc) = self.roll_frame.roll.take() {
                    *ftf = rc.roll;
                }
            }
        }
        sides.retain(|(p, ..)| !self.playable(*p, model::Window::AfterRoll, None).is_empty());
        if sides.len() == 2 {
            let options: Vec<Choice> =
                sides.iter().map(|(p, ..)| Choice::Text { text: format!("{p} first") }).collect();
            let first = self.decide(
                self.state.underdog,
                DecisionKind::Tactic,
                None,
                "Who plays Tactics first?",
                options.clone(),
            );
            if first != options[0] {
                sides.swap(0, 1);
            }
        }
        for (p, side, who, them) in sides {
            for _ in 0..8 {
                let mut playable = self.playable(p, model::Window::AfterRoll, None);
                playable.retain(|t| self.tactic_condition(t, &who));
                if playable.is_empty() {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } =
                    self.decide(p, DecisionKind::Tactic, Some(&who), "Play a Tactic after the Roll?", options)
                else {
                    break;
                };
                self.roll_frame.roll =
                    Some(RollCtx { roll: ftf.clone(), side, rollers: [who, them.unwrap_or_else(|| Id::new(""))] });
                self.play_tactic(p, &tactic, &who, them.as_deref());
                if let Some(rc) = self.roll_frame.roll.take() {
                    *ftf = rc.roll;
                }
            }
        }
    }
}
