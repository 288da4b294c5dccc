//! Checks across Invictus content: the marketplace's starter deck names
//! loaded Artifacts; a counter has a trigger; a god has abilities; an
//! Artifact's `use` has the number it needs (`003`).

use super::*;
use crate::model::{AbilityTiming, ArtifactUse, BoostTiming};

impl Validator<'_> {
    pub(super) fn invictus(&mut self) {
        let content = &self.loaded.content;
        let artifacts = || content.artifacts.keys().cloned().collect::<Vec<_>>();
        let mut found = Vec::new();
        for e in content.marketplaces.values() {
            for (i, a) in e.value.starter_deck.iter().enumerate() {
                if !content.artifacts.contains_key(&a.artifact) {
                    let sub = format!("/starter_deck/{i}/artifact");
                    found.push(self.dangling(&e.origin, &sub, Kind::Artifact, &a.artifact, artifacts));
                }
            }
        }
        let mut problem = |origin: &Origin, sub: String, message: String, help: &str| {
            found.push(
                Diagnostic::error(Code::InvalidValue, message)
                    .at_opt(self.loc(origin, &sub))
                    .path(self.cpath(origin, &sub))
                    .help(help.to_string()),
            );
        };
        for e in content.gods.values() {
            for (i, ab) in e.value.abilities.iter().enumerate() {
                if ab.timing == AbilityTiming::Counter && ab.trigger.is_none() {
                    problem(
                        &e.origin,
                        format!("/abilities/{i}/timing"),
                        format!("counter ability `{}` has no `trigger`", ab.id),
                        "add `trigger = \"attacked\"` (or ability-attack, standard-attack, countered): 003 § Counters",
                    );
                }
            }
        }
        for e in content.boosts.values() {
            if e.value.timing == BoostTiming::Counter && e.value.trigger.is_none() {
                problem(
                    &e.origin,
                    "/timing".into(),
                    format!("counter Boost `{}` has no `trigger`", e.value.id),
                    "add `trigger = \"attacked\"` (or ability-attack, standard-attack, countered): 003 § Counters",
                );
            }
        }
        for e in content.artifacts.values() {
            let a = &e.value;
            let missing = match a.use_ {
                ArtifactUse::Prisma if a.prisma.is_none() => Some("prisma"),
                ArtifactUse::StandardAttack if a.damage.is_none() => Some("damage"),
                ArtifactUse::Healing if a.healing.is_none() => Some("healing"),
                ArtifactUse::Stamina if a.stamina_gain.is_none() => Some("stamina_gain"),
                ArtifactUse::Block if a.block.is_none() => Some("block"),
                _ => None,
            };
            if let Some(key) = missing {
                problem(
                    &e.origin,
                    "/use".into(),
                    format!("Artifact `{}` is used as {:?} but has no `{key}`", a.id, a.use_),
                    &format!("add `{key} = ...`: the engine plays the number"),
                );
            }
        }
        self.out.extend(found);
    }
}
