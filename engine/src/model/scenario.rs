//! Scenarios: the map, the teams, the end of the game, and every rule of the
//! Scenario page as data or Lua (`000 § Scenarios`, `000 § Objectives Phase`;
//! `001` for the Prime Time ones). How to write one: docs/scenarios.md.

use super::cards::is_zero;
use super::*;

/// A Scenario objective or special rule (`000 § Scenarios`).
///
/// What the engine does with it is one of, in this order of preference:
/// - a declarative key: `objective` (Scoring Zone occupancy),
///   `move_scoring_zone`, `rewards` (a table of Victory Points per Character
///   sent to the Bench or Infirmary);
/// - `effect`: Lua run at the rule's `when`, with the Scenario functions of the
///   API (`game:gain_victory_points`, `game:characters_in_zone`,
///   `game:set_scoring_zones`, counters, `game:end_game`; docs/lua-api.md);
/// - `performed_by`: the Scenario keys that already say it (`rounds`,
///   `vp_to_win`...).
///
/// A rule with none of these is text the engine cannot perform: `arena check
/// --strict` lists it and the summary counts it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioRule {
    /// Kebab-case id; the narrative names the objective a player scores by it.
    pub id: Id,
    /// Printed wording.
    pub text: String,
    /// Victory Points it awards, if it is an objective: what `objective` and
    /// `game:gain_victory_points` (without an amount) give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<u8>,
    /// When the engine performs it. Default: `check-objectives` for an
    /// `objective` or an `effect`, `objectives-phase-end` for
    /// `move_scoring_zone`, `sent-to-bench` for `rewards`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<ScenarioWindow>,
    /// A Scoring Zone objective, scored at `when` (`000 § Phase 3: Objectives`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<ZoneObjective>,
    /// The Scoring Zone moves (`000 § Phase 3: Objectives`; `001 § Wanted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_scoring_zone: Option<MoveScoringZone>,
    /// Victory Points (and a Tactic) for the player who sends a given
    /// Character to the Bench or the Infirmary (`001 § Wanted`, Additional
    /// Scoring). The player credited with the Frag scores.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rewards: Vec<Reward>,
    /// The Scenario keys that perform this rule (its text restates them):
    /// an end-of-game rule is `["rounds", "vp_to_win", "frags_break_ties"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub performed_by: Vec<ScenarioKey>,
    /// Lua performing it at `when`: `ctx.self` is the Character concerned (if
    /// any), `ctx.player` the player concerned (if any), `ctx.zone` and
    /// `ctx.state` as the window says (docs/scenarios.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Effect>,
}

impl ScenarioRule {
    /// When the engine performs it, with the defaults filled in; `None` for a
    /// rule with nothing to perform at a moment (text, or `performed_by`).
    pub fn window(&self) -> Option<ScenarioWindow> {
        if let Some(w) = self.when {
            return Some(w);
        }
        if self.objective.is_some() || self.effect.is_some() {
            Some(ScenarioWindow::CheckObjectives)
        } else if self.move_scoring_zone.is_some() {
            Some(ScenarioWindow::ObjectivesPhaseEnd)
        } else if !self.rewards.is_empty() {
            Some(ScenarioWindow::SentToBench)
        } else {
            None
        }
    }

    /// Whether the engine performs it (declarative key, Lua, or Scenario keys).
    /// An `effect` without Lua does not count.
    pub fn performed(&self) -> bool {
        self.objective.is_some()
            || self.move_scoring_zone.is_some()
            || !self.rewards.is_empty()
            || !self.performed_by.is_empty()
            || self.effect.as_ref().is_some_and(|e| e.lua.is_some() || e.script.is_some())
    }
}

