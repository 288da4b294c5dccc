//! Pictures of the HexaDome: a map, a position, a replay at one event, as SVG
//! (`svg`), as a compact text board for the terminal (`text`), a balance
//! batch as bar charts (`chart`), and paired differences as a forest plot and
//! `arena tune`'s search as a curve (`forest`).
//!
//! Everything is drawn from the engine's own geometry ([`geometry::vertices`]:
//! the exact integer lattice in which the centre of `(q, r)` is `(2q + r, 3r)`),
//! so a picture shows the spaces the rules use. A [`Scene`] is what to draw,
//! built from a map ([`Scene::of_map`]), a seat's view of a game ([`Scene::of_view`],
//! for situations and the human seat) or a game's events up to one of them
//! ([`Scene::of_events`], for replays). No IO and no randomness: the same scene
//! and [`Options`] give the same bytes, so snapshot tests can hold them.
//!
//! Sources: `000 § HexaDome`, `§ Deployment Zones`, `§ Blocked Spaces`,
//! `§ Barriers`, `§ Line of Sight`, `§ Range`; `001 § Short Distance`
//! (Ziggurats), `§ Special Spaces`, `§ Running Projectiles`; `002 § Minion`.

pub mod chart;
mod fold;
pub mod forest;
pub mod svg;
pub mod text;

use crate::content::Content;
use crate::model::{self, Id, ZoneKind};
use crate::rules::event::Event;
use crate::rules::geometry::{self, Hex, Sight};
use crate::rules::seats::PlayerId;
use crate::rules::state::{Location, TokenSide};
use crate::rules::view::View;
use std::collections::{BTreeMap, BTreeSet};

/// What a picture shows: the board's terrain and what stands on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scene {
    /// A heading (the map's name, the Scenario, the event shown).
    pub title: String,
    /// The board is every space within this many spaces of `[0, 0]`.
    pub radius: u32,
    /// Blocked spaces (`000 § Blocked Spaces`).
    pub blocked: BTreeSet<Hex>,
    /// Barriers, Obstacles (`000 § Barriers`).
    pub barriers: BTreeSet<Hex>,
    /// The map's zones, in the map's order.
    pub zones: Vec<ZoneMark>,
    /// The current Scoring Zones' ids (none, one, or several: Crow Accumulator).
    pub scoring_zones: Vec<Id>,
    /// Special Space markers (`001 § Special Spaces`).
    pub special_spaces: Vec<Marker>,
    /// Smoke tokens (`004 § Smoke`).
    pub smoke: BTreeSet<Hex>,
    /// Characters, Minions and Running Projectiles, in or out of the HexaDome.
    pub figures: Vec<Figure>,
    /// Lines about the game: Round, Victory Points, Frags.
    pub status: Vec<String>,
}

/// A zone of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoneMark {
    /// Its id (`zone-1`, `central`).
    pub id: Id,
    /// Deployment, Central or Ziggurat.
    pub kind: ZoneKind,
    /// The printed number of a Deployment Zone.
    pub number: Option<u8>,
    /// Its spaces.
    pub spaces: Vec<Hex>,
}

/// A Special Space marker: face down, or face up showing its marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Its space.
    pub space: Hex,
    /// The marker's `special_space` id once revealed.
    pub revealed: Option<Id>,
}

/// What a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureKind {
    /// A Character.
    Character,
    /// A Minion (`002 § Minion`).
    Minion,
    /// A Running Projectile (`001 § Running Projectiles`).
    RunningProjectile,
}

/// One figure and its tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// The unit's id (`major-lunah`, `drone-1`, `running-projectile-2`).
    pub id: Id,
    /// A short label drawn on the figure, unique in the scene (`ML`, `Va`).
    pub label: String,
    /// Its player (a Minion's Controller's; whoever deployed a Running Projectile).
    pub player: PlayerId,
    /// Character, Minion or Running Projectile.
    pub kind: FigureKind,
    /// Where it is.
    pub location: Location,
    /// Damage tokens.
    pub damage: u8,
    /// Its card's Hit Points, when the content has it.
    pub hit_points: Option<u8>,
    /// State tokens, in the order they were placed: (State id, side).
    pub tokens: Vec<(Id, TokenSide)>,
    /// Action Points left in its Activation.
    pub action_points: u8,
    /// Whether it is the active Character.
    pub active: bool,
}

