//! Rolls: Simple and Face to Face, step by step (`000 § Simple Rolls`,
//! `§ Face to Face Roll`, `§ Critical Block`, `§ Critical Success`, `§ Switches`,
//! `§ Stunned`, `§ Nullifying Dice`).
//!
//! Pure data: no dice are rolled here (the game rolls them with its seeded RNG,
//! or a situation file forces the faces) and no choice is made here (the game
//! asks its controllers). The caller walks the steps in order:
//!
//! 1. build each side from its rolled faces ([`SideRoll::rolled`]) and added symbols;
//! 2. Critical Block: [`FaceToFace::use_critical_block`] nullifies one die of the
//!    opponent, or the Critical Block is kept;
//! 3. [`FaceToFace::close_dice`]: the dice are set; Stunned Nullifies a Success;
//! 4. Switches, side by side in the order the active player chose:
//!    [`Tally::pay`] spends symbols (a Critical counts as two), effects
//!    [`Tally::add`] or [`Tally::nullify`] symbols;
//! 5. [`FaceToFace::results`]: each Block cancels one opposing Success (never a
//!    Critical Success); a kept Critical Block counts as one Block; what is left
//!    inflicts Damage in an Attack.

use crate::model::{Id, Symbol};
use serde::Serialize;
use smallvec::SmallVec;

/// One element of a Roll: a rolled die, or a symbol added "as if it were the
/// result of an additional imaginary die" (`000 § Dice`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RolledDie {
    /// The die's id, or `None` for an added symbol.
    pub die: Option<Id>,
    /// The symbols on the face that came up (empty for a blank face), kept in
    /// place (a face has at most a few), so copying a Roll for an effect's
    /// undo allocates nothing for them.
    pub symbols: SmallVec<[Symbol; 4]>,
    /// Nullified dice are removed from the Roll (`000 § Nullifying Dice`).
    pub nullified: bool,
}

/// Symbol counts of one side after its dice are set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Successes.
    pub success: u32,
    /// Blocks.
    pub block: u32,
    /// Specials.
    pub special: u32,
    /// Critical Successes: uncancellable; two Successes when paying Switches.
    pub critical_success: u32,
    /// Critical Blocks kept (not used to Nullify a die): one Block in the
    /// results, two Blocks when paying Switches.
    pub critical_block: u32,
}

impl Tally {
    /// Count the symbols of the dice that are not nullified.
    pub fn of(dice: &[RolledDie]) -> Tally {
        let mut t = Tally::default();
        for d in dice.iter().filter(|d| !d.nullified) {
            for s in &d.symbols {
                t.add(*s, 1);
            }
        }
        t
    }

    /// How many of a symbol.
    pub fn count(&self, s: Symbol) -> u32 {
        match s {
            Symbol::Success => self.success,
            Symbol::Block => self.block,
            Symbol::Special => self.special,
            Symbol::CriticalSuccess => self.critical_success,
            Symbol::CriticalBlock => self.critical_block,
        }
    }

    fn slot(&mut self, s: Symbol) -> &mut u32 {
        match s {
            Symbol::Success => &mut self.success,
            Symbol::Block => &mut self.block,
            Symbol::Special => &mut self.special,
            Symbol::CriticalSuccess => &mut self.critical_success,
            Symbol::CriticalBlock => &mut self.critical_block,
        }
    }

    /// Add symbols, as a Switch or Tactic that "adds a Success" does.
    pub fn add(&mut self, s: Symbol, n: u32) {
        *self.slot(s) += n;
    }

    /// Nullify one symbol (`000 § Nullifying Dice`: an added symbol may be
    /// Nullified like a die). Returns false when there is none.
    pub fn nullify(&mut self, s: Symbol) -> bool {
        let slot = self.slot(s);
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        true
    }

    /// Whether a Switch cost can be paid: plain symbols first, then Criticals at
    /// two symbols each (`000 § Critical Success`, `§ Critical Block`).
    pub fn can_pay(&self, cost: &[Symbol]) -> bool {
        let mut t = *self;
        t.pay(cost)
    }

    /// Pay a Switch cost. Plain symbols are spent first; when they run short a
    /// Critical of the same kind is broken into two, one paid and the other kept
    /// as a plain symbol. On `false` nothing was spent.
    pub fn pay(&mut self, cost: &[Symbol]) -> bool {
        let mut t = *self;
        for s in cost {
            let ok = match s {
                Symbol::Success => t.spend_plain(Symbol::Success, Symbol::CriticalSuccess),
                Symbol::Block => t.spend_plain(Symbol::Block, Symbol::CriticalBlock),
                other => t.nullify(*other),
            };
            if !ok {
                return false;
            }
        }
        *self = t;
        true
    }

