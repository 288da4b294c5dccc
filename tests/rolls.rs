//! The rulebooks' worked Roll examples, with the exact faces they give
//! (`../shared/cases/rolls.toml`; test names carry the case ids). The Prime Time
//! versions (001) are the consistent ones (REFERENCE-DATA.md § Dice); every face
//! used is a real face of its die in `content/aristeia-core/dice/dice.toml`,
//! which `faces_are_real_faces` checks.
//!
//! These drive `rules::roll` step by step, as the game does, with the choices the
//! examples make. The Switch Effects are the printed ones: Miyamoto Mushashi's
//! general Switch (pay 1 Block: +1 Success while adjacent to his Target), Major
//! Lunah's (pay 2 Specials: Nullify 1 Block of the opponent's Roll), Jotum's
//! Shield's (pay 2 Specials: Displace the Target).

use arena_engine::model::Symbol::{self, *};
use arena_engine::rules::roll::{FaceToFace, Side, SideRoll, Tally};

fn side(dice: &[(&str, &[Symbol])], added: &[Symbol]) -> SideRoll {
    SideRoll::rolled(dice.iter().map(|(d, f)| (arena_engine::model::Id::from(*d), f.to_vec())).collect(), added)
}

/// Miyamoto Mushashi's general Switch, activated as many times as `times`
/// while he is adjacent to his Target (`001 § Switch Order Example`).
fn mushashi_switch(t: &mut Tally, times: u32, adjacent: bool) -> u32 {
    let mut done = 0;
    while done < times && adjacent && t.pay(&[Block]) {
        t.add(Success, 1);
        done += 1;
    }
    done
}

/// Major Lunah's general Switch: pay 2 Specials, Nullify 1 Block of the opponent.
fn lunah_switch(own: &mut Tally, opponent: &mut Tally) -> bool {
    if opponent.count(Block) == 0 || !own.can_pay(&[Special, Special]) {
        return false;
    }
    own.pay(&[Special, Special]);
    opponent.nullify(Block)
}

#[test]
fn case_called_shot_face_to_face() {
    // 001 § Face to Face Roll Example (000 § Rolls gives a garbled version).
    let mut roll = FaceToFace::new(
        side(&[("red", &[CriticalSuccess]), ("orange", &[Success, Success, Special])], &[Success]),
        side(&[("green", &[CriticalBlock]), ("blue", &[Success, Block, Special])], &[]),
    );
    // Critical Block step: Mushashi Nullifies Lunah's orange die.
    assert!(roll.use_critical_block(Side::Opponent, 1));
    // Switches: none (Mushashi is too far for his; Lunah has no Specials left).
    let r = roll.results();
    // 001's "final result" is after Blocks cancel Successes.
    assert_eq!(r.active_final.symbols(), vec![CriticalSuccess]);
    assert_eq!(r.opponent_final.symbols(), vec![Success, Special]);
    assert_eq!(r.active_successes, 1, "Damage to Miyamoto Mushashi");
    assert_eq!(r.opponent_successes, 1, "Damage to Major Lunah");
}

fn switch_order_roll() -> FaceToFace {
    FaceToFace::new(
        side(&[("red", &[Success, Special]), ("orange", &[Success, Block, Special]), ("blue", &[Block])], &[]),
        side(&[("green", &[Block, Special]), ("blue", &[Block, Block, Special])], &[]),
    )
}

#[test]
fn case_switch_order_attacker_first() {
    // 001 § Switch Order Example: Miyamoto (active) activates his Switches first.
    let mut roll = switch_order_roll();
    let FaceToFace { active, opponent } = &mut roll;
    assert_eq!(mushashi_switch(&mut active.tally, 2, true), 2, "pays both Blocks");
    assert!(!lunah_switch(&mut opponent.tally, &mut active.tally), "no Block left to Nullify");
    let r = roll.results();
    // The results step's input: the symbols after Switches.
    assert_eq!(r.active.symbols(), vec![Success, Success, Success, Success, Special, Special]);
    assert_eq!(r.opponent.symbols(), vec![Block, Block, Block, Special, Special]);
    assert_eq!(r.active_successes, 1, "Major Lunah suffers 1 Damage");
    assert_eq!(r.opponent_successes, 0, "Miyamoto Mushashi suffers none");
}

#[test]
fn case_switch_order_defender_first() {
    // 001 § Switch Order Example: the defender activates her Switches first.
    let mut roll = switch_order_roll();
    let FaceToFace { active, opponent } = &mut roll;
    assert!(lunah_switch(&mut opponent.tally, &mut active.tally), "Nullifies one of Miyamoto's Blocks");
    assert_eq!(mushashi_switch(&mut active.tally, 2, true), 1, "one Block left to pay with");
    let r = roll.results();
    assert_eq!(r.active.symbols(), vec![Success, Success, Success, Special, Special]);
    assert_eq!(r.opponent.symbols(), vec![Block, Block, Block]);
    assert_eq!((r.active_successes, r.opponent_successes), (0, 0));
}