/// When a Scenario rule is performed: the steps of the Round and the moments
/// of play the rulebooks name. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScenarioWindow {
    /// Once, before Deployment (after the Underdog is set and the Special
    /// Spaces placed): Scoring Zones chosen before the teams deploy (`001 §
    /// Crossover Assault`, `001 § Crow Accumulator`).
    BeforeDeployment,
    /// At the start of every Round, before the Planning Phase (`001 §
    /// Wanted`: "At the start of each subsequent Round, before the Planning
    /// Phase"). Round 1 included: `game:round()` tells.
    RoundStart,
    /// At the end of each Character's Activation, after its States Step:
    /// `ctx.self` is the Character, `ctx.player` its player (`001 § Crow
    /// Accumulator`: "finishes their Activation in any Space in a Scoring Zone").
    ActivationEnd,
    /// A Character is sent to the Infirmary (`000 § Infirmary`): `ctx.self`
    /// is it, `ctx.player` the player credited with the Frag.
    SentToInfirmary,
    /// A Character goes to the Bench (from the Infirmary in the Recovery
    /// Phase, `000 § Recovery Phase`; at once in Prime Time, `001 § Bench`):
    /// `ctx.self` is it, `ctx.player` the player credited with the Frag.
    SentToBench,
    /// A State is imposed on a Character: `ctx.self` is it, `ctx.state` the
    /// State, `ctx.player` its player.
    StateImposed,
    /// A Character advances, is Placed or is Displaced into a space:
    /// `ctx.self`, `ctx.player`; `game:position(ctx.self)` is the space.
    SpaceEntered,
    /// A Character enters a zone it was not in: `ctx.self`, `ctx.player`, `ctx.zone`.
    ZoneEntered,
    /// The Objectives Phase's first step, Check Objectives (`000 § Objectives
    /// Phase` 1; `001 § Objectives Phase`, Objectives Check): the default for
    /// objectives.
    CheckObjectives,
    /// Right after Check End-Game, when the game goes on (`001 § Objectives
    /// Deck`: "At the end of the End of Match Check step").
    EndGameChecked,
    /// The end of the Objectives Phase, after the Underdog token is assigned
    /// (`000 § Phase 3: Objectives`: Assault's Underdog then chooses the next
    /// Scoring Zone).
    ObjectivesPhaseEnd,
    /// The Recovery Phase, after the Characters in the Infirmary move to the
    /// Bench and before the Tactics are drawn (`000 § Recovery Phase`).
    RecoveryPhase,
}

impl ScenarioWindow {
    /// Every window, in declaration order.
    pub const ALL: [ScenarioWindow; 12] = [
        ScenarioWindow::BeforeDeployment,
        ScenarioWindow::RoundStart,
        ScenarioWindow::ActivationEnd,
        ScenarioWindow::SentToInfirmary,
        ScenarioWindow::SentToBench,
        ScenarioWindow::StateImposed,
        ScenarioWindow::SpaceEntered,
        ScenarioWindow::ZoneEntered,
        ScenarioWindow::CheckObjectives,
        ScenarioWindow::EndGameChecked,
        ScenarioWindow::ObjectivesPhaseEnd,
        ScenarioWindow::RecoveryPhase,
    ];

    /// The kebab-case name (`check-objectives`).
    pub fn name(self) -> &'static str {
        match self {
            ScenarioWindow::BeforeDeployment => "before-deployment",
            ScenarioWindow::RoundStart => "round-start",
            ScenarioWindow::ActivationEnd => "activation-end",
            ScenarioWindow::SentToInfirmary => "sent-to-infirmary",
            ScenarioWindow::SentToBench => "sent-to-bench",
            ScenarioWindow::StateImposed => "state-imposed",
            ScenarioWindow::SpaceEntered => "space-entered",
            ScenarioWindow::ZoneEntered => "zone-entered",
            ScenarioWindow::CheckObjectives => "check-objectives",
            ScenarioWindow::EndGameChecked => "end-game-checked",
            ScenarioWindow::ObjectivesPhaseEnd => "objectives-phase-end",
            ScenarioWindow::RecoveryPhase => "recovery-phase",
        }
    }

    /// Its index in [`ScenarioWindow::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A Scoring Zone objective: who scores the rule's `vp` for the Characters
/// (not Minions, `002 § Minion`) in a zone (`000 § Phase 3: Objectives`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneObjective {
    /// Who scores.
    pub scores: ZoneScore,
    /// Where the Characters are counted: `scoring-zone` (every current
    /// Scoring Zone; the default) or a zone id of the map.
    #[serde(default = "scoring_zone", skip_serializing_if = "is_scoring_zone")]
    pub zone: Id,
}

/// The word for "every current Scoring Zone" in [`ZoneObjective::zone`].
pub const SCORING_ZONE: &str = "scoring-zone";

fn scoring_zone() -> Id {
    SCORING_ZONE.into()
}

fn is_scoring_zone(z: &Id) -> bool {
    z == SCORING_ZONE
}

