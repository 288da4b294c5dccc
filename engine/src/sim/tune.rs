//! `arena tune`'s search: which whole value of a numeric field brings a
//! figure of the balance readout (a seat's win rate, a Character's adjusted
//! strength, a god's win rate) to a target, within a precision.
//!
//! The figure is measured by batches of games; each value is played on the
//! same seeds (common random numbers), so two values' readings differ by
//! what the value changes and little else, and the search is reproducible:
//! the same seed, content and players find the same value.
//!
//! The search is a noisy bisection over whole values (a stochastic root
//! finder on a lattice): the field's current value and the range's two ends
//! are read first (the current value reading within the precision ends it:
//! nothing to change), then the middle of the nearest pair of read values
//! whose readings lie on either side of the target, until two neighbouring
//! whole values bracket the target; the closer of them is the answer, and it
//! reaches the target when it reads within the precision. At most
//! 3 + ⌈log2(HIGH − LOW)⌉ values are read. A reading is *settled*
//! when its 95% interval is within the precision (half-width at most the
//! precision) or when it lies wholly beyond the target's band, so a value far
//! off costs one chunk of games. docs/balance.md § arena tune.

use std::collections::BTreeMap;

/// One value's reading: the figure's estimate and its 95% interval, as
/// probabilities (0 to 1), over `games` games.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Reading {
    /// The estimate (a win rate, or an adjusted strength's win probability).
    pub estimate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
    /// The games it was read over.
    pub games: u64,
}

impl Reading {
    /// The interval's half-width (0 to 0.5).
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Slack for rounding in the comparisons with the precision (a reading of
/// 47% to 51% is within ±2 points).
const EPSILON: f64 = 1e-9;

/// What the search aims at: `target` within ± `precision` (both 0 to 1): a
/// value's 95% interval inside that band.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Goal {
    /// The figure wanted (0.5: 50%).
    pub target: f64,
    /// The half-width of the band around it that a reading's interval must
    /// lie in (0.02: ±2 points).
    pub precision: f64,
}

impl Goal {
    /// A reading the search can steer by: its interval excludes the target
    /// (which side it is on is known), or [`Goal::decided`].
    pub fn settled(&self, r: &Reading) -> bool {
        r.high < self.target || r.low > self.target || self.decided(r)
    }

    /// A reading that says whether its value reaches the goal: its interval
    /// lies wholly inside the band ([`Goal::reached`]) or wholly outside it.
    pub fn decided(&self, r: &Reading) -> bool {
        self.reached(r) || r.high < self.target - self.precision || r.low > self.target + self.precision
    }

    /// More games may show the reading reaches the goal: its estimate is
    /// inside the band, its interval not yet (an estimate outside the band
    /// never reaches it: the interval holds the estimate).
    pub fn may_reach(&self, r: &Reading) -> bool {
        !self.decided(r) && (r.estimate - self.target).abs() <= self.precision + EPSILON
    }

    /// The reading reaches the goal: its 95% interval lies inside the band,
    /// target ± precision (so a reading "50% ± 2" is one whose interval is
    /// within 48-52%).
    pub fn reached(&self, r: &Reading) -> bool {
        r.low >= self.target - self.precision - EPSILON && r.high <= self.target + self.precision + EPSILON
    }

    /// The side of the target the estimate falls on (-1, 0, 1).
    fn side(&self, r: &Reading) -> i8 {
        if r.estimate < self.target {
            -1
        } else if r.estimate > self.target {
            1
        } else {
            0
        }
    }
}

/// What to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Read this value, until its reading is [`Goal::settled`].
    Read(i64),
    /// Read this value (the answer, read before) further, on the seeds after
    /// those it was read on, until its reading is [`Goal::decided`]:
    /// whether it reaches the goal. Asked once per value, and only when its
    /// estimate is inside the band ([`Goal::may_reach`]).
    Refine(i64),
    /// This value reaches the goal.
    Reached(i64),
    /// Two neighbouring whole values bracket the target and neither reaches
    /// it: the closer of them.
    Between(i64),
    /// No value of the range reaches the target's side: the closest read.
    OutOfRange(i64),
}

