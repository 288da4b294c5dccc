//! How `sim`, `arena sim` and the viewer name the setup of one Aristeia!
//! game: a setup id, or `random-teams:<scenario>[@N]` ([`replay_setup`]).
//! Replay files are `crate::replay_file`'s (format 2, both games; it still
//! reads this naming in Aristeia!'s format 1 files).

use crate::content::Content;
use crate::rules::game::GameSetup;

/// The setup a name gives: a setup id, or `random-teams:<scenario>` for a
/// game with random teams drawn from its seed (`random-teams:<scenario>@4`
/// for a number of players other than the Scenario's default).
///
/// # Errors
/// When the setup or Scenario is not loaded.
pub fn replay_setup(content: &Content, setup: &str, seed: u64) -> Result<GameSetup, String> {
    match setup.strip_prefix(RANDOM_TEAMS) {
        Some(rest) => {
            let (scenario, seats) = match rest.rsplit_once('@') {
                Some((sc, n)) => {
                    (sc, Some(n.parse::<usize>().map_err(|_| format!("`{setup}`: `{n}` is not a number of players"))?))
                }
                None => (rest, None),
            };
            let sc = &content.scenarios.get(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?.value;
            GameSetup::random(content, scenario, seats.unwrap_or_else(|| GameSetup::default_seats(sc)), seed)
        }
        None => GameSetup::from_content(content, setup, seed),
    }
}

/// The name [`replay_setup`] reads for random teams of `scenario` with `seats` players.
pub fn random_teams_name(content: &Content, scenario: &str, seats: usize) -> String {
    let default = content.scenarios.get(scenario).map_or(2, |s| GameSetup::default_seats(&s.value));
    if seats == default { format!("{RANDOM_TEAMS}{scenario}") } else { format!("{RANDOM_TEAMS}{scenario}@{seats}") }
}

/// How a game with random teams is named: `random-teams:<scenario>`.
pub const RANDOM_TEAMS: &str = "random-teams:";