fn criticals_roll() -> FaceToFace {
    FaceToFace::new(
        side(&[("red", &[Success, Success, Special]), ("blue", &[Block, Block, Special]), ("black", &[])], &[]),
        side(&[("green", &[CriticalBlock]), ("blue", &[Success, Block, Special])], &[]),
    )
}

#[test]
fn case_criticals_block_nullifies_red() {
    // 001 § Switches and Criticals Example, first branch.
    let mut roll = criticals_roll();
    assert!(roll.use_critical_block(Side::Opponent, 0), "Nullify Maximus' red die");
    let FaceToFace { active, opponent } = &mut roll;
    assert!(!active.tally.can_pay(&[Special, Special]), "Jotum's Shield's Switch cannot be paid");
    assert_eq!(mushashi_switch(&mut opponent.tally, 1, true), 1, "pays his Block for a Success");
    let r = roll.results();
    assert_eq!(r.active.symbols(), vec![Block, Block, Special]);
    assert_eq!(r.opponent.symbols(), vec![Success, Success, Special]);
    assert_eq!((r.active_successes, r.opponent_successes), (0, 0));
}

#[test]
fn case_criticals_block_kept_displaced() {
    // 001 § Switches and Criticals Example, second branch; docs/rulings.md R4:
    // a Switch's own condition ("while adjacent to his Target") is checked when
    // the Switch is activated, so after being Displaced Mushashi cannot use it.
    let mut roll = criticals_roll();
    // Critical Block kept. Maximus activates first: 2 Specials, Displace Mushashi.
    assert!(roll.active.tally.pay(&[Special, Special]));
    let adjacent = false;
    assert_eq!(mushashi_switch(&mut roll.opponent.tally, 2, adjacent), 0);
    let r = roll.results();
    assert_eq!(r.opponent.blocks(), 2, "the kept Critical Block counts as one Block");
    assert_eq!((r.active_successes, r.opponent_successes), (0, 0), "0 Damage each under R4");
}

#[test]
fn case_criticals_block_kept_displaced_under_000_reading() {
    // The outcome 000's reading would give (not the adopted ruling), kept so the
    // difference is visible: the Critical Block pays for two Successes.
    let mut roll = criticals_roll();
    assert!(roll.active.tally.pay(&[Special, Special]));
    assert_eq!(mushashi_switch(&mut roll.opponent.tally, 2, true), 2);
    let r = roll.results();
    assert_eq!(r.opponent.symbols(), vec![Success, Success, Success, Block, Special]);
    assert_eq!((r.active_successes, r.opponent_successes), (1, 1));
}

#[test]
fn case_disengage_fails() {
    // 000 § Disengage (How to Play: Parvati and Mushashi); 001 § Disengage.
    let roll = FaceToFace::new(side(&[("orange", &[Success])], &[]), side(&[("blue", &[Block]), ("orange", &[])], &[]));
    let r = roll.results();
    assert_eq!(r.active_successes, 0, "Parvati fails to Disengage: she stays and loses her Movement Points");
    assert_eq!(r.opponent_successes, 0, "a Disengage Roll inflicts no Damage");
}

#[test]
fn case_stunned_spares_critical() {
    // rules.toml `stunned-spares-critical`; 000 § Stunned, 002 § Stunned.
    let mut t = Tally { success: 1, critical_success: 1, special: 1, ..Tally::default() };
    assert!(arena_engine::rules::roll::apply_stunned(&mut t));
    assert_eq!(t.symbols(), vec![CriticalSuccess, Special]);
}

#[test]
fn faces_are_real_faces() {
    let loaded = arena_engine::load::load(
        &[std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/aristeia-core")],
        &Default::default(),
    );
    let has = |die: &str, face: &[Symbol]| {
        let mut want = face.to_vec();
        want.sort();
        loaded.content.dice[die].value.faces.iter().any(|f| {
            let mut f = f.clone();
            f.sort();
            f == want
        })
    };
    for (die, face) in [
        ("red", &[CriticalSuccess][..]),
        ("orange", &[Success, Success, Special]),
        ("green", &[CriticalBlock]),
        ("blue", &[Success, Block, Special]),
        ("red", &[Success, Special]),
        ("orange", &[Success, Block, Special]),
        ("blue", &[Block]),
        ("green", &[Block, Special]),
        ("blue", &[Block, Block, Special]),
        ("red", &[Success, Success, Special]),
        ("black", &[]),
        ("orange", &[Success]),
        ("orange", &[]),
    ] {
        assert!(has(die, face), "{die} has no face {face:?}");
    }
}