/// The search over one field's whole values `low..=high`.
#[derive(Debug, Clone)]
pub struct Search {
    low: i64,
    high: i64,
    current: i64,
    readings: BTreeMap<i64, Reading>,
    refined: std::collections::BTreeSet<i64>,
}

impl Search {
    /// A search of `low..=high` (`low <= high`) for a field whose value is
    /// `current` now.
    pub fn new(low: i64, high: i64, current: i64) -> Search {
        Search {
            low: low.min(high),
            high: low.max(high),
            current,
            readings: BTreeMap::new(),
            refined: Default::default(),
        }
    }

    /// Record the reading of `value` (after [`Step::Read`] or [`Step::Refine`]).
    pub fn record(&mut self, value: i64, reading: Reading) {
        if self.readings.insert(value, reading).is_some() {
            self.refined.insert(value);
        }
    }

    /// The readings so far, by value.
    pub fn readings(&self) -> &BTreeMap<i64, Reading> {
        &self.readings
    }

    /// The next step towards `goal`.
    pub fn next(&self, goal: &Goal) -> Step {
        let in_range = (self.low..=self.high).contains(&self.current);
        // The current value already there: nothing to change.
        if in_range && self.readings.get(&self.current).is_some_and(|r| goal.reached(r)) {
            return Step::Reached(self.current);
        }
        for v in [in_range.then_some(self.current), Some(self.low), Some(self.high)].into_iter().flatten() {
            if !self.readings.contains_key(&v) {
                return Step::Read(v);
            }
        }
        // The pair of neighbouring read values whose readings straddle the
        // target, nearest the current value; bisected until they are whole
        // neighbours, whose closer to the target is the answer (a value
        // read on the way that reaches the band does not end the search:
        // the one closest to the target does, so the next batch reads it
        // well inside the band).
        let read: Vec<(i64, &Reading)> = self.readings.iter().map(|(v, r)| (*v, r)).collect();
        let mut pairs: Vec<(i64, i64)> =
            read.windows(2).filter(|w| goal.side(w[0].1) != goal.side(w[1].1)).map(|w| (w[0].0, w[1].0)).collect();
        pairs.sort_by_key(|(a, b)| (self.current - a).abs().min((self.current - b).abs()));
        // The answer: read further first when its reading cannot yet say
        // whether it reaches the goal.
        let end = |v: i64, bracketed: bool| {
            let r = &self.readings[&v];
            match (goal.reached(r), bracketed) {
                (false, _) if goal.may_reach(r) && !self.refined.contains(&v) => Step::Refine(v),
                (true, _) => Step::Reached(v),
                (false, true) => Step::Between(v),
                (false, false) => Step::OutOfRange(v),
            }
        };
        match pairs.first() {
            None => end(self.closest(goal).unwrap_or(self.current), false),
            Some(&(a, b)) if b - a <= 1 => {
                // The one that reaches the goal, else the closer.
                let d = |v: i64| (self.readings[&v].estimate - goal.target).abs();
                let reaches = |v: i64| goal.reached(&self.readings[&v]);
                let closer = match (reaches(a), reaches(b)) {
                    (true, false) => a,
                    (false, true) => b,
                    _ if d(b) < d(a) => b,
                    _ => a,
                };
                end(closer, true)
            }
            Some(&(a, b)) => Step::Read(a + (b - a) / 2),
        }
    }

