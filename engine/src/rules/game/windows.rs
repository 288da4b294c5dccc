//! Timing windows: restrictions, Automatic Skills, the windows where Tactics and skills play, and who orders them (`000 § Automatic Skills`, `000 § Solving Rules Contradictions`, docs/windows.md).

use super::*;

impl<'a> Game<'a> {
    /// Whether a restriction of `character`'s Automatic Skills forbids what the
    /// running Effect is about to do to it; if so, says so in the narrative.
    /// Restrictions take precedence over every other rule and Effect (`000 §
    /// Solving Rules Contradictions`, 1). `MovedByEnemyEffects` applies when the
    /// running Effect belongs to an enemy of `character`.
    pub(super) fn prevented(&mut self, character: &str, what: model::Prevention) -> bool {
        let Some(owner) = self.unit(character).map(|u| u.owner) else { return false };
        let enemy_effect = match what {
            model::Prevention::MovedByEnemyEffects => self
                .effect_frame
                .effect_source
                .as_deref()
                .and_then(|s| self.unit(s))
                .is_some_and(|source| source.owner != owner),
        };
        if !enemy_effect {
            return false;
        }
        let skill = self
            .card(character)
            .automatic_skills
            .iter()
            .find(|s| s.effect.prevents.contains(&what) && !self.silenced(character, &s.id))
            .map(|s| s.name.clone());
        match skill {
            Some(name) => {
                self.emit(Event::Log { text: format!("{character} cannot be moved by an enemy Effect ({name})") });
                true
            }
            None => false,
        }
    }

    /// Run the Automatic Skills of `id` whose `timing` is `window` (a skill with
    /// Lua and no timing acts at the start of its Character's Activation).
    pub(super) fn automatic_skills(
        &mut self,
        id: &str,
        window: model::Window,
        target: Option<&str>,
        successes: Option<i64>,
    ) {
        let skills: Vec<(String, String, String)> = self
            .card(id)
            .automatic_skills
            .iter()
            .filter(|s| s.timing.unwrap_or(model::Window::ActivationStart) == window)
            .filter(|s| (s.effect.lua.is_some() || s.effect.script.is_some()) && !self.silenced(id, &s.id))
            .map(|s| (format!("automatic_skills[id={}].effect", s.id), s.effect.text.clone(), s.name.clone()))
            .collect();
        // At moments where what happens would otherwise come out of nowhere
        // (an Enemy's Attack, an Ally's step, Damage), the narrative names the
        // skill when it did something.
        let named = matches!(
            window,
            model::Window::AttackDeclared
                | model::Window::AllyActionsStepStart
                | model::Window::DamageSuffered
                | model::Window::SentToInfirmary
                | model::Window::AfterRoll
                | model::Window::ActionsStepEnd
                | model::Window::StatesStep
                | model::Window::PlanningPhase
                | model::Window::ObjectivesPhase
                | model::Window::RecoveryPhase
        );
        for (path, text, name) in skills {
            let before = self.events.len();
            self.run_card_effect(id, &path, id, target, successes, &text);
            if named && self.events.len() > before {
                self.events.insert(before, Event::Log { text: format!("{id}'s {name}:") });
            }
        }
    }

    /// Run an effect of a Character's or Minion's card (`path` within the card).
    pub(super) fn run_card_effect(
        &mut self,
        who: &str,
        path: &str,
        self_id: &str,
        target: Option<&str>,
        successes: Option<i64>,
        text: &str,
    ) {
        if self.find_card_effect(who, format_args!("{path}")).is_none() {
            // What `run_effect` records for an effect without Lua, without its path.
            self.emit(Event::Log { text: format!("(not scripted: {text})") });
            return;
        }
        let (card, path) = self.effect_home(who, path);
        self.run_effect(&card, &path, self_id, target, successes, text);
    }