    fn spend_plain(&mut self, plain: Symbol, critical: Symbol) -> bool {
        if self.nullify(plain) {
            return true;
        }
        if self.nullify(critical) {
            // Worth two: one pays, the other is left as a plain symbol.
            self.add(plain, 2);
            return self.nullify(plain);
        }
        false
    }

    /// Blocks for the results step: Blocks plus kept Critical Blocks, one each.
    pub fn blocks(&self) -> u32 {
        self.block + self.critical_block
    }

    /// The symbols as a list, in a fixed order (Critical Success, Success,
    /// Critical Block, Block, Special).
    pub fn symbols(&self) -> Vec<Symbol> {
        let mut v = Vec::new();
        for (s, n) in [
            (Symbol::CriticalSuccess, self.critical_success),
            (Symbol::Success, self.success),
            (Symbol::CriticalBlock, self.critical_block),
            (Symbol::Block, self.block),
            (Symbol::Special, self.special),
        ] {
            v.extend(std::iter::repeat_n(s, n as usize));
        }
        v
    }
}

/// One side of a Roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SideRoll {
    /// The dice and added symbols, as rolled (kept in place up to six).
    pub dice: SmallVec<[RolledDie; 6]>,
    /// The symbols once the dice are set (after the Critical Block step).
    pub tally: Tally,
}

impl SideRoll {
    /// A side from its rolled dice `(die id, face)` and its added symbols.
    pub fn rolled(dice: Vec<(Id, Vec<Symbol>)>, added: &[Symbol]) -> SideRoll {
        let mut all: SmallVec<[RolledDie; 6]> = dice
            .into_iter()
            .map(|(d, symbols)| RolledDie { die: Some(d), symbols: symbols.into(), nullified: false })
            .collect();
        all.extend(added.iter().map(|s| RolledDie { die: None, symbols: smallvec::smallvec![*s], nullified: false }));
        let tally = Tally::of(&all);
        SideRoll { dice: all, tally }
    }

    /// Whether this side rolled a Critical Block it still holds.
    pub fn has_critical_block(&self) -> bool {
        self.tally.critical_block > 0
    }
}

/// Which side of a Face to Face Roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Side {
    /// The active Character's side (the Attacker, or the Character Disengaging).
    Active,
    /// The other side (the Defender, or the Enemy contesting the Disengage).
    Opponent,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Active => Side::Opponent,
            Side::Opponent => Side::Active,
        }
    }
}

/// A Face to Face Roll in progress (`000 § Face to Face Roll`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaceToFace {
    /// The active side.
    pub active: SideRoll,
    /// The opposing side.
    pub opponent: SideRoll,
}

/// The outcome of a Face to Face Roll's results step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Results {
    /// Each side's symbols going into the results step (after Critical Block and Switches).
    pub active: Tally,
    /// The opponent's.
    pub opponent: Tally,
    /// What is left of each side once Blocks have cancelled opposing Successes
    /// (the Blocks that cancelled are used up).
    pub active_final: Tally,
    /// The opponent's.
    pub opponent_final: Tally,
    /// Successes of the active side that the opponent's Blocks did not cancel.
    pub active_successes: u32,
    /// Successes of the opponent that the active side's Blocks did not cancel.
    pub opponent_successes: u32,
}

impl FaceToFace {
    /// A Roll from both sides.
    pub fn new(active: SideRoll, opponent: SideRoll) -> Self {
        FaceToFace { active, opponent }
    }

    /// A side.
    pub fn side(&self, s: Side) -> &SideRoll {
        match s {
            Side::Active => &self.active,
            Side::Opponent => &self.opponent,
        }
    }

    /// A side, to change.
    pub fn side_mut(&mut self, s: Side) -> &mut SideRoll {
        match s {
            Side::Active => &mut self.active,
            Side::Opponent => &mut self.opponent,
        }
    }

    /// The opponent's dice `side`'s Critical Block may Nullify: every die or
    /// added symbol not already nullified (`000 § Critical Block`).
    pub fn critical_block_targets(&self, side: Side) -> Vec<usize> {
        if !self.side(side).has_critical_block() {
            return Vec::new();
        }
        self.side(side.other()).dice.iter().enumerate().filter(|(_, d)| !d.nullified).map(|(i, _)| i).collect()
    }

    /// Critical Block step: `side` spends its Critical Block to Nullify die
    /// `index` of the opponent. Returns false (and changes nothing) if it cannot.
    pub fn use_critical_block(&mut self, side: Side, index: usize) -> bool {
        if !self.critical_block_targets(side).contains(&index) {
            return false;
        }
        self.side_mut(side).tally.critical_block -= 1;
        let opp = self.side_mut(side.other());
        opp.dice[index].nullified = true;
        opp.tally = Tally::of(&opp.dice);
        true
    }

