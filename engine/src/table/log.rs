//! The event log of a table: sealed segments shared by every fork, one per
//! stretch between quiet points, newest first in a linked list.

use std::rc::Rc;

/// An append-only log whose copies share what they have in common: a copy
/// is one reference count, and appending a stretch of events to one copy
/// leaves the others as they were.
#[derive(Debug)]
pub struct Log<E> {
    last: Option<Rc<Segment<E>>>,
    len: usize,
}

#[derive(Debug)]
struct Segment<E> {
    events: Vec<E>,
    prev: Option<Rc<Segment<E>>>,
}

impl<E> Clone for Log<E> {
    fn clone(&self) -> Self {
        Log { last: self.last.clone(), len: self.len }
    }
}

impl<E> Default for Log<E> {
    fn default() -> Self {
        Log { last: None, len: 0 }
    }
}

impl<E> Log<E> {
    /// This log with `events` after it (the original is unchanged).
    pub fn with(&self, events: Vec<E>) -> Log<E> {
        if events.is_empty() {
            return self.clone();
        }
        let len = self.len + events.len();
        Log { last: Some(Rc::new(Segment { events, prev: self.last.clone() })), len }
    }

    /// How many events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The events in order, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        let mut segments = Vec::new();
        let mut at = self.last.as_deref();
        while let Some(s) = at {
            segments.push(s);
            at = s.prev.as_deref();
        }
        segments.into_iter().rev().flat_map(|s| s.events.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_appended_to_leaves_its_copies_as_they_were() {
        let a = Log::default().with(vec![1, 2]);
        let b = a.with(vec![3]);
        let c = a.with(vec![4, 5]);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(c.iter().copied().collect::<Vec<_>>(), [1, 2, 4, 5]);
        assert_eq!((a.len(), b.len(), c.len()), (2, 3, 4));
        assert!(Log::<u8>::default().is_empty());
    }
}