impl Figure {
    /// Its space, if it is in the HexaDome.
    pub fn space(&self) -> Option<Hex> {
        match self.location {
            Location::Space(h) => Some(h),
            _ => None,
        }
    }
}

/// The largest board radius the Line of Sight overlay is drawn for: over
/// three times the largest bundled map's (9). Its cost grows as the fourth
/// power of the radius (a radius-255 board ran past 120 s in a release
/// build); at radius 32 with 15% of the spaces Blocked, or Blocked spokes
/// from the viewer, a debug build draws it in 3.8 s.
pub const MAX_SIGHT_RADIUS: u32 = 32;

/// How to draw a scene.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Write each space's `q,r` in it.
    pub coordinates: bool,
    /// Overlay the Line of Sight (Clear / Limited / Blocked) and the
    /// Line-of-Sight Range from this space to every other.
    pub sight_from: Option<Hex>,
    /// Spaces to mark with a label (a Decision's options: `1`, `2`...).
    pub marks: Vec<(Hex, String)>,
}

/// The Line of Sight and Range from one space to another, as the overlay shows them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SightCell {
    /// The space looked at.
    pub space: Hex,
    /// Line of Sight from the chosen space (`000 § Line of Sight`).
    pub sight: Sight,
    /// Line-of-Sight Range: the shortest route avoiding Occupied and Blocked
    /// spaces (`000 § Range`), if there is one.
    pub range: Option<u32>,
}

impl Scene {
    /// The bare board of a map: terrain and zones, no figures.
    pub fn of_map(map: &model::Map) -> Scene {
        let h = |v: &[i16; 2]| Hex::new(i32::from(v[0]), i32::from(v[1]));
        Scene {
            title: format!("{} ({})", map.name, map.id),
            radius: u32::from(map.radius),
            blocked: map.blocked.iter().map(h).collect(),
            barriers: map.barriers.iter().map(h).collect(),
            zones: map
                .zones
                .iter()
                .map(|z| ZoneMark {
                    id: z.id,
                    kind: z.kind,
                    number: z.number,
                    spaces: z.spaces.iter().map(h).collect(),
                })
                .collect(),
            scoring_zones: Vec::new(),
            special_spaces: Vec::new(),
            smoke: BTreeSet::new(),
            figures: Vec::new(),
            status: Vec::new(),
        }
    }

    /// A game's position as a seat sees it: the map of its Scenario with
    /// every unit, token and marker of `view` (a marker face down unnamed).
    ///
    /// # Errors
    /// When the Scenario or its map is not in `content`.
    pub fn of_view(view: &View<'_>) -> Result<Scene, String> {
        let content = view.content;
        let mut scene = Scene::of_map(scenario_map(content, view.scenario())?);
        scene.title = format!("{}, Round {}", view.scenario(), view.round());
        scene.scoring_zones = view.scoring_zones().to_vec();
        scene.smoke = view.smoke().iter().map(|(h, _)| *h).collect();
        scene.special_spaces = view
            .special_spaces()
            .into_iter()
            .map(|(space, marker)| Marker { space, revealed: marker.cloned() })
            .collect();
        for u in view.units() {
            let kind = if u.projectile {
                FigureKind::RunningProjectile
            } else if u.minion.is_some() {
                FigureKind::Minion
            } else {
                FigureKind::Character
            };
            let hit_points = match (u.minion, kind) {
                (Some(m), _) => minion_hit_points(content, &m.controller, &m.card),
                (None, FigureKind::RunningProjectile) => Some(1),
                _ => content.characters.get(u.id).map(|c| c.value.hit_points),
            };
            scene.figures.push(Figure {
                id: *u.id,
                label: String::new(),
                player: u.owner,
                kind,
                location: u.location,
                damage: u.damage,
                hit_points,
                tokens: u.tokens.iter().map(|t| (t.state, t.side)).collect(),
                action_points: u.action_points,
                active: view.active() == Some(u.id),
            });
        }
        let players = view.players();
        let vp: Vec<String> = players.iter().map(|(p, pl)| format!("{p} {} VP", pl.victory_points)).collect();
        let frags: Vec<String> = players.iter().map(|(_, pl)| pl.frags.to_string()).collect();
        scene.status = vec![
            format!("Round {}  {}", view.round(), scoring_label(view.scoring_zones())),
            format!("{}  Frags {}", vp.join(", "), frags.join("-")),
        ];
        scene.label_figures();
        Ok(scene)
    }

