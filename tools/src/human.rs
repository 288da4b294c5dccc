//! A person at the terminal, for a seat of any game: [`HumanPlayer`] prints
//! what its seat may know (the events since it last answered, as that seat
//! reads them; Aristeia!'s board and its own Tactics; an Invictus god's
//! Health, Stamina, hand and Boosts) and the Decision's numbered options on
//! stderr, and reads the choice from stdin. It is handed only the seat's
//! view (`arena_engine::table::SeatView`), never the game's state.

use arena_engine::players::GreedyPlayer;
use arena_engine::table::{InfoSet, Player, SeatNative, SeatView};
use std::io::BufRead;

/// A person at the terminal. At the end of input the greedy player answers
/// for the seat, so a game always finishes.
#[derive(Debug, Default)]
pub(crate) struct HumanPlayer {
    closed: bool,
    /// Events already shown to this seat.
    shown: usize,
}

impl HumanPlayer {
    /// Show `picture`, read a choice of `options` from stdin; at the end of
    /// input, `None` (the greedy player answers from then on).
    fn ask(&mut self, picture: &str, options: usize) -> Option<usize> {
        eprint!("{picture}");
        let stdin = std::io::stdin();
        loop {
            eprint!("> ");
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    eprintln!("(end of input: the greedy player plays on)");
                    self.closed = true;
                    return None;
                }
                Ok(_) => match line.trim().parse::<usize>() {
                    Ok(n) if (1..=options).contains(&n) => return Some(n - 1),
                    _ => eprintln!("type a number from 1 to {options}"),
                },
            }
        }
    }
}

impl Player for HumanPlayer {
    /// In the engine's own loop (no other player at a table): the events
    /// the seat's view holds, from the game's start.
    fn choose(&mut self, seat: &SeatView<'_>) -> Option<usize> {
        if self.closed {
            return GreedyPlayer.choose(seat);
        }
        let lines = seat.narrative(self.shown);
        self.shown = seat.event_count();
        self.ask(&picture(seat, &lines), seat.options()).or_else(|| GreedyPlayer.choose(seat))
    }

    /// At a table (a greedy or search player at another seat): the game's
    /// events since the seat last answered, as it reads them, however the
    /// table got here.
    fn choose_in(&mut self, info: &InfoSet<'_, '_>) -> Option<usize> {
        let seat = info.view();
        if self.closed {
            return GreedyPlayer.choose_in(info);
        }
        let lines = info.narrative(self.shown);
        self.shown = info.event_count();
        self.ask(&picture(seat, &lines), seat.options()).or_else(|| GreedyPlayer.choose_in(info))
    }

    /// A person is asked at the table, whose events count from the game's
    /// start; once input ended, where the greedy player would be.
    fn needs_table(&self, seat: &SeatView<'_>) -> bool {
        !self.closed || GreedyPlayer.needs_table(seat)
    }
}

/// What the seat is shown before it answers: the narrative `lines` it has
/// not seen yet, the position as it knows it, and the Decision with
/// numbered options.
pub(crate) fn picture(seat: &SeatView<'_>, lines: &[String]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let mut about = String::new();
    match &seat.native {
        SeatNative::Aristeia { decision, view } => {
            out.push_str(&board_picture(decision, view));
            if let Some(hand) = view.player(decision.player).hand.cards().filter(|h| !h.is_empty()) {
                let _ = writeln!(out, "({}'s hand: {})", decision.player, hand.join(", "));
            }
            if let Some(c) = &decision.character {
                about = format!(" ({c})");
            }
        }
        SeatNative::Invictus { decision, view } => {
            let me = view.player(decision.player);
            let hand: Vec<&str> = me.hand.cards().unwrap_or_default().iter().map(|c| c.id()).collect();
            let boosts: Vec<&str> = me.boosts.cards().unwrap_or_default().iter().map(|b| b.card.id.as_str()).collect();
            let _ = writeln!(
                out,
                "\n{} ({} HP, Stamina {}): hand {}; Boosts {}",
                me.god,
                me.health,
                me.stamina,
                if hand.is_empty() { "-".into() } else { hand.join(", ") },
                if boosts.is_empty() { "none".into() } else { boosts.join(", ") }
            );
        }
    }
    let d = seat.decision();
    let _ = writeln!(out, "\n{}{about}: {}", d.player, d.prompt);
    for (i, o) in d.options.iter().enumerate() {
        let _ = writeln!(out, "  {:>2}. {o}", i + 1);
    }
    out
}

/// The compact board of an Aristeia! seat: the position as it knows it, with
/// the Decision's options on spaces numbered as they are listed.
pub(crate) fn board_picture(
    d: &arena_engine::rules::decision::Decision,
    view: &arena_engine::rules::view::View<'_>,
) -> String {
    use arena_engine::rules::decision::Choice;
    let Ok(scene) = arena_engine::render::Scene::of_view(view) else { return String::new() };
    let marks: Vec<_> = d
        .options
        .iter()
        .enumerate()
        .filter_map(|(i, o)| match o {
            Choice::Space { space } | Choice::MoveTo { space } => Some((*space, i + 1)),
            _ => None,
        })
        .collect();
    use arena_engine::render::text;
    format!("\n{}{}\n", text::board(&scene, &marks), text::key(text::seats(&scene)))
}
