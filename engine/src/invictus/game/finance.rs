//! `003 § Financial Transactions`: pay from hand, announce purchases and
//! destructions, complete them; no change; Prisma cards are never split
//! with abilities. What is bought goes where `§ What Do I Do With My
//! Purchased Items?` says.

use super::*;
use crate::invictus::decision::Purchase;
use crate::invictus::state::{HeldBoost, OwnedReinforcement, Token};
use crate::model::{ArtifactUse, BoostColour, BoostTiming, Skill};

impl<'a, 'c> Game<'a, 'c> {
    /// The Prisma a card is worth as currency (0 if not Prisma).
    fn prisma(&self, c: &Card) -> u32 {
        match c {
            Card::Artifact(id) => {
                self.artifact(id).filter(|a| a.use_ == ArtifactUse::Prisma).and_then(|a| a.prisma).unwrap_or(0) as u32
            }
            Card::Counterfeit(_) => 0,
        }
    }

    /// The price of an item for `p` (`None`: not for sale to `p` now).
    pub(crate) fn price(&self, p: PlayerId, item: &Purchase, announced: &[Purchase]) -> Option<u32> {
        let me = self.state.player(p);
        let count = |f: &dyn Fn(&Purchase) -> bool| announced.iter().filter(|x| f(x)).count();
        match item {
            Purchase::Artifact { id } => {
                // A linear scan of a dozen piles: interned ids compare by address.
                let left = *self.state.piles.iter().find(|(k, _)| *k == id)?.1 as usize;
                let taken = count(&|x| matches!(x, Purchase::Artifact { id: i } if i == id));
                (left > taken).then_some(())?;
                self.artifact(id)?.purchase_price.map(u32::from)
            }
            Purchase::Boost => {
                let taken = count(&|x| *x == Purchase::Boost);
                (self.state.boost_deck.len() > taken).then_some(self.market.boost_price as u32)
            }
            Purchase::Reinforcement => {
                let taken = count(&|x| matches!(x, Purchase::Reinforcement | Purchase::ReplaceReinforcement));
                let ok = me.reinforcements.len() + taken < self.market.max_reinforcements as usize
                    && self.state.reinforcement_deck.len() > taken;
                ok.then_some(self.market.reinforcement_price as u32)
            }
            Purchase::ReplaceReinforcement => {
                let taken = count(&|x| matches!(x, Purchase::Reinforcement | Purchase::ReplaceReinforcement));
                let ok = taken == 0
                    && me.reinforcements.len() >= self.market.max_reinforcements as usize
                    && !self.state.reinforcement_deck.is_empty();
                ok.then_some(self.market.reinforcement_replace_price as u32)
            }
            Purchase::Token { skill, colour } => {
                let track = self.content.skill_tracks.values().find(|t| t.value.skill == *skill)?;
                let bought = me.tokens.get(skill).map_or(0, |t| t.iter().filter(|t| !t.from_reinforcement).count());
                let taken = count(&|x| matches!(x, Purchase::Token { skill: s, .. } if s == skill));
                let tier = bought + taken; // index of the next placeholder (0 = 1st)
                let price = track.value.tiers.get(tier)?.price?;
                if *skill == Skill::Accuracy {
                    let c = (*colour)?;
                    let owned = me.tokens.get(skill).is_some_and(|t| t.iter().any(|t| t.colour == Some(c)));
                    let again = announced.contains(item);
                    (!owned && !again && c != BoostColour::Wild).then_some(())?;
                } else if colour.is_some() {
                    return None;
                }
                Some(price as u32)
            }
            Purchase::Destroy { card } => {
                let have = me.hand.iter().filter(|c| c.id() == card).count();
                let taken = count(&|x| matches!(x, Purchase::Destroy { card: c } if c == card));
                (have > taken).then_some(())?;
                let price = match me.hand.iter().find(|c| c.id() == card)? {
                    Card::Artifact(id) => self.artifact(id)?.destroy_price?,
                    Card::Counterfeit(b) => self.boost(&b.id)?.destroy_price?,
                };
                Some(price as u32)
            }
        }
    }

