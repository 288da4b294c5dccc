//! Strength adjusted for teammates and opponents: a per-Character estimate
//! from a conditional (multinomial) logit over the team compositions of a
//! batch ([`Strengths::fit`]).
//!
//! A Character's raw row (its side's win rate) mixes in its teammates and
//! opponents. Here each game is one choice among the teams at the table:
//! team `k`'s score is `S_k = Σ β_c` over its Characters `c` plus `γ_k`, the
//! advantage of seat `k` (`γ_1 = 0`), and
//!
//! ```text
//! P(team k wins) = exp(S_k) / Σ_j exp(S_j)
//! ```
//!
//! which is Bradley-Terry at two seats and the same model at three or four.
//! Games that ended in a draw (or without a winner) are left out of the fit:
//! the model has no outcome for them; their number is reported.
//!
//! The fit maximises the log-likelihood minus a ridge penalty `λ/2 · Σ θ²`
//! over every parameter (`λ =` [`RIDGE`], a Normal prior of standard
//! deviation 2 on the log-odds scale), by Newton's method (IRLS) with step
//! halving, solving with a hand-written Cholesky factorisation of the
//! penalised Hessian (symmetric positive definite, since `λ > 0`). A team's
//! score is unchanged when one constant is added to every Character's
//! strength (teams of the same size), so only differences are identified; the
//! ridge picks the solution whose strengths sum to zero (exactly, with teams
//! of equal size): 0 is the average Character. The 95% interval is Wald's,
//! `β ± 1.96·√V`, with `V` the inverse of the penalised Hessian projected onto
//! strengths that sum to zero. Two Characters that always play side by side
//! are told apart by nothing but the ridge: their estimates are equal and
//! their intervals wide.
//!
//! Deterministic: the compositions are read in their sorted order and every
//! sum is taken in the same order, so the same [`Composition`]s give the same
//! [`Strengths`], bit for bit, whether counted in one batch or merged from
//! shards.

use std::collections::BTreeMap;

use crate::model::Id;

/// Games with the same teams in seat order and the same outcome.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Composition {
    /// Each seat's Characters, sorted by id (a team is a set).
    pub teams: Vec<Vec<Id>>,
    /// The winning seat (0 for player 1), or none on a draw.
    pub winner: Option<usize>,
    /// How many games.
    pub games: u64,
}

/// The ridge penalty `λ` on every parameter (log-odds scale): a Normal prior
/// of mean 0 and variance `1/λ = 4`.
pub const RIDGE: f64 = 0.25;

/// Most Newton iterations before the fit reports it did not converge.
pub const MAX_ITERATIONS: u32 = 100;

const Z: f64 = 1.959_963_984_540_054;

/// An estimate on the log-odds scale with its 95% Wald interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    /// The estimate.
    pub estimate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

/// One Character's adjusted strength.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Strength {
    /// Games of the fit (won by some team) it played in.
    pub games: u64,
    /// Its strength `β` on the log-odds scale, 0 for the average Character.
    pub log_odds: Estimate,
    /// The probability that a team of it and average Characters beats
    /// average teams at the batch's table, seat advantage aside:
    /// `exp(β) / (exp(β) + seats − 1)` (at two seats `1 / (1 + exp(−β))`;
    /// the even share is `1/seats`), with the interval's ends mapped the same
    /// way.
    pub win_probability: Estimate,
}

/// The adjusted strengths of a batch's Characters (see the module docs).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Strengths {
    /// Players at the table.
    pub seats: usize,
    /// Games fitted: those some team won.
    pub games: u64,
    /// Games left out of the fit: draws (no winner).
    pub left_out: u64,
    /// The ridge penalty used ([`RIDGE`]).
    pub ridge: f64,
    /// Newton iterations taken.
    pub iterations: u32,
    /// Whether the steps fell below 1e-9 within [`MAX_ITERATIONS`].
    pub converged: bool,
    /// Per Character (every Character of a fitted game).
    pub characters: BTreeMap<Id, Strength>,
    /// The advantage `γ_k` of seats 2, 3, ... over seat 1, on the log-odds scale.
    pub seat_advantage: Vec<Estimate>,
}

/// One fitted game kind: the parameter indices of each team, the winner, the count.
struct Row {
    teams: Vec<Vec<usize>>,
    winner: usize,
    count: f64,
}