    /// The Automatic Skills of `window` of every unit `whose` accepts that may
    /// use them where it is (see [`Game::skill_reaches`]), in unit order,
    /// with ctx.target = `target`.
    ///
    /// When several units have such skills, they happen in the same step and
    /// "the Underdog decides the order" (`000 § When Do Things Happen`): the
    /// Underdog picks which resolves next.
    pub(super) fn skills_of_units(
        &mut self,
        window: model::Window,
        whose: impl Fn(&Unit) -> bool,
        target: Option<&str>,
    ) {
        let mut holders: Vec<Id> = self
            .state
            .units
            .iter()
            .filter(|u| whose(u) && Self::skill_reaches(window, u.location))
            .filter(|u| {
                self.card(&u.id).automatic_skills.iter().any(|k| {
                    k.timing == Some(window)
                        && (k.effect.lua.is_some() || k.effect.script.is_some())
                        && !self.silenced(&u.id, &k.id)
                })
            })
            .map(|u| u.id)
            .collect();
        while !holders.is_empty() {
            let next = if holders.len() == 1 {
                holders.remove(0)
            } else {
                let options = holders.iter().map(|h| Choice::Pick { id: *h }).collect();
                let underdog = self.state.underdog;
                let Choice::Pick { id } = self.decide(
                    underdog,
                    DecisionKind::SimultaneousEffects,
                    None,
                    "Simultaneous effects: which resolves first?",
                    options,
                ) else {
                    break;
                };
                holders.retain(|h| *h != id);
                self.emit(Event::Log { text: format!("the Underdog, {underdog}, has {id}'s effect resolve first") });
                id
            };
            if self.unit(&next).is_some_and(|u| Self::skill_reaches(window, u.location)) {
                self.automatic_skills(&next, window, target, None);
            }
        }
    }

    /// Whether a unit at `location` uses its Automatic Skills of `window`.
    /// "Automatic Skills' Effects are always active, even during an Enemy's
    /// Activation, or when the Character is in the Infirmary or the Bench"
    /// (`000 § Automatic Skills`; `001 § Automatic Skills`: "or when the
    /// Character is in the Bench"). So a Character in the Infirmary or on the
    /// Bench uses the skills of the windows that are about the game or its
    /// Allies, not about its own place in the HexaDome: the Planning,
    /// Objectives and Recovery Phases and the start of an Ally's Actions
    /// Step (Fairy Dust). An `attack-declared` skill answers an Enemy's
    /// Attack from the HexaDome (Implacable: "you may Displace yourself"), so
    /// it stays with Characters on a space; a Minion placed aside is out of
    /// the game until deployed again (`002 § Minion`).
    pub(super) fn skill_reaches(window: model::Window, location: Location) -> bool {
        match location {
            Location::Space(_) => true,
            Location::Infirmary | Location::Bench => matches!(
                window,
                model::Window::PlanningPhase
                    | model::Window::ObjectivesPhase
                    | model::Window::RecoveryPhase
                    | model::Window::AllyActionsStepStart
            ),
            Location::Aside => false,
        }
    }

    /// A moment of the rules' sequence (`000 § When Do Things Happen`): the
    /// Automatic Skills of that timing run (of `character`, or of every unit
    /// for a phase, also in the Infirmary or on the Bench), then both players may play Tactics of that
    /// timing; if both want to, the Underdog chooses who plays first. A
    /// Tactic's ctx.self is `character`, or for a phase the player's first
    /// Character in the HexaDome.
    pub(super) fn open_window(&mut self, window: model::Window, character: Option<&str>) {
        match character {
            Some(c) => self.automatic_skills(c, window, None, None),
            None => self.skills_of_units(window, |_| true, None),
        }
        if self.state.over {
            return;
        }
        let for_player = |g: &Self, p: PlayerId| -> Option<Id> {
            if let Some(c) = character {
                return Some(c.into());
            }
            let team = &g.state.players[p].team;
            team.iter().find(|c| g.space_of(c).is_some()).or(team.first()).cloned()
        };
        let mut order: Vec<(PlayerId, Id)> = self
            .table()
            .seats()
            .filter_map(|p| for_player(self, p).map(|c| (p, c)))
            .filter(|(p, c)| !self.playable(*p, window, Some(c)).is_empty())
            .collect();
        if order.len() == 2 {
            let options: Vec<Choice> = order.iter().map(|(p, _)| Choice::Text { text: format!("{p} first") }).collect();
            let first = self.decide(
                self.state.underdog,
                DecisionKind::Tactic,
                None,
                "Who plays Tactics first?",
                options.clone(),
            );
            if first != options[0] {
                order.swap(0, 1);
            }
        }
        for (p, me) in order {
            for _ in 0..8 {
                let mut playable = self.playable(p, window, Some(&me));
                playable.retain(|t| self.tactic_condition(t, &me));
                if playable.is_empty() || self.state.over {
                    break;
                }
                let options = std::iter::once(Choice::Done)
                    .chain(playable.into_iter().map(|t| Choice::Play { tactic: t }))
                    .collect();
                let Choice::Play { tactic } =
                    self.decide(p, DecisionKind::Tactic, Some(&me), "Play a Tactic now?", options)
                else {
                    break;
                };
                self.play_tactic(p, &tactic, &me, None);
            }
        }
    }
}