    /// The Prisma cards `p` can pay with (hand index, Prisma), leaving out
    /// cards announced for destruction: at most 16 of them, the ones
    /// [`Game::payment`] chooses among.
    fn payable(&self, p: PlayerId, announced: &[Purchase]) -> Vec<(usize, u32)> {
        let hand = &self.state.player(p).hand;
        let mut excluded = vec![false; hand.len()];
        for a in announced {
            if let Purchase::Destroy { card } = a {
                if let Some(i) = (0..hand.len()).find(|i| !excluded[*i] && hand[*i].id() == card) {
                    excluded[i] = true;
                }
            }
        }
        let mut cards: Vec<(usize, u32)> =
            (0..hand.len()).filter(|i| !excluded[*i]).map(|i| (i, self.prisma(&hand[i]))).filter(|x| x.1 > 0).collect();
        cards.truncate(16);
        cards
    }

    /// What `announced` costs in all, each item priced after those announced
    /// before it (the second skill token of a track at the next tier's
    /// price), if every item is for sale and the hand can pay it. The one
    /// price of a transaction: what is offered ([`Game::affordable`]) and what
    /// is completed ([`Game::complete_transaction`]) both ask it.
    pub(crate) fn total_price(&self, p: PlayerId, announced: &[Purchase]) -> Result<u32, String> {
        let mut total = 0;
        for (i, item) in announced.iter().enumerate() {
            let Some(price) = self.price(p, item, &announced[..i]) else {
                return Err(format!("{item} is not for sale to {} after {} other items", self.name(p), i));
            };
            total += price;
        }
        let budget: u32 = self.payable(p, announced).iter().map(|c| c.1).sum();
        if total > budget {
            return Err(format!("{} has {budget} Prisma to pay {total} with", self.name(p)));
        }
        Ok(total)
    }

    /// Every item `p` could add to a transaction that announces `announced`
    /// such that the whole transaction can still be completed.
    pub(crate) fn affordable(&self, p: PlayerId, announced: &[Purchase]) -> Vec<Purchase> {
        if self.payable(p, announced).is_empty() {
            return Vec::new();
        }
        let me = self.state.player(p);
        let mut items: Vec<Purchase> = self.state.piles.keys().map(|id| Purchase::Artifact { id: *id }).collect();
        items.push(Purchase::Boost);
        items.push(Purchase::Reinforcement);
        items.push(Purchase::ReplaceReinforcement);
        items.push(Purchase::Token { skill: Skill::Stamina, colour: None });
        items.push(Purchase::Token { skill: Skill::Range, colour: None });
        for c in BoostColour::COLOURS {
            items.push(Purchase::Token { skill: Skill::Accuracy, colour: Some(c) });
        }
        let mut seen: Vec<&str> = Vec::new();
        for c in &me.hand {
            if !seen.contains(&c.id()) {
                seen.push(c.id());
                items.push(Purchase::Destroy { card: c.id().into() });
            }
        }
        // What `total_price(announced + [item])` decides, in one pass: the
        // items announced are priced once (each after those before it), the
        // hand's Prisma counted once; only a destruction changes what can pay.
        let mut spent: u32 = 0;
        for (i, item) in announced.iter().enumerate() {
            match self.price(p, item, &announced[..i]) {
                Some(price) => spent += price,
                None => return Vec::new(),
            }
        }
        let budget: u32 = self.payable(p, announced).iter().map(|c| c.1).sum();
        let mut with = announced.to_vec();
        items
            .into_iter()
            .filter(|i| {
                let Some(price) = self.price(p, i, announced) else { return false };
                let budget = if matches!(i, Purchase::Destroy { .. }) {
                    with.push(i.clone());
                    let b = self.payable(p, &with).iter().map(|c| c.1).sum();
                    with.pop();
                    b
                } else {
                    budget
                };
                spent + price <= budget
            })
            .collect()
    }