    /// A game's position after `events` (a whole replay's events, or the
    /// first N of them), on the map of the Scenario its `GameStarted` names.
    /// Built by applying each event's change in order (`fold`), so it needs
    /// nothing but the events and the content's maps and cards.
    ///
    /// # Errors
    /// When the events do not start with `GameStarted` or its Scenario or map
    /// is not in `content`.
    pub fn of_events(content: &Content, events: &[Event]) -> Result<Scene, String> {
        let Some(Event::GameStarted { scenario, .. }) = events.first() else {
            return Err("a replay's events begin with the game's start".into());
        };
        let map = scenario_map(content, scenario)?;
        let sc = &content.scenarios[scenario].value;
        let mut start = Scene::of_map(map);
        // As the game starts: the Scenario's Scoring Zones (`Game::new`);
        // `ScoringZone` and `ScoringZones` events move them.
        start.scoring_zones = sc.scoring_zones.clone();
        let mut scene = fold::apply(content, start, events);
        scene.label_figures();
        Ok(scene)
    }

    /// The figure standing in a space, if any.
    pub fn occupant(&self, h: Hex) -> Option<&Figure> {
        self.figures.iter().find(|f| f.location == Location::Space(h))
    }

    /// Whether a space is on the board.
    pub fn on_board(&self, h: Hex) -> bool {
        h.within(self.radius)
    }

    /// Every space of the board, in `(q, r)` order.
    pub fn spaces(&self) -> Vec<Hex> {
        let n = self.radius as i32;
        let mut v = Vec::new();
        for q in -n..=n {
            for r in -n..=n {
                let h = Hex::new(q, r);
                if h.within(self.radius) {
                    v.push(h);
                }
            }
        }
        v
    }

    /// The zone a space belongs to, if any (the first listed).
    pub fn zone_of(&self, h: Hex) -> Option<&ZoneMark> {
        self.zones.iter().find(|z| z.spaces.contains(&h))
    }

    /// Line of Sight and Line-of-Sight Range from `from` to every other space
    /// of the board, as the rules measure them between two Characters with no
    /// States: Adjacent spaces have Clear Line of Sight; Smoke on either end
    /// blocks it (`004 § Smoke`); otherwise [`geometry::line_of_sight`] with
    /// Blocked spaces and spaces Occupied by a Character obstructing (Minions
    /// and Running Projectiles are Obstacles, which do not, `000 § Obstacles`);
    /// the Range route avoids Blocked spaces, Barriers and every Occupied space
    /// (`000 § Range`). Spaces in `(q, r)` order, `from` left out; none
    /// when [`Scene::sight_refused`] says why not.
    pub fn sight_from(&self, from: Hex) -> Vec<SightCell> {
        if self.sight_refused(from).is_some() {
            return Vec::new();
        }
        let obstructs = |h: Hex| {
            self.blocked.contains(&h)
                || self.smoke.contains(&h)
                || self.occupant(h).is_some_and(|f| f.kind == FigureKind::Character)
        };
        let free = |h: Hex| {
            self.on_board(h) && !self.blocked.contains(&h) && !self.barriers.contains(&h) && self.occupant(h).is_none()
        };
        let field = geometry::distance_field(from, free, 4 * self.radius + 2);
        self.spaces()
            .into_iter()
            .filter(|&h| h != from && !self.blocked.contains(&h))
            .map(|h| {
                let sight = if h.is_adjacent(from) {
                    Sight::Clear
                } else if self.smoke.contains(&h) || self.smoke.contains(&from) {
                    Sight::Blocked
                } else {
                    geometry::line_of_sight(from, h, obstructs)
                };
                // The destination need not be Free (it is usually the Target's space).
                let range = if h.is_adjacent(from) {
                    Some(1)
                } else {
                    h.neighbours().iter().filter_map(|n| field.get(n)).min().map(|d| d + 1)
                };
                SightCell { space: h, sight, range }
            })
            .collect()
    }

