//! A route's query string, checked: every key is one the route takes, none is
//! given twice, and every value is read whole or refused with a 400 that says
//! why (a bad number is never taken as a default).

use super::api::Reply;
use arena_engine::rules::geometry::Hex;
use std::collections::BTreeMap;
use std::str::FromStr;

/// The decoded `key=value` pairs of one request.
pub(crate) struct Query(BTreeMap<String, String>);

impl Query {
    /// Decode `raw` (`a=1&b=x%20y`) for `path`, which takes the keys `keys`.
    ///
    /// # Errors
    /// 400 for a key the route does not take, or a key given twice.
    pub(crate) fn parse(path: &str, raw: &str, keys: &[&str]) -> Result<Query, Reply> {
        let mut map = BTreeMap::new();
        for (k, v) in form_urlencoded::parse(raw.as_bytes()) {
            if !keys.contains(&k.as_ref()) {
                let takes = if keys.is_empty() {
                    "it takes none".to_string()
                } else {
                    format!("it takes {}", keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))
                };
                return Err(Reply::error(400, format!("`{path}` has no parameter `{k}`: {takes}")));
            }
            if map.insert(k.to_string(), v.into_owned()).is_some() {
                return Err(Reply::error(400, format!("`{k}` is given twice")));
            }
        }
        Ok(Query(map))
    }

    /// The value of `key`, or `""` when it is missing.
    pub(crate) fn text(&self, key: &str) -> &str {
        self.0.get(key).map_or("", String::as_str)
    }

    /// `key` as a whole number, `default` when it is missing or empty.
    ///
    /// # Errors
    /// 400 when it is not a whole number of the type's range (`seed=-5`,
    /// `event=x`).
    pub(crate) fn number<T: FromStr + std::fmt::Display + num_bounds::Bounded>(
        &self,
        key: &str,
        default: T,
    ) -> Result<T, Reply> {
        match self.text(key) {
            "" => Ok(default),
            v => v.parse::<T>().map_err(|_| {
                Reply::error(400, format!("`{key}` must be a whole number from {} to {}, not `{v}`", T::MIN, T::MAX))
            }),
        }
    }

    /// `key` as a tick: `1` is set, `0` or missing is not.
    ///
    /// # Errors
    /// 400 for any other value.
    pub(crate) fn flag(&self, key: &str) -> Result<bool, Reply> {
        match self.text(key) {
            "" | "0" => Ok(false),
            "1" => Ok(true),
            v => Err(Reply::error(400, format!("`{key}` must be 1 or 0, not `{v}`"))),
        }
    }

    /// `key` as a space `Q,R` of a board of radius `radius`; none when missing.
    ///
    /// # Errors
    /// 400 when it is not two whole numbers, or is not a space of the board.
    pub(crate) fn space(&self, key: &str, radius: u32) -> Result<Option<Hex>, Reply> {
        let v = self.text(key);
        if v.is_empty() {
            return Ok(None);
        }
        let parsed = v
            .trim()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .split_once(',')
            .and_then(|(q, r)| Some((q.trim().parse::<i32>().ok()?, r.trim().parse::<i32>().ok()?)));
        let Some((q, r)) = parsed else {
            return Err(Reply::error(400, format!("`{key}` must be a space as Q,R (`{key}=0,-4`), not `{v}`")));
        };
        if !on_board(q, r, radius) {
            return Err(Reply::error(
                400,
                format!("`{key}` {q},{r} is not a space of the board: every space is within {radius} of 0,0"),
            ));
        }
        Ok(Some(Hex::new(q, r)))
    }
}

/// Whether `[q, r]` is within `radius` spaces of `[0, 0]`, in wide
/// arithmetic, so no coordinate of an `i32` wraps (`000 § Range`: the
/// distance is the largest of |q|, |r| and |q + r|).
fn on_board(q: i32, r: i32, radius: u32) -> bool {
    let (q, r) = (i64::from(q), i64::from(r));
    q.abs().max(r.abs()).max((q + r).abs()) <= i64::from(radius)
}

/// The range of the whole-number types a query reads, for its messages.
pub(crate) mod num_bounds {
    /// A whole-number type's least and greatest values.
    pub(crate) trait Bounded {
        /// The least value.
        const MIN: Self;
        /// The greatest value.
        const MAX: Self;
    }
    macro_rules! bounded {
        ($($t:ty),*) => { $(impl Bounded for $t { const MIN: $t = <$t>::MIN; const MAX: $t = <$t>::MAX; })* };
    }
    bounded!(u64, usize);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corners_of_i32_are_off_every_board() {
        assert!(!on_board(i32::MIN, i32::MIN, 255));
        assert!(!on_board(i32::MAX, i32::MIN, u32::MAX >> 1));
        assert!(!on_board(0, 3000, 9));
        assert!(on_board(0, -9, 9));
        assert!(on_board(9, -9, 9));
        assert!(!on_board(9, 1, 9));
    }

    #[test]
    fn a_negative_seed_is_refused_not_taken_as_the_default() {
        let q = Query::parse("/api/replays", "seed=-5", &["seed"]).unwrap();
        assert_eq!(q.number("seed", 1u64).unwrap_err().status, 400);
    }
}
