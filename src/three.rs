//! The three versions of a merge, together: [`Three`] holds base's, ours'
//! and theirs' (bytes, texts, models...) under their names, so that no code
//! counts to three or indexes `[1]` for ours.
//!
//! ```text
//! inputs:  Three { base: b"define i32 @f() { ret i32 1 }", ours: ..., theirs: ... }
//! .map(|b| std::str::from_utf8(b))     -> Three { base: Ok("define ..."), ... }
//! .try_map(|r| r)                      -> Ok(Three { base: "define ...", ... })
//! ```

/// Which of the three versions a piece of text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Base,
    Ours,
    Theirs,
}

impl Side {
    /// The version at `who` in base, ours, theirs order (0, 1, 2).
    pub fn nth(who: usize) -> Side {
        match who {
            0 => Side::Base,
            1 => Side::Ours,
            2 => Side::Theirs,
            _ => panic!("there are three versions, not {}", who + 1),
        }
    }

    /// The side at `k` in ours, theirs order (0, 1): the two that change the base.
    pub fn changed(k: usize) -> Side {
        Side::nth(k + 1)
    }
}

/// One `T` for each version of a merge: the common ancestor (`base`),
/// the current branch's (`ours`) and the merged branch's (`theirs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Three<T> {
    pub base: T,
    pub ours: T,
    pub theirs: T,
}

impl<T> Three<T> {
    pub const fn new(base: T, ours: T, theirs: T) -> Self {
        Three { base, ours, theirs }
    }

    /// `f` of each version, base first.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Three<U> {
        let base = f(self.base);
        let ours = f(self.ours);
        Three::new(base, ours, f(self.theirs))
    }

    /// Each version borrowed.
    pub fn as_ref(&self) -> Three<&T> {
        Three::new(&self.base, &self.ours, &self.theirs)
    }

    /// `f` of each version, base first, or the first error.
    pub fn try_map<U, E>(self, mut f: impl FnMut(T) -> Result<U, E>) -> Result<Three<U>, E> {
        let base = f(self.base)?;
        let ours = f(self.ours)?;
        Ok(Three::new(base, ours, f(self.theirs)?))
    }

    /// The versions in the order base, ours, theirs.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        [&self.base, &self.ours, &self.theirs].into_iter()
    }

    /// Each version beside the same version of `other`.
    pub fn zip<U>(self, other: Three<U>) -> Three<(T, U)> {
        Three::new(
            (self.base, other.base),
            (self.ours, other.ours),
            (self.theirs, other.theirs),
        )
    }
}

impl<T> Three<Option<T>> {
    /// All three versions, when each is there.
    pub fn all(self) -> Option<Three<T>> {
        Some(Three::new(self.base?, self.ours?, self.theirs?))
    }
}

impl<T> From<[T; 3]> for Three<T> {
    /// `[base, ours, theirs]`.
    fn from([base, ours, theirs]: [T; 3]) -> Self {
        Three::new(base, ours, theirs)
    }
}

impl<T> std::ops::Index<Side> for Three<T> {
    type Output = T;

    fn index(&self, side: Side) -> &T {
        match side {
            Side::Base => &self.base,
            Side::Ours => &self.ours,
            Side::Theirs => &self.theirs,
        }
    }
}

impl<T> std::ops::IndexMut<Side> for Three<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::Base => &mut self.base,
            Side::Ours => &mut self.ours,
            Side::Theirs => &mut self.theirs,
        }
    }
}

impl<T> IntoIterator for Three<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, 3>;

    /// base, ours, theirs.
    fn into_iter(self) -> Self::IntoIter {
        [self.base, self.ours, self.theirs].into_iter()
    }
}