impl Strengths {
    /// Fit the model to `compositions` (a [`super::Tally`]'s, sorted) of a
    /// table of `seats` players. `None` when no game had a winner.
    pub fn fit(compositions: &[Composition], seats: usize) -> Option<Strengths> {
        let seats = seats.max(2);
        let mut ids: BTreeMap<&Id, usize> = BTreeMap::new();
        for c in compositions.iter().filter(|c| c.winner.is_some()) {
            for id in c.teams.iter().flatten() {
                ids.insert(id, 0);
            }
        }
        if ids.is_empty() {
            return None;
        }
        for (i, v) in ids.values_mut().enumerate() {
            *v = i;
        }
        let m = ids.len();
        let n = m + seats - 1;
        let (mut games, mut left_out, mut played) = (0u64, 0u64, vec![0u64; m]);
        let mut rows = Vec::new();
        for c in compositions {
            let Some(w) = c.winner.filter(|w| *w < c.teams.len() && c.teams.len() <= seats) else {
                left_out += c.games;
                continue;
            };
            games += c.games;
            let teams: Vec<Vec<usize>> = c
                .teams
                .iter()
                .enumerate()
                .map(|(k, t)| {
                    let mut x: Vec<usize> = t.iter().map(|id| ids[id]).collect();
                    if k > 0 {
                        x.push(m + k - 1);
                    }
                    x
                })
                .collect();
            for i in teams.iter().flatten().filter(|i| **i < m) {
                played[*i] += c.games;
            }
            rows.push(Row { teams, winner: w, count: c.games as f64 });
        }
        let (theta, hessian, iterations, converged) = newton(&rows, n);
        // The variance of strengths that sum to zero: P H⁻¹ P, P projecting
        // out the common constant of the Characters' strengths.
        let inverse = cholesky(&hessian).map(|l| inverse_of(&l, n));
        let row_means: Vec<f64> =
            inverse.iter().flat_map(|h| h[..m].iter().map(|r| r[..m].iter().sum::<f64>() / m as f64)).collect();
        let all = row_means.iter().sum::<f64>() / m as f64;
        let var = |i: usize| -> f64 {
            let Some(h) = &inverse else { return f64::INFINITY };
            if i >= m { h[i][i] } else { h[i][i] - 2.0 * row_means[i] + all }
        };
        let interval = |i: usize| {
            let half = Z * var(i).max(0.0).sqrt();
            Estimate { estimate: theta[i], low: theta[i] - half, high: theta[i] + half }
        };
        let others = (seats - 1) as f64;
        let probability = |b: f64| 1.0 / (1.0 + others * (-b).exp());
        let characters = ids
            .iter()
            .map(|(id, &i)| {
                let e = interval(i);
                let p =
                    Estimate { estimate: probability(e.estimate), low: probability(e.low), high: probability(e.high) };
                (*(*id), Strength { games: played[i], log_odds: e, win_probability: p })
            })
            .collect();
        Some(Strengths {
            seats,
            games,
            left_out,
            ridge: RIDGE,
            iterations,
            converged,
            characters,
            seat_advantage: (m..n).map(interval).collect(),
        })
    }
}

/// The penalised negative log-likelihood at `theta`.
fn objective(rows: &[Row], theta: &[f64]) -> f64 {
    let mut f = RIDGE / 2.0 * theta.iter().map(|t| t * t).sum::<f64>();
    for r in rows {
        let scores: Vec<f64> = r.teams.iter().map(|t| t.iter().map(|i| theta[*i]).sum()).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log_sum = top + scores.iter().map(|s| (s - top).exp()).sum::<f64>().ln();
        f += r.count * (log_sum - scores[r.winner]);
    }
    f
}

/// Newton's method from 0: the estimate, the penalised Hessian there, the
/// iterations and whether it converged.
fn newton(rows: &[Row], n: usize) -> (Vec<f64>, Vec<Vec<f64>>, u32, bool) {
    let mut theta = vec![0.0; n];
    let mut value = objective(rows, &theta);
    let mut iterations = 0;
    loop {
        let (gradient, hessian) = derivatives(rows, &theta);
        if iterations >= MAX_ITERATIONS {
            return (theta, hessian, iterations, false);
        }
        let Some(l) = cholesky(&hessian) else { return (theta, hessian, iterations, false) };
        let step = solve(&l, &gradient);
        iterations += 1;
        // Step halving keeps every step downhill (the objective is convex,
        // so a full step almost always is).
        let mut scale = 1.0;
        let mut next: Vec<f64>;
        loop {
            next = theta.iter().zip(&step).map(|(t, s)| t - scale * s).collect();
            let v = objective(rows, &next);
            if v <= value || scale < 1e-6 {
                value = v;
                break;
            }
            scale /= 2.0;
        }
        let largest = step.iter().fold(0.0f64, |a, s| a.max((scale * s).abs()));
        theta = next;
        if largest < 1e-9 {
            let (_, hessian) = derivatives(rows, &theta);
            return (theta, hessian, iterations, true);
        }
    }
}