    /// An Effect Nullifies die `index` (from 0; an added symbol counts as a die)
    /// of `side`: the die leaves the Roll and its symbols are ignored (`000 §
    /// Nullifying Dice`). Symbols of it already spent on a Switch stay spent.
    /// Returns false (and changes nothing) when there is no such die or it is
    /// already Nullified.
    pub fn nullify_die(&mut self, side: Side, index: usize) -> bool {
        let s = self.side_mut(side);
        let Some(die) = s.dice.get_mut(index) else { return false };
        if die.nullified {
            return false;
        }
        die.nullified = true;
        let symbols = die.symbols.clone();
        for sym in symbols {
            s.tally.nullify(sym);
        }
        true
    }

    /// Results step (`000 § Face to Face Roll`, step 5).
    pub fn results(&self) -> Results {
        let (a, o) = (self.active.tally, self.opponent.tally);
        let a_cancelled = a.success.min(o.blocks());
        let o_cancelled = o.success.min(a.blocks());
        let finish = |own: Tally, own_cancelled: u32, used: u32| {
            let mut f = own;
            f.success -= own_cancelled;
            // Blocks used to cancel: plain Blocks first, then a kept Critical Block.
            let plain = used.min(f.block);
            f.block -= plain;
            f.critical_block -= used - plain;
            f
        };
        Results {
            active: a,
            opponent: o,
            active_final: finish(a, a_cancelled, o_cancelled),
            opponent_final: finish(o, o_cancelled, a_cancelled),
            active_successes: a.success - a_cancelled + a.critical_success,
            opponent_successes: o.success - o_cancelled + o.critical_success,
        }
    }
}

/// Stunned: "must Nullify a Success before the Switches step of each of their
/// Rolls"; a Critical Success is not a Success and stays (`000 § Stunned`).
/// Returns whether a Success was Nullified.
pub fn apply_stunned(t: &mut Tally) -> bool {
    t.nullify(Symbol::Success)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Symbol::*;

    #[test]
    fn critical_pays_for_two_and_keeps_the_rest() {
        // 000 § Critical Block: "you may use it to activate Switches, where it counts as two Blocks".
        let mut t = Tally { critical_block: 1, ..Tally::default() };
        assert!(t.pay(&[Block]));
        assert_eq!(t, Tally { block: 1, ..Tally::default() });
        assert!(t.pay(&[Block]));
        assert!(!t.pay(&[Block]));
    }

    #[test]
    fn a_nullified_die_leaves_the_roll_with_its_symbols() {
        // 000 § Nullifying Dice: "remove that die from the Roll. Ignore all Symbols in nullified dice."
        let mut f = FaceToFace::new(
            SideRoll::rolled(vec![("red".into(), vec![Success]), ("orange".into(), vec![Success, Success])], &[]),
            SideRoll::rolled(
                vec![("blue".into(), vec![Success, Block, Special]), ("green".into(), vec![Block])],
                &[Success],
            ),
        );
        assert!(f.nullify_die(Side::Opponent, 0));
        assert_eq!(f.opponent.tally, Tally { block: 1, success: 1, ..Tally::default() }, "the added Success stays");
        assert!(!f.nullify_die(Side::Opponent, 0), "a die is Nullified once");
        assert!(!f.nullify_die(Side::Opponent, 9), "no such die");
        // An added symbol counts as a die (000 § Nullifying Dice; § Critical Block).
        assert!(f.nullify_die(Side::Opponent, 2));
        assert_eq!(f.opponent.tally, Tally { block: 1, ..Tally::default() });
        assert_eq!(f.active.tally.success, 3, "the other side is untouched");
        let r = f.results();
        assert_eq!((r.active_successes, r.opponent_successes), (2, 0));
    }

    #[test]
    fn plain_symbols_pay_before_criticals() {
        let mut t = Tally { block: 1, critical_block: 1, ..Tally::default() };
        assert!(t.pay(&[Block]));
        assert_eq!(t.critical_block, 1);
    }

    #[test]
    fn failed_payment_spends_nothing() {
        let mut t = Tally { special: 1, ..Tally::default() };
        assert!(!t.pay(&[Special, Special]));
        assert_eq!(t.special, 1);
    }

    #[test]
    fn critical_success_cannot_be_cancelled() {
        // 000 § Critical Success: "cannot be Nullified by any Block results on the opponent's Roll".
        let f = FaceToFace::new(
            SideRoll::rolled(vec![("red".into(), vec![CriticalSuccess])], &[]),
            SideRoll::rolled(vec![("blue".into(), vec![Block, Block])], &[]),
        );
        assert_eq!(f.results().active_successes, 1);
    }
}
