//! Minions: deployed by their Controller, removed at their Hit Points (`002 § Minion`).

use super::*;

impl<'a> Game<'a> {
    /// A Minion leaves the HexaDome: its Damage and State tokens go, and it is
    /// placed to the side, ready to be deployed again (`002 § Minion`).
    pub(super) fn remove_minion(&mut self, id: &str, why: &str) {
        let Some(u) = self.unit_mut(id) else { return };
        if u.minion.is_none() || !matches!(u.location, Location::Space(_)) {
            return;
        }
        u.location = Location::Aside;
        u.damage = 0;
        u.tokens.clear();
        self.emit(Event::MinionRemoved { minion: id.into(), why: why.to_string() });
    }

    /// A Controller deploys one of its Minions of card `card` on a Free space
    /// not Adjacent to any Allied Minion, if one is to the side (`002 § Controller`).
    pub(in crate::rules) fn deploy_minion(&mut self, controller: &str, card: &str, space: Hex) -> Result<Id> {
        let owner = self.unit(controller).map(|u| u.owner).ok_or_else(|| format!("no Character `{controller}`"))?;
        if self.is_minion(controller) {
            return Err(format!("`{controller}` is a Minion: only Controllers deploy Minions"));
        }
        let cards = &self.content.characters[controller].value.minions;
        let Some(m) = cards.iter().find(|m| m.id == card) else {
            let names: Vec<&str> = cards.iter().map(|m| m.id.as_str()).collect();
            return Err(if names.is_empty() {
                format!("`{controller}` has no Minion cards")
            } else {
                format!("`{controller}` has no Minion `{card}` (its Minions: {})", names.join(", "))
            });
        };
        let mine = |u: &Unit| u.minion.as_ref().is_some_and(|x| x.controller == controller && x.card == card);
        let Some(id) = self.state.units.iter().find(|u| mine(u) && u.location == Location::Aside).map(|u| u.id) else {
            return Err(format!("all {} of `{controller}`'s `{card}` Minions are already deployed", m.count));
        };
        if !self.is_free(space) {
            return Err(format!("[{}, {}] is not a Free space", space.q, space.r));
        }
        let allied_next = self.state.units.iter().any(|u| {
            u.owner == owner && u.minion.is_some() && matches!(u.location, Location::Space(h) if h.is_adjacent(space))
        });
        if allied_next {
            return Err(format!("[{}, {}] is Adjacent to an Allied Minion", space.q, space.r));
        }
        self.unit_mut(&id).expect("minion").location = Location::Space(space);
        self.emit(Event::MinionDeployed { controller: controller.into(), minion: id, space });
        Ok(id)
    }
}
