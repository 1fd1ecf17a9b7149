//! A value made on its first write: counters most switches never change (a load test's switch
//! neither forwards nor counts frames) cost one pointer until then, not their whole size
//! (issue 50: a held session's bytes, one `Switch` per emulated switch).
//!
//! Invariants: a reader sees `T::ZERO` until the first `deref_mut`, then the value written; two
//! values compare (and print) as the `T`s they read as, so one never written equals one written
//! back to zero. Only `&mut` access makes the block: reading through `&mut self` does not.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// A type with a zero value to read before the first write.
pub trait Zero: Clone + 'static {
    const ZERO: &'static Self;
}

/// `T`, boxed on its first write; `T::ZERO` until then.
pub struct OnWrite<T: Zero>(Option<Box<T>>);

impl<T: Zero> OnWrite<T> {
    /// Whether it was ever written (the block is made).
    pub fn is_made(&self) -> bool {
        self.0.is_some()
    }
}

impl<T: Zero> Default for OnWrite<T> {
    fn default() -> Self {
        OnWrite(None)
    }
}

impl<T: Zero> Deref for OnWrite<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match &self.0 {
            Some(b) => b,
            None => T::ZERO,
        }
    }
}

impl<T: Zero> DerefMut for OnWrite<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.0.get_or_insert_with(|| Box::new(T::ZERO.clone()))
    }
}

impl<T: Zero> Clone for OnWrite<T> {
    fn clone(&self) -> Self {
        OnWrite(self.0.clone())
    }
}

impl<T: Zero + PartialEq> PartialEq for OnWrite<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Zero + Eq> Eq for OnWrite<T> {}

impl<T: Zero + fmt::Debug> fmt::Debug for OnWrite<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Zero> From<T> for OnWrite<T> {
    fn from(t: T) -> Self {
        OnWrite(Some(Box::new(t)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    struct Two {
        a: u64,
        b: u64,
    }

    impl Zero for Two {
        const ZERO: &'static Two = &Two { a: 0, b: 0 };
    }

    #[test]
    fn reads_zero_until_written_then_the_value() {
        let mut c: OnWrite<Two> = OnWrite::default();
        assert_eq!(c.a + c.b, 0);
        assert!(!c.is_made(), "a read makes no block");
        c.b += 3;
        assert!(c.is_made());
        assert_eq!(*c, Two { a: 0, b: 3 });
        c.b = 0;
        assert_eq!(c, OnWrite::default(), "compared by value: written back to zero equals unwritten");
        assert_eq!(format!("{c:?}"), format!("{:?}", Two::default()));
        assert_eq!(std::mem::size_of::<OnWrite<Two>>(), std::mem::size_of::<usize>());
    }
}