/// Who scores a [`ZoneObjective`], from the number of Characters each player
/// has in the zone. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneScore {
    /// The only player with one or more Characters there ("Being the only
    /// player with one or more Characters inside the Scoring Zone").
    OnlyPlayer,
    /// The player with more Characters there than every other, when at least
    /// two players have some ("only if both players have at least one").
    MostCharacters,
    /// Every player tied for the most Characters there, when at least two
    /// players have some ("the same number of Characters ... as the opponent").
    SameCharacters,
    /// Every player, once per Character there (`001 § Wanted`: "For each of
    /// your team's Characters inside the Scoring Zone").
    EachCharacter,
    /// Every player with at least one Character there (`001 § DeathMatch`:
    /// "Having their Character in the Central Deployment Zone").
    AnyCharacter,
}

impl ZoneScore {
    /// The Victory Points each player scores for an objective worth `vp`,
    /// from the number of Characters each has in the zone (`counts`, by
    /// seat; the result has the same shape): `000 § Phase 3: Objectives`,
    /// `001 § Wanted`, `001 § DeathMatch`.
    pub fn scorers(self, vp: u32, counts: &[usize]) -> Vec<u32> {
        let occupied = counts.iter().filter(|n| **n > 0).count();
        let most = counts.iter().copied().max().unwrap_or(0);
        let leaders = counts.iter().filter(|n| **n == most && most > 0).count();
        counts
            .iter()
            .map(|&n| {
                let scores = match self {
                    ZoneScore::OnlyPlayer => occupied == 1 && n > 0,
                    ZoneScore::MostCharacters => occupied >= 2 && leaders == 1 && n == most,
                    ZoneScore::SameCharacters => occupied >= 2 && leaders >= 2 && n == most,
                    ZoneScore::EachCharacter => return vp.saturating_mul(n as u32),
                    ZoneScore::AnyCharacter => n > 0,
                };
                if scores { vp } else { 0 }
            })
            .collect()
    }
}

/// How the Scoring Zone moves: who chooses, among which zones, and when.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveScoringZone {
    /// Who chooses.
    pub chosen_by: Chooser,
    /// Which zones may be chosen.
    pub to: ZoneChoice,
    /// Only if some player scored Victory Points: this Round when the rule
    /// runs in the Objectives Phase, the previous Round when it runs at
    /// `round-start` ("only if a player scored Victory Points in the previous
    /// Round").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub only_if_scored: bool,
}

/// A player a Scenario rule names. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Chooser {
    /// The player with the Underdog token (`000 § Underdog`).
    Underdog,
    /// The player with the Prime Time marker (`001 § Prime Time`); the
    /// Underdog in a game without the marker (rulings R30).
    PrimeTime,
}

/// The zones a moving Scoring Zone may go to. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ZoneChoice {
    /// Any Deployment Zone with no Characters in it (`000 § Phase 3`:
    /// "Only a Deployment Zone with no Characters inside it").
    EmptyDeploymentZone,
    /// A zone with no Characters in it that the map lists as `adjacent` to
    /// the current Scoring Zone, the Central Zone included (`001 § Wanted`:
    /// "Deployment Zones adjacent to Deployment Zone #6 are Deployment Zone
    /// #1, Deployment Zone #5, and the Central Deployment Zone").
    AdjacentEmptyDeploymentZone,
}

/// One row of a reward table (`001 § Wanted`, Additional Scoring).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reward {
    /// The Character sent: an id some loaded pack defines (`arena check`
    /// reports a misspelt or missing one as a dangling reference; a table
    /// naming another expansion's Characters depends on that expansion, or
    /// lists it as an optional dependency).
    pub character: Id,
    /// Victory Points the player credited with the Frag scores.
    pub vp: u8,
    /// That player may also draw 1 Tactic.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tactic: bool,
}

/// A key of the Scenario that performs a rule. Serialized in snake_case, as
/// the keys are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScenarioKey {
    /// `rounds`.
    Rounds,
    /// `vp_to_win`.
    VpToWin,
    /// `frags_break_ties`.
    FragsBreakTies,
    /// `scoring_zones`.
    ScoringZones,
    /// `deployment_zones`.
    DeploymentZones,
    /// `bench_return_to`.
    BenchReturnTo,
    /// `special_spaces`.
    SpecialSpaces,
    /// `running_projectiles`.
    RunningProjectiles,
    /// `actions`.
    Actions,
    /// `obstacles`.
    Obstacles,
    /// `objectives_deck`.
    ObjectivesDeck,
    /// `characters_per_team`.
    CharactersPerTeam,
    /// `characters`: the Characters the Teams are picked from.
    Characters,
    /// `map`: the map's zones and terrain say it (Short Distance's Ziggurats,
    /// whose Scoring Spaces are the map's `ziggurat` zones and which block
    /// nothing: `001 § Short Distance`).
    Map,
}