/// The gradient and Hessian of [`objective`] at `theta`.
fn derivatives(rows: &[Row], theta: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = theta.len();
    let mut g: Vec<f64> = theta.iter().map(|t| RIDGE * t).collect();
    let mut h = vec![vec![0.0; n]; n];
    for (i, row) in h.iter_mut().enumerate() {
        row[i] = RIDGE;
    }
    for r in rows {
        let scores: Vec<f64> = r.teams.iter().map(|t| t.iter().map(|i| theta[*i]).sum()).collect();
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = e.iter().sum();
        let p: Vec<f64> = e.iter().map(|x| x / total).collect();
        // The mean design vector x̄ = Σ p_k x_k, sparse.
        let mut mean: BTreeMap<usize, f64> = BTreeMap::new();
        for (k, t) in r.teams.iter().enumerate() {
            for i in t {
                *mean.entry(*i).or_default() += p[k];
            }
        }
        for i in &r.teams[r.winner] {
            g[*i] -= r.count;
        }
        for (i, x) in &mean {
            g[*i] += r.count * x;
        }
        // Σ p_k x_k x_kᵀ − x̄ x̄ᵀ.
        for (k, t) in r.teams.iter().enumerate() {
            for a in t {
                for b in t {
                    h[*a][*b] += r.count * p[k];
                }
            }
        }
        for (a, xa) in &mean {
            for (b, xb) in &mean {
                h[*a][*b] -= r.count * xa * xb;
            }
        }
    }
    (g, h)
}

/// The lower-triangular `L` with `L Lᵀ = a`, or `None` when `a` is not
/// (numerically) positive definite.
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - s;
                if d.is_nan() || d <= 0.0 || d.is_infinite() {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    Some(l)
}

/// `x` with `L Lᵀ x = b`.
fn solve(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i][i];
    }
    x
}

/// `(L Lᵀ)⁻¹`, column by column.
fn inverse_of(l: &[Vec<f64>], n: usize) -> Vec<Vec<f64>> {
    let mut inv = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        for (i, x) in solve(l, &e).into_iter().enumerate() {
            inv[i][j] = x;
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comp(teams: &[&[&str]], winner: Option<usize>, games: u64) -> Composition {
        Composition { teams: teams.iter().map(|t| t.iter().map(|s| Id::from(*s)).collect()).collect(), winner, games }
    }

    #[test]
    fn a_two_seat_fit_recovers_bradley_terry_odds() {
        // a beats b 30 times of 40, seats swapped half the time: the
        // log-odds of a over b near ln 3, shrunk a little by the ridge.
        let c = vec![
            comp(&[&["a"], &["b"]], Some(0), 15),
            comp(&[&["a"], &["b"]], Some(1), 5),
            comp(&[&["b"], &["a"]], Some(0), 5),
            comp(&[&["b"], &["a"]], Some(1), 15),
            comp(&[&["b"], &["a"]], None, 7),
        ];
        let s = Strengths::fit(&c, 2).unwrap();
        assert!(s.converged);
        assert_eq!((s.games, s.left_out), (40, 7));
        let (a, b) = (s.characters["a"].log_odds, s.characters["b"].log_odds);
        assert!((a.estimate + b.estimate).abs() < 1e-9, "sum to zero: {a:?} {b:?}");
        let d = a.estimate - b.estimate;
        assert!(d > 0.9 && d < 3f64.ln(), "{d}");
        assert!(a.low > 0.0 && b.high < 0.0, "{a:?} {b:?}");
        assert!(s.seat_advantage[0].estimate.abs() < 1e-9, "no seat advantage: {:?}", s.seat_advantage);
        assert!((s.characters["a"].win_probability.estimate - 1.0 / (1.0 + (-a.estimate).exp())).abs() < 1e-12);
    }

    #[test]
    fn characters_always_side_by_side_are_told_apart_by_nothing() {
        let c = vec![comp(&[&["a", "b"], &["c", "d"]], Some(0), 30), comp(&[&["a", "b"], &["c", "d"]], Some(1), 10)];
        let s = Strengths::fit(&c, 2).unwrap();
        let (a, b) = (s.characters["a"].log_odds, s.characters["b"].log_odds);
        assert!((a.estimate - b.estimate).abs() < 1e-12);
        assert!(a.high - a.low > 4.0, "a wide interval: {a:?}");
    }

    #[test]
    fn no_winner_no_fit() {
        assert_eq!(Strengths::fit(&[comp(&[&["a"], &["b"]], None, 3)], 2), None);
    }
}
