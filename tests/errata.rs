//! Errata as data (`002`, lines marked "Errata (v1.6)"): the engine plays the v1.6 errata when `mods/errata-1.6` is
//! selected, and the printed cards when it is not.

use arena_engine::load;
use arena_engine::rules::decision::{Choice, Controller, Decision, DecisionKind};
use arena_engine::rules::game::Game;
use arena_engine::rules::situation::Situation;
use arena_engine::rules::state::View;
use arena_engine::script::runtime::{Limits, Runtime};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

fn packs(errata: bool) -> load::Loaded {
    let root = arena_tests::tests_dir().join("..");
    let mut paths = vec![root.join("content")];
    if errata {
        paths.push(root.join("mods/errata-1.6"));
    }
    let l = load::load(&paths, &load::Options { run_script_tests: false, ..Default::default() });
    assert!(!l.has_errors(), "{:?}", l.diagnostics.iter().filter(|d| d.is_error()).collect::<Vec<_>>());
    l
}

/// Performs `action` once when offered, keeps Critical Blocks, activates no
/// Switch, ends the Activation; records every option it was shown.
struct Plays {
    action: &'static str,
    done: bool,
    /// Whether optional "may" choices of effects (Pointman) are taken.
    take_options: bool,
    seen: Rc<RefCell<Vec<String>>>,
}

impl Controller for Plays {
    fn decide(&mut self, d: &Decision, _v: &View<'_>) -> usize {
        self.seen.borrow_mut().extend(d.options.iter().map(ToString::to_string));
        if d.kind == DecisionKind::Choose {
            let want = if self.take_options { "add" } else { "no" };
            return d.options.iter().position(|o| o.to_string() == want).unwrap_or(0);
        }
        if d.kind == DecisionKind::Action && !self.done {
            if let Some(i) =
                d.options.iter().position(|o| matches!(o, Choice::Perform { action, .. } if action == self.action))
            {
                self.done = true;
                return i;
            }
        }
        d.options.iter().position(|o| *o == Choice::Done).unwrap_or(0)
    }
}

fn play(loaded: &load::Loaded, situation: &str, action: &'static str) -> (Vec<String>, Vec<String>) {
    play_with(loaded, situation, action, false)
}

fn play_with(
    loaded: &load::Loaded,
    situation: &str,
    action: &'static str,
    take_options: bool,
) -> (Vec<String>, Vec<String>) {
    let rt = Runtime::new(Arc::new(loaded.content.clone()), loaded.script_set.clone(), Limits::default()).unwrap();
    let sit: Situation = toml::from_str(situation).unwrap();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut a = Plays { action, done: false, take_options, seen: seen.clone() };
    let mut b = Plays { action, done: false, take_options, seen: seen.clone() };
    let mut g = Game::from_situation(&loaded.content, &rt, &sit, vec![&mut a, &mut b]).unwrap();
    g.run_activation(true).unwrap();
    assert_eq!(g.effect_failures(), 0, "{:?}", g.events);
    let events = g.events.iter().map(ToString::to_string).collect();
    let options = seen.borrow().clone();
    (events, options)
}

const COORDINATED: &str = r#"
scenario = "assault"
active = "hannibal"
[[character]]
id = "hannibal"
player = 1
space = [0, 3]
action_points = 5
[[character]]
id = "valkyrie"
player = 1
space = [1, 4]
[[character]]
id = "miyamoto-mushashi"
player = 2
space = [0, 5]
"#;

fn oranges_rolled(events: &[String]) -> usize {
    let roll = events.iter().find(|e| e.starts_with("hannibal rolls")).expect("Hannibal rolled");
    roll.matches("orange:").count()
}

/// 002 § Hannibal: printed, "each of your Allies" (Hannibal counts himself,
/// `000 § Allies`); errata v1.6, "each Ally other than you".
#[test]
fn coordinated_assault_printed_and_corrected() {
    let (printed, _) = play(&packs(false), COORDINATED, "coordinated-assault");
    assert_eq!(oranges_rolled(&printed), 2, "Valkyrie and Hannibal himself: {printed:#?}");
    let (corrected, _) = play(&packs(true), COORDINATED, "coordinated-assault");
    assert_eq!(oranges_rolled(&corrected), 1, "Valkyrie only: {corrected:#?}");
}

const MASSACRE_HIT: &str = r#"
scenario = "assault"
active = "miyamoto-mushashi"
hands = [["epic-regeneration"], []]
dice = [["success", "success", "special"], [], [], [], []]
[[character]]
id = "miyamoto-mushashi"
player = 2
space = [0, 3]
action_points = 5
[[character]]
id = "senor-massacre"
player = 1
space = [1, 3]
"#;

/// 002 § Señor Massacre Tactics: printed, Epic Regeneration is played "After
/// Señor Massacre receives Damage"; errata v1.6, only when that Damage is
/// enough to send him to the Infirmary. Two Damage of his four Hit Points.
#[test]
fn epic_regeneration_printed_and_corrected() {
    let offered = |opts: &[String]| opts.iter().any(|o| o == "play epic-regeneration");
    let (events, options) = play(&packs(false), MASSACRE_HIT, "ken-no-sen");
    assert!(events.iter().any(|e| e.starts_with("senor-massacre suffers 2 Damage")), "{events:#?}");
    assert!(offered(&options), "printed: offered after any Damage");
    let (_, options) = play(&packs(true), MASSACRE_HIT, "ken-no-sen");
    assert!(!offered(&options), "errata: not offered for Damage that leaves him standing");
    let lethal =
        MASSACRE_HIT.replace("id = \"senor-massacre\"\nplayer = 1", "id = \"senor-massacre\"\nplayer = 1\ndamage = 2");
    let (_, options) = play(&packs(true), &lethal, "ken-no-sen");
    assert!(offered(&options), "errata: offered when the Damage would send him to the Infirmary");
}

const HANNIBAL_CONTENDS: &str = r#"
scenario = "assault"
active = "hannibal"
[[character]]
id = "hannibal"
player = 1
space = [0, 3]
action_points = 5
[[character]]
id = "miyamoto-mushashi"
player = 2
space = [0, 4]
"#;

/// 002 § Hannibal: Pointman as printed ("Your Allies", Hannibal among them)
/// adds an Orange die to Hannibal's own Attack; the erratum ("Any Ally other
/// than you") does not. The Contender Attack rolls one orange die.
#[test]
fn pointman_printed_and_corrected() {
    let (printed, _) = play_with(&packs(false), HANNIBAL_CONTENDS, "contender", true);
    assert_eq!(oranges_rolled(&printed), 2, "{printed:#?}");
    let (corrected, _) = play_with(&packs(true), HANNIBAL_CONTENDS, "contender", true);
    assert_eq!(oranges_rolled(&corrected), 1, "{corrected:#?}");
}