/// How the Teams deploy at a Prime Time table ([`Scenario::team_deployment`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TeamDeployment {
    /// Which zones a Character may deploy in.
    #[serde(default)]
    pub zones: DeploymentZones,
    /// Who deploys first (then clockwise, the last to deploy a first
    /// Character deploying the first second one: snake order).
    #[serde(default)]
    pub first: FirstToDeploy,
    /// A player deploys all their Characters in one Deployment Zone (`001 §
    /// DeathMatch - Ballroom Dancing`: "Players must deploy both their
    /// Characters in the same Deployment Zone").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_zone: bool,
    /// A Character deploys in the central space of a zone (`001 §
    /// DeathMatch`, Run 'N Shoot!: "in the central space of one of the
    /// Deployment Zones"): the zone's space nearest all its others.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub central_space: bool,
}

/// The zones of a Prime Time Team Deployment. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeploymentZones {
    /// Every Deployment Zone that is neither the Central Zone nor a Scoring
    /// Zone ("a Deployment Zone that is not the Central Deployment Zone").
    #[default]
    NotCentralOrScoring,
    /// Every Deployment Zone that is not a Scoring Zone, the Central Zone
    /// included ("any space within a Deployment Zone that is not a Scoring
    /// Zone"; the Central Zone is a Deployment Zone of `001`, "the Central
    /// Deployment Zone").
    NotScoring,
}

/// Who deploys first at a Prime Time table. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FirstToDeploy {
    /// Prime Time (`001 § Preparations`, 8. Team Deployment).
    #[default]
    PrimeTime,
    /// The player Prime Time chooses ("Prime Time decides which player
    /// deploys one of their Characters first").
    ChosenByPrimeTime,
}

/// Where each team deploys in a 2-player game, around its Deployment Zone
/// (`000 § Deployment`: "In the description of each scenario you will find
/// specific instructions on how to deploy"). Serialized in kebab-case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DeployIn {
    /// A Free space of the zone or adjacent to it (Assault: "deploy in or
    /// adjacent to their zone", REFERENCE-DATA § HexaDome).
    #[default]
    ZoneOrAdjacent,
    /// A Free space of the zone itself.
    Zone,
}

impl DeployIn {
    fn is_default(&self) -> bool {
        *self == DeployIn::default()
    }
}

/// Where Characters return from the Bench. Serialized in kebab-case.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BenchReturn {
    /// Any Free space of a Deployment Zone that is not a Scoring Zone, the
    /// Central Zone included (`000 § Bench`; rulings R26).
    #[default]
    AnyDeploymentZone,
    /// Any Free space of a Deployment Zone that is neither a Scoring Zone nor
    /// the Central Zone (`001 § Short Distance`: "Characters may return from
    /// the Bench using any Deployment Zone except the Central Zone"; rulings
    /// R26, R44).
    AnyDeploymentZoneExceptCentral,
    /// A Free space of the player's own Deployment Zone.
    OwnDeploymentZone,
}

impl BenchReturn {
    fn is_default(&self) -> bool {
        *self == BenchReturn::AnyDeploymentZone
    }
}