    /// The Prisma cards (hand indices) that pay `amount` with the least
    /// excess, then the fewest cards; none of the cards to be destroyed.
    fn payment(&self, p: PlayerId, amount: u32, announced: &[Purchase]) -> Option<Vec<usize>> {
        let cards = self.payable(p, announced);
        let mut best: Option<(u32, usize, u32)> = None;
        for mask in 1u32..(1 << cards.len()) {
            let total: u32 = (0..cards.len()).filter(|k| mask & (1 << k) != 0).map(|k| cards[k].1).sum();
            if total < amount {
                continue;
            }
            let key = (total - amount, mask.count_ones() as usize, mask);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        let (_, _, mask) = best?;
        Some((0..cards.len()).filter(|k| mask & (1 << k) != 0).map(|k| cards[k].0).collect())
    }

    /// A financial transaction that begins with `first`: announce more items,
    /// then pay and complete them in the order announced. Only what can be
    /// completed is offered, so it completes.
    pub(crate) fn transaction(&mut self, p: PlayerId, first: Purchase) {
        let mut announced = vec![first];
        loop {
            let mut options: Vec<Choice> =
                self.affordable(p, &announced).into_iter().map(|purchase| Choice::Add { purchase }).collect();
            if options.is_empty() {
                break;
            }
            options.push(Choice::Complete);
            match self.ask(p, DecisionKind::Transaction, "add to the transaction, or pay?", options) {
                Choice::Add { purchase } => announced.push(purchase),
                _ => break,
            }
        }
        if let Err(why) = self.complete_transaction(p, announced) {
            // Not reached by what is offered; said rather than dropped.
            self.emit(Event::Log { text: format!("the transaction cannot be completed: {why}") });
        }
    }

    /// Pay for and complete announced items (the three steps of
    /// `003 § What Are the Steps to Completing a Financial Transaction?`),
    /// priced by [`Game::total_price`].
    ///
    /// # Errors
    /// An item is not for sale in that order, or the hand cannot pay: nothing
    /// is paid or completed.
    pub fn complete_transaction(&mut self, p: PlayerId, announced: Vec<Purchase>) -> Result<(), String> {
        let spent = self.total_price(p, &announced)?;
        let mut pay =
            self.payment(p, spent, &announced).ok_or_else(|| format!("{} cannot pay {spent} Prisma", self.name(p)))?;
        // 1. Payment from hand to the discard pile.
        let mut paid = 0;
        pay.sort_unstable_by(|a, b| b.cmp(a));
        for i in pay {
            let c = self.state.player_mut(p).hand.remove(i);
            paid += self.prisma(&c);
            self.state.player_mut(p).discard.push(c);
        }
        // 2. Announcement.
        let items = announced.iter().map(ToString::to_string).collect();
        self.emit(Event::Transaction { god: self.name(p), paid, spent, items });
        // 3. Completion, destructions first.
        let (destroy, buy): (Vec<Purchase>, Vec<Purchase>) =
            announced.into_iter().partition(|a| matches!(a, Purchase::Destroy { .. }));
        for a in destroy.into_iter().chain(buy) {
            if self.state.outcome.is_some() {
                break;
            }
            self.complete_item(p, a);
        }
        Ok(())
    }

    fn complete_item(&mut self, p: PlayerId, item: Purchase) {
        match item {
            Purchase::Destroy { card } => {
                if let Some(Card::Counterfeit(b)) = self.remove_from_hand(p, &card) {
                    self.state.boost_discard.push(b);
                }
            }
            Purchase::Artifact { id } => {
                if let Some(n) = self.state.piles.get_mut(&id) {
                    *n -= 1;
                }
                self.state.player_mut(p).discard.push(Card::Artifact(id));
            }
            Purchase::Boost => self.buy_boost(p),
            Purchase::Reinforcement => {
                if let Some(r) = self.state.reinforcement_deck.pop() {
                    self.gain_reinforcement(p, r);
                }
            }
            Purchase::ReplaceReinforcement => {
                if let Some(r) = self.state.reinforcement_deck.pop() {
                    self.gain_reinforcement(p, r);
                    let options = self
                        .state
                        .player(p)
                        .reinforcements
                        .iter()
                        .map(|r| Choice::Discard { reinforcement: r.id })
                        .collect();
                    let q = "which Reinforcement do you discard?";
                    if let Choice::Discard { reinforcement } =
                        self.ask(p, DecisionKind::DiscardReinforcement, q, options)
                    {
                        self.lose_reinforcement(p, &reinforcement);
                    }
                }
            }
            Purchase::Token { skill, colour } => self.gain_token(p, skill, colour, false),
        }
    }

    /// A bought Boost: to the hand, or played at once if Immediately; a Team
    /// Symbol Boost in a game without teams is discarded and another drawn
    /// (`003 § Boosts`, ruling I7). The last one exposes the Apocalypse,
    /// after an Immediately Boost's effect (`003 § The Apocalypse`).
    fn buy_boost(&mut self, p: PlayerId) {
        loop {
            let Some(card) = self.state.boost_deck.pop() else { return };
            let Some(boost) = self.boost(&card.id) else { return };
            if boost.team && !self.state.team_game && !self.state.boost_deck.is_empty() {
                self.state.boost_discard.push(card);
                continue;
            }
            if boost.timing == BoostTiming::Immediately {
                self.emit(Event::BoostPlayed { god: self.name(p), boost: card.id });
                if boost.counterfeit {
                    self.state.player_mut(p).hand.push(Card::Counterfeit(card));
                } else {
                    self.state.boost_discard.push(card.clone());
                    self.run_effect(p, &format!("boost:{}", card.id), "effect", None);
                }
            } else {
                let turn = self.state.turn;
                self.state.player_mut(p).boosts.push(HeldBoost { card, obtained_turn: turn });
            }
            break;
        }
        if self.state.boost_deck.is_empty() {
            self.apocalypse();
        }
    }

    /// A skill token on the next placeholder; an Accuracy token in a colour
    /// not owned. Stamina tokens count at once (ruling I8).
    pub(crate) fn gain_token(
        &mut self,
        p: PlayerId,
        skill: Skill,
        colour: Option<BoostColour>,
        from_reinforcement: bool,
    ) {
        let colour = if skill == Skill::Accuracy {
            let owned = self.state.accuracy(p);
            colour.or_else(|| BoostColour::COLOURS.into_iter().find(|c| !owned.contains(c)))
        } else {
            None
        };
        let tokens = self.state.player_mut(p).tokens.entry(skill).or_default();
        if tokens.len() >= 4 || (skill == Skill::Accuracy && colour.is_none()) {
            return;
        }
        tokens.push(Token { active: true, colour, from_reinforcement });
        if skill == Skill::Stamina {
            let step = self.market.stamina_step as i32;
            let max = self.market.max_stamina as i32;
            let player = self.state.player_mut(p);
            player.stamina = (player.stamina + step).min(max);
        }
        self.emit(Event::Token { god: self.name(p), skill: skill.as_str().into(), active: true });
    }

    /// Own a Reinforcement: its 4th-tier token, then its effect
    /// ("Reinforcements take effect immediately").
    pub(crate) fn gain_reinforcement(&mut self, p: PlayerId, id: Id) {
        self.state.player_mut(p).reinforcements.push(OwnedReinforcement { id: id.as_str().into(), hits: 0 });
        self.emit(Event::ReinforcementGained { god: self.name(p), reinforcement: id.as_str().into() });
        let r = self.content.reinforcements.get(id.as_str()).map(|e| &e.value);
        if let Some(skill) = r.and_then(|r| r.skill_tier) {
            let has = self.state.player(p).tokens.get(&skill).is_some_and(|t| t.iter().any(|t| t.from_reinforcement));
            if !has {
                self.gain_token(p, skill, None, true);
            }
        }
        self.run_effect(p, &format!("reinforcement:{id}"), "effect", None);
    }

    /// Lose a Reinforcement to its discard pile, with its token.
    pub(crate) fn lose_reinforcement(&mut self, p: PlayerId, id: &str) {
        let player = self.state.player_mut(p);
        let Some(i) = player.reinforcements.iter().position(|r| r.id == id) else { return };
        player.reinforcements.remove(i);
        self.state.reinforcement_discard.push(id.into());
        self.emit(Event::ReinforcementLost { owner: self.name(p), reinforcement: id.into() });
        let skill = self.content.reinforcements.get(id).and_then(|r| r.value.skill_tier);
        if let Some(skill) = skill {
            let still = self
                .state
                .player(p)
                .reinforcements
                .iter()
                .any(|r| self.content.reinforcements.get(&r.id).and_then(|e| e.value.skill_tier) == Some(skill));
            if !still {
                if let Some(t) = self.state.player_mut(p).tokens.get_mut(&skill) {
                    t.retain(|t| !t.from_reinforcement);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invictus::game::InvictusSetup;
    use crate::players::RandomPlayer;
    use std::path::{Path, PathBuf};

    /// `affordable` by its definition: every item whose addition leaves a
    /// transaction `total_price` accepts.
    fn affordable_by_definition(g: &Game<'_, '_>, p: PlayerId, announced: &[Purchase]) -> Vec<Purchase> {
        let mut with = announced.to_vec();
        let mut all: Vec<Purchase> = g.state.piles.keys().map(|id| Purchase::Artifact { id: *id }).collect();
        all.extend([Purchase::Boost, Purchase::Reinforcement, Purchase::ReplaceReinforcement]);
        all.push(Purchase::Token { skill: Skill::Stamina, colour: None });
        all.push(Purchase::Token { skill: Skill::Range, colour: None });
        all.extend(BoostColour::COLOURS.map(|c| Purchase::Token { skill: Skill::Accuracy, colour: Some(c) }));
        let mut seen = Vec::new();
        for c in &g.state.player(p).hand {
            if !seen.contains(&c.id()) {
                seen.push(c.id());
                all.push(Purchase::Destroy { card: c.id().into() });
            }
        }
        if g.payable(p, announced).is_empty() {
            return Vec::new();
        }
        all.into_iter()
            .filter(|i| {
                with.push(i.clone());
                let ok = g.total_price(p, &with).is_ok();
                with.pop();
                ok
            })
            .collect()
    }

    /// `003 § Financial Transactions`: what is offered to add to a
    /// transaction is what its one price accepts, at every turn of 12
    /// seeded games at 4 and 6 seats, for every player, with nothing
    /// announced and after each first item.
    #[test]
    fn the_items_offered_are_those_the_transactions_price_accepts() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let loaded = crate::load::load(&[PathBuf::from(&root)], &crate::load::Options::default());
        let content = std::sync::Arc::new(loaded.content.clone());
        let runtime = crate::sim::invictus::runtime(content.clone(), loaded.script_set.clone()).unwrap();
        let mut checked = 0;
        for seats in [4, 6] {
            for seed in 1..=6 {
                let controllers: Vec<Box<dyn crate::invictus::Controller>> =
                    (0..seats).map(|s| Box::new(RandomPlayer::new(seed * 10 + s as u64)) as _).collect();
                let mut g =
                    Game::new(&content, Some(&runtime), &InvictusSetup::teams(seats), seed, controllers).unwrap();
                for _ in 0..60 {
                    for p in g.state.players.iter().map(|pl| pl.seat).collect::<Vec<_>>() {
                        let offered = g.affordable(p, &[]);
                        assert_eq!(offered, affordable_by_definition(&g, p, &[]), "seed {seed}, {seats} seats");
                        for first in offered.iter().take(6) {
                            let announced = [first.clone()];
                            assert_eq!(g.affordable(p, &announced), affordable_by_definition(&g, p, &announced));
                            checked += 1;
                        }
                    }
                    if g.play_next_turn().is_some() {
                        break;
                    }
                }
            }
        }
        assert!(checked > 200, "only {checked} transactions were compared");
    }
}
