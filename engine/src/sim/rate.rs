//! A proportion with its 95% Wilson score interval ([`Rate`]), the readouts' figure.

/// A proportion with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Rate {
    /// Successes / trials.
    pub rate: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

impl Rate {
    /// `k` of `n`, with the Wilson interval at z = 1.96.
    pub fn of(k: usize, n: usize) -> Rate {
        if n == 0 {
            return Rate { rate: 0.0, low: 0.0, high: 1.0 };
        }
        let (k, n, z) = (k as f64, n as f64, 1.96f64);
        let p = k / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
    }
}

/// Whether a count is zero (to leave it out of JSON).
pub(super) fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}