/// A Scenario (`000 § Scenarios`; `001` for the Prime Time ones).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Kebab-case id (`assault`).
    pub id: Id,
    /// Printed name.
    pub name: String,
    /// Id of the map it is played on.
    pub map: Id,
    /// How many players.
    pub players: Players,
    /// Characters in each team (at least 1).
    #[schemars(range(min = 1))]
    pub characters_per_team: u8,
    /// The Characters the Teams are picked from, when the Scenario names them
    /// (`001 § DeathMatch - Run 'N Shoot!`: "Pick the following Characters
    /// from the Basic Box: Wild Bill, Miyamoto Mushashi, Major Lunah, and
    /// Parvati"); empty (the default), every loaded Character. Random teams
    /// (`arena sim --random-teams`, `--seats N`, `check --sims`) draw from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<Id>,
    /// Rounds before the game ends: it ends after the Objectives Phase of this
    /// Round (at least 1).
    #[schemars(range(min = 1))]
    pub rounds: u8,
    /// Victory Points that end the game in the Objectives Phase (Check
    /// End-Game), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_to_win: Option<u8>,
    /// Zone ids where each player deploys, in player order, or every Deployment Zone when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deployment_zones: Vec<Id>,
    /// Zone ids that are the Scoring Zones at the start (none: no Scoring
    /// Zone until a rule sets one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scoring_zones: Vec<Id>,
    /// The printed deployment rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment: Option<String>,
    /// Where each team deploys around its Deployment Zone: `zone-or-adjacent`
    /// (the default, Assault's rule) or `zone` (only the zone's spaces).
    #[serde(default, skip_serializing_if = "DeployIn::is_default")]
    pub deploy_in: DeployIn,
    /// How the Teams deploy at a Prime Time table (`001 § Preparations`, 8.
    /// Team Deployment: "The scenario will indicate where to deploy the
    /// Characters"): which zones, who deploys first, the same zone for a
    /// player's Characters, a zone's central space. Without it, the Free
    /// spaces of every Deployment Zone that is neither the Central Zone nor
    /// a Scoring Zone, from Prime Time. A 2-player table deploys by
    /// `deploy_in` and ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_deployment: Option<TeamDeployment>,
    /// How Characters return from the Bench (the printed rule).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench_return: Option<String>,
    /// Where the engine Places a Character returning from the Bench: any
    /// Deployment Zone but the Scoring Zones (Assault, `000 § Bench`; the
    /// default), the same but not the Central Zone either (Short Distance),
    /// or the player's own Deployment Zone.
    #[serde(default, skip_serializing_if = "BenchReturn::is_default")]
    pub bench_return_to: BenchReturn,
    /// Whether Frags break ties on Victory Points at the end of the game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub frags_break_ties: bool,
    /// Objectives and special rules, performed in this order at each moment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<ScenarioRule>,
    /// Special Space markers placed before Deployment, the players taking
    /// turns from the Underdog, on Free spaces outside the Deployment Zones and
    /// not Adjacent to another marker (`001 § Scenarios with Special Spaces`:
    /// 9). 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub special_spaces: u8,
    /// Running Projectiles are added (`001 § Scenarios with Running
    /// Projectiles`): one per player on the HexaDome, each activated at the end
    /// of the Turns Phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running_projectiles: bool,
    /// The Scenario uses the Objectives Deck (`001 § Objectives Deck`): every
    /// loaded Objective card with a `requirement`, 4 available face up, claimed
    /// by colour (docs/scenarios.md § The Objectives Deck).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub objectives_deck: bool,
    /// Actions every Character gains in this Scenario (Crow Accumulator's
    /// Accumulator Actions); their effects run with `ctx.self` = the Character.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<Action>,
    /// Obstacles the Scenario adds to the map, `[q, r]` (`000 § Obstacles`;
    /// Crow Accumulator's CROW Accumulator): Occupied, they give Cover and do
    /// not block Line of Sight; Actions with `obstacle_targets` may Target them
    /// (as `barrier@q,r`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obstacles: Vec<Hex>,
    #[serde(flatten)]
    pub meta: Meta,
}

#[cfg(test)]
mod tests {
    use super::ZoneScore::*;

    /// `000 § Phase 3: Objectives` (Assault's three), `001 § Wanted` (each
    /// Character), `001 § DeathMatch` (any Character): who scores, from the
    /// Characters each player has in the zone.
    #[test]
    fn zone_objectives_score_as_the_scenarios_word_them() {
        assert_eq!(OnlyPlayer.scorers(3, &[2, 0]), vec![3, 0]);
        assert_eq!(OnlyPlayer.scorers(3, &[1, 1]), vec![0, 0]);
        assert_eq!(MostCharacters.scorers(2, &[2, 1]), vec![2, 0]);
        assert_eq!(MostCharacters.scorers(2, &[2, 0]), vec![0, 0], "only if both have one");
        assert_eq!(MostCharacters.scorers(2, &[2, 2, 1]), vec![0, 0, 0], "a tie for the most");
        assert_eq!(SameCharacters.scorers(1, &[1, 1]), vec![1, 1]);
        assert_eq!(SameCharacters.scorers(1, &[2, 2, 1]), vec![1, 1, 0]);
        assert_eq!(SameCharacters.scorers(1, &[1, 0]), vec![0, 0]);
        assert_eq!(EachCharacter.scorers(1, &[3, 0, 1]), vec![3, 0, 1]);
        assert_eq!(AnyCharacter.scorers(2, &[0, 4]), vec![0, 2]);
        assert_eq!(OnlyPlayer.scorers(3, &[0, 0]), vec![0, 0]);
    }
}