    /// The read value whose estimate is closest to the target; on a tie the
    /// current value (nothing to change for no gain), else the lower. The
    /// current value also stays when the closest does not reach the goal
    /// and its interval overlaps the current value's: nothing then shows
    /// that the change gains anything (a field the figure does not move
    /// must not be changed by noise).
    fn closest(&self, goal: &Goal) -> Option<i64> {
        let distance = |r: &Reading| (r.estimate - goal.target).abs();
        let best = self
            .readings
            .iter()
            .min_by(|a, b| {
                distance(a.1)
                    .total_cmp(&distance(b.1))
                    .then_with(|| (*b.0 == self.current).cmp(&(*a.0 == self.current)))
            })
            .map(|(v, _)| *v)?;
        match (self.readings.get(&self.current), self.readings.get(&best)) {
            (Some(now), Some(b)) if !goal.reached(b) && now.low <= b.high && b.low <= now.high => Some(self.current),
            _ => Some(best),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reading of `p` with a half-width of `half`.
    fn reading(p: f64, half: f64) -> Reading {
        Reading { estimate: p, low: p - half, high: p + half, games: 400 }
    }

    /// Runs the search on an exact curve, returning the values read and the end.
    fn run(low: i64, high: i64, current: i64, goal: Goal, curve: impl Fn(i64) -> f64) -> (Vec<i64>, Step) {
        run_with(0.01, low, high, current, goal, curve)
    }

    /// [`run`] with readings of half-width `half`, a quarter of it once refined.
    fn run_with(
        half: f64,
        low: i64,
        high: i64,
        current: i64,
        goal: Goal,
        curve: impl Fn(i64) -> f64,
    ) -> (Vec<i64>, Step) {
        let mut s = Search::new(low, high, current);
        let mut read = Vec::new();
        loop {
            match s.next(&goal) {
                Step::Read(v) => {
                    assert!(!read.contains(&v), "{v} read twice: {read:?}");
                    read.push(v);
                    s.record(v, reading(curve(v), half));
                }
                Step::Refine(v) => {
                    assert!(read.contains(&v), "{v} refined before it was read: {read:?}");
                    s.record(v, reading(curve(v), half / 4.0));
                }
                end => return (read, end),
            }
        }
    }

    const GOAL: Goal = Goal { target: 0.5, precision: 0.02 };

    #[test]
    fn a_rising_curve_is_bisected_to_the_value_that_reaches_the_target() {
        // 8% at 1 Hit Point, rising 6 points a Hit Point: 50% at 8.
        let (read, end) = run(1, 20, 1, GOAL, |v| 0.08 + 0.06 * (v - 1) as f64);
        assert_eq!(end, Step::Reached(8));
        assert_eq!(read[..2], [1, 20], "the current value (the low end), then the high end");
        assert!(read.len() <= 3 + 5, "3 + log2(19) rounded up: {read:?}");
    }

    #[test]
    fn of_the_values_in_the_band_the_one_closest_to_the_target_is_the_answer() {
        // A curve that levels off inside the band: 47% at 4, 51% at 5, 54%
        // from 6 on. The high end (54%) is in the ±5 band, but 5 is closer.
        let curve = |v: i64| [0.065, 0.23, 0.38, 0.47, 0.51, 0.538, 0.54, 0.54][v as usize - 1];
        let (read, end) = run(1, 8, 1, Goal { target: 0.5, precision: 0.05 }, curve);
        assert_eq!(end, Step::Reached(5));
        assert_eq!(read, vec![1, 8, 4, 6, 5]);
    }

    #[test]
    fn a_falling_curve_is_searched_the_same_way() {
        let (_, end) = run(0, 10, 6, GOAL, |v| 0.9 - 0.05 * v as f64);
        assert_eq!(end, Step::Reached(8));
    }

    #[test]
    fn a_target_between_two_whole_values_gives_the_closer_one() {
        // 40% at 3, 60% at 4: 50% is not reached by a whole value; 4 is at 53 with this curve.
        let (_, end) = run(1, 8, 1, GOAL, |v| if v <= 3 { 0.3 + 0.03 * v as f64 } else { 0.53 + 0.01 * v as f64 });
        assert_eq!(end, Step::Between(4), "39% at 3, 57% at 4: 4 is closer");
    }

    #[test]
    fn an_answer_whose_interval_overlaps_the_band_edge_is_read_further() {
        // 30% at 1, 4.3 points more a value: 47.2% at 5 (46.2-48.2%, wholly
        // below 48%), 51.5% at 6 (50.5-52.5%, past 52%: read further, ±0.25, inside).
        let (_, end) = run_with(0.01, 1, 8, 1, GOAL, |v| 0.3 + 0.043 * (v - 1) as f64);
        assert_eq!(end, Step::Reached(6));
    }

    #[test]
    fn a_tie_for_the_closest_keeps_the_current_value() {
        // Every value reads the same (a figure the field does not move):
        // the current value is kept, so nothing is written.
        let mut s = Search::new(3, 6, 5);
        let goal = Goal { target: 0.5, precision: 0.02 };
        for v in [5, 3, 6] {
            assert_eq!(s.next(&goal), Step::Read(v));
            s.record(v, Reading { estimate: 0.0, low: 0.0, high: 0.019, games: 400 });
        }
        assert_eq!(s.next(&goal), Step::OutOfRange(5));
    }

    #[test]
    fn a_closest_value_the_noise_cannot_tell_from_the_current_one_keeps_it() {
        // Parvati's Hit Points in the docs' worked example (2026-12-08):
        // 38.4% [30.4-47.0] at 3, 38.7% [30.9-47.2] at 6, a target of 50%
        // no value reaches: 6 is closer by 0.3 points of noise; 3 stays.
        let mut s = Search::new(3, 6, 3);
        let goal = Goal { target: 0.5, precision: 0.05 };
        for (v, (estimate, low, high)) in [(3, (0.384, 0.304, 0.47)), (6, (0.387, 0.309, 0.472))] {
            assert_eq!(s.next(&goal), Step::Read(v));
            s.record(v, Reading { estimate, low, high, games: 200 });
        }
        assert_eq!(s.next(&goal), Step::OutOfRange(3));
        // A closest value that reaches the goal is the answer, overlap or
        // not (Submachine Guns at 1 Energy: 49.1% [45.8-52.4] against 38.4%
        // [30.4-47.0] at 2, for 50% ± 5).
        let mut s = Search::new(1, 2, 2);
        for (v, (estimate, low, high)) in [(2, (0.384, 0.304, 0.47)), (1, (0.491, 0.458, 0.524))] {
            assert_eq!(s.next(&goal), Step::Read(v));
            s.record(v, Reading { estimate, low, high, games: 1200 });
        }
        assert_eq!(s.next(&goal), Step::Reached(1));
    }

    #[test]
    fn a_target_beyond_the_range_gives_the_closest_end() {
        let (read, end) = run(1, 8, 4, GOAL, |v| 0.1 + 0.02 * v as f64);
        assert_eq!(end, Step::OutOfRange(8));
        assert_eq!(read, vec![4, 1, 8]);
    }

    #[test]
    fn the_current_value_already_at_the_target_is_the_answer() {
        let (read, end) = run(1, 8, 5, GOAL, |v| 0.35 + 0.03 * v as f64);
        assert_eq!((read, end), (vec![5], Step::Reached(5)));
    }

    #[test]
    fn a_reading_far_outside_the_band_is_settled_before_it_is_precise() {
        let goal = Goal { target: 0.5, precision: 0.02 };
        assert!(goal.settled(&reading(0.2, 0.1)), "20% ± 10 is wholly below 48%");
        assert!(!goal.settled(&reading(0.45, 0.1)), "45% ± 10 may be 50%");
        assert!(goal.settled(&reading(0.45, 0.02)), "43-47% is wholly below 48%");
        assert!(!goal.reached(&reading(0.45, 0.02)));
        assert!(goal.reached(&reading(0.49, 0.01)), "48-50% is inside 48-52%");
        assert!(!goal.reached(&reading(0.49, 0.02)), "47-51% reaches past 48%");
        assert!(!goal.settled(&reading(0.49, 0.02)), "more games decide it");
        assert!(goal.may_reach(&reading(0.49, 0.02)));
        assert!(!goal.may_reach(&reading(0.47, 0.02)), "45-49%: its estimate is outside 48-52%");
        assert!(!goal.reached(&reading(0.5, 0.03)), "at the target, but not measured to ±2");
    }
}
