//! Objective cards (`001 § Objective Cards`): a card's `requirement` matches
//! its colour, says what its keys need, and names States and Deployment Zones
//! that exist (docs/scenarios.md § The Objectives Deck).

use super::*;
use crate::model::Id;

impl Validator<'_> {
    /// Every Objective card's requirement: the colour's moment (`on`), an
    /// Attribute for `highest`/`lowest`, 1 or 2 States `already`, the zones a
    /// `control` needs (errors); a State or zone nothing loaded defines
    /// (dangling references); a card without a requirement (a note with
    /// `--strict`: it is left out of the deck).
    pub(super) fn objectives(&mut self) {
        let c = &self.loaded.content;
        let mut found = Vec::new();
        // The zones of every map a Scenario with the deck is played on (all
        // maps when none uses it: hidden objectives go with any Scenario).
        let deck_maps: Vec<&Entry<Map>> =
            c.scenarios.values().filter(|s| s.value.objectives_deck).filter_map(|s| c.maps.get(&s.value.map)).collect();
        let maps: Vec<&Entry<Map>> = if deck_maps.is_empty() { c.maps.values().collect() } else { deck_maps };
        for e in c.objectives.values() {
            let o = &e.value;
            let Some(req) = &o.requirement else {
                self.text_only_count += 1;
                if self.notes {
                    found.push(
                        Diagnostic::note(
                            Code::ScenarioRuleTextOnly,
                            format!("Objective card `{}` has no `requirement`: it is text only and left out of the Objectives Deck", o.id),
                        )
                        .at_opt(self.loc(&e.origin, "/id"))
                        .path(self.cpath(&e.origin, ""))
                        .help("give it a `requirement` (docs/scenarios.md § The Objectives Deck)"),
                    );
                }
                continue;
            };
            let mut bad = |sub: &str, message: String, help: String| {
                found.push(
                    Diagnostic::error(Code::InvalidValue, message)
                        .at_opt(self.loc(&e.origin, sub))
                        .path(self.cpath(&e.origin, sub))
                        .help(help),
                );
            };
            if req.colour() != o.family {
                let on = match o.family {
                    ObjectiveColour::Red => "sent-to-bench",
                    ObjectiveColour::Orange => "state-imposed",
                    ObjectiveColour::Blue => "control",
                    ObjectiveColour::Green => "least-victory-points",
                };
                bad(
                    "/requirement/on",
                    format!(
                        "Objective card `{}` is {}, but its requirement is claimed like {} card",
                        o.id,
                        o.family.name(),
                        match req.colour() {
                            ObjectiveColour::Orange => "an orange",
                            ObjectiveColour::Red => "a red",
                            ObjectiveColour::Blue => "a blue",
                            ObjectiveColour::Green => "a green",
                        }
                    ),
                    format!(
                        "a card's colour says when it is claimed (001 § Claiming Objective Cards): a {} card's requirement is `on = \"{on}\"`, or change `family`",
                        o.family.name()
                    ),
                );
            }
            match req {
                ObjectiveRequirement::SentToBench { enemy, attribute, causes } => {
                    if *enemy != BenchedEnemy::Any && attribute.is_none() {
                        bad(
                            "/requirement/enemy",
                            format!("Objective card `{}` asks for the Enemy with the {} value, but of no Attribute", o.id, if *enemy == BenchedEnemy::Highest { "highest" } else { "lowest" }),
                            "add `attribute = \"hit-points\"` or `attribute = \"initiative\"` (the Attribute the card shows)".into(),
                        );
                    }
                    if causes.is_empty() {
                        bad(
                            "/requirement/causes",
                            format!("Objective card `{}` lists no cause: it can never be claimed", o.id),
                            "remove `causes` (every cause of 001 counts) or list some: combat-roll, action-or-skill, tactic, state".into(),
                        );
                    }
                }
                ObjectiveRequirement::StateImposed { already, bonus_state, .. } => {
                    if !(1..=2).contains(already) {
                        bad(
                            "/requirement/already",
                            format!(
                                "Objective card `{}`: `already = {already}`; 001's cards ask for 1 or 2 different States",
                                o.id
                            ),
                            "write `already = 1` (a Character that already has a different State) or `already = 2`"
                                .into(),
                        );
                    }
                    if let Some(s) = bonus_state.as_ref().filter(|s| !c.states.contains_key(*s)) {
                        let states = || c.states.keys().cloned().collect::<Vec<Id>>();
                        found.push(self.dangling(&e.origin, "/requirement/bonus_state", Kind::State, s, states));
                    }
                }
                ObjectiveRequirement::Control { control, zones } => {
                    let need = match control {
                        ZoneControl::Zone => Some((1usize, "one Deployment Zone")),
                        ZoneControl::Each => Some((2, "two Deployment Zones")),
                        _ => None,
                    };
                    match need {
                        Some((n, what)) if zones.len() != n => bad(
                            "/requirement/zones",
                            format!(
                                "Objective card `{}` (control = \"{}\") names {} zones; it shows {what}",
                                o.id,
                                control_name(*control),
                                zones.len()
                            ),
                            format!("list {what} in `zones` (ids of the map's zones: \"zone-1\" ...)"),
                        ),
                        None if !zones.is_empty() => bad(
                            "/requirement/zones",
                            format!(
                                "Objective card `{}` (control = \"{}\") names zones it does not use",
                                o.id,
                                control_name(*control)
                            ),
                            "remove `zones`: this control counts every Deployment Zone".into(),
                        ),
                        _ => {}
                    }
                    for (k, z) in zones.iter().enumerate() {
                        if let Some(map) = maps.iter().find(|m| !m.value.zones.iter().any(|x| x.id == *z)) {
                            self.zone_ref(&e.origin, &format!("/requirement/zones/{k}"), map, z, &mut found);
                        }
                    }
                }
                ObjectiveRequirement::LeastVictoryPoints => {}
            }
        }
        self.out.extend(found);
    }
}

fn control_name(c: ZoneControl) -> &'static str {
    match c {
        ZoneControl::Zone => "zone",
        ZoneControl::Each => "each",
        ZoneControl::CentralAndOther => "central-and-other",
        ZoneControl::Most => "most",
    }
}