    /// Why the Line of Sight overlay from `from` is not drawn, if it is not:
    /// `from` is off the board, or the board is wider than
    /// [`MAX_SIGHT_RADIUS`] (the overlay's cost grows as the fourth power of
    /// the radius: every space's Line of Sight to every other).
    pub fn sight_refused(&self, from: Hex) -> Option<String> {
        if !self.on_board(from) {
            return Some(format!("[{}, {}] is off the board (radius {})", from.q, from.r, self.radius));
        }
        (self.radius > MAX_SIGHT_RADIUS).then(|| {
            format!(
                "the board's radius is {}: Line of Sight is drawn on boards of radius {MAX_SIGHT_RADIUS} or less",
                self.radius
            )
        })
    }

    /// Give every figure a short label, unique in the scene: the initials of a
    /// hyphenated id (`major-lunah` → `ML`), else its first two letters
    /// (`valkyrie` → `Va`); Minions and Running Projectiles end in their number
    /// (`drone-1` → `D1`, `running-projectile-2` → `R2`); a clash gets a digit.
    fn label_figures(&mut self) {
        let mut used: BTreeMap<String, usize> = BTreeMap::new();
        for f in &mut self.figures {
            let base = short_label(&f.id, f.kind);
            let n = used.entry(base.clone()).or_insert(0);
            *n += 1;
            f.label = if *n == 1 { base } else { format!("{base}{n}") };
        }
    }
}

/// The map a Scenario is played on.
fn scenario_map<'c>(content: &'c Content, scenario: &str) -> Result<&'c model::Map, String> {
    let sc = content.scenarios.get(scenario).ok_or_else(|| format!("no Scenario `{scenario}`"))?;
    content.maps.get(&sc.value.map).map(|m| &m.value).ok_or_else(|| format!("no map `{}`", sc.value.map))
}

/// A Minion card's Hit Points, from its Controller's Character card.
fn minion_hit_points(content: &Content, controller: &str, card: &str) -> Option<u8> {
    content.characters.get(controller)?.value.minions.iter().find(|m| m.id == card).map(|m| m.hit_points)
}

fn short_label(id: &str, kind: FigureKind) -> String {
    let parts: Vec<&str> = id.split('-').filter(|p| !p.is_empty()).collect();
    let cap = |s: &str| s.chars().next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
    let number = parts.last().filter(|p| p.chars().all(|c| c.is_ascii_digit()));
    match (kind, number) {
        (FigureKind::Minion | FigureKind::RunningProjectile, Some(n)) => format!("{}{n}", cap(parts[0])),
        _ if parts.len() >= 2 => format!("{}{}", cap(parts[0]), cap(parts[1])),
        _ => {
            let mut c = id.chars();
            let first = c.next().map(|c| c.to_uppercase().collect::<String>()).unwrap_or_default();
            format!("{first}{}", c.next().map(String::from).unwrap_or_default())
        }
    }
}

/// The status line's Scoring Zones: "Scoring Zone central", "Scoring Zones
/// a and b", or "no Scoring Zone".
pub(crate) fn scoring_label(zones: &[Id]) -> String {
    match zones {
        [] => "no Scoring Zone".into(),
        [z] => format!("Scoring Zone {z}"),
        zs => format!("Scoring Zones {}", zs.join(" and ")),
    }
}
