//! The stable hash every content-derived name is built from.
//!
//! FNV-1a over 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3),
//! fed with UTF-8 strings and little-endian integers, each item followed by a
//! 0xff separator byte so that `("ab","c")` and `("a","bc")` differ, then passed
//! through the SplitMix64 finalizer to spread the bits. It depends on nothing
//! but the bytes given: not on LLVM's enum numbering, pointer values, hash-map
//! seeds or visit order, so names are the same on every machine and release.
//!
//! ```text
//! StableHasher::new().str("add").str("i32").finish()  ==  same u64 everywhere
//! ```
//!
//! [`collisions`] tells which values of a list share their hash, as the
//! refinement of signatures and of metadata keys asks round after round.

/// An FNV-1a accumulator with a SplitMix64 finish.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl StableHasher {
    pub(crate) const fn new() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }

    fn bytes(mut self, bytes: &[u8]) -> Self {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        self
    }

    /// Feeds a string.
    pub(crate) fn str(self, s: &str) -> Self {
        self.bytes(s.as_bytes())
    }

    /// Feeds an integer (little endian).
    pub(crate) fn u64(self, v: u64) -> Self {
        self.bytes(&v.to_le_bytes())
    }

    /// The final 64-bit value.
    pub(crate) fn finish(self) -> u64 {
        let mut z = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Hashes one string.
pub(crate) fn hash_str(s: &str) -> u64 {
    StableHasher::new().str(s).finish()
}

/// The numbers `count` objects take their numbers below: `usual`, or a
/// power of ten times it that is at least ten times `count`. There is always
/// a free number, and the search for one stays short (a full space was
/// searched forever: 49 linked copies of Lua at -O2 -g have 3 M metadata
/// nodes).
pub(crate) fn number_space(usual: u64, count: usize) -> u64 {
    let mut space = usual;
    while space < 10 * count as u64 {
        space *= 10;
    }
    space
}

/// Those of `among` whose hash occurs more than once in `among`, in
/// `among`'s order (found by sorting: a hash map of every hash costs a
/// cache miss per value).
pub(crate) fn collisions(hashes: &[u64], among: &[usize]) -> Vec<usize> {
    let mut keyed: Vec<(u64, u32)> = among.iter().map(|&i| (hashes[i], i as u32)).collect();
    sort_by_hash(&mut keyed);
    let mut repeated = vec![false; hashes.len()];
    for run in keyed
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
    {
        for &(_, i) in run {
            repeated[i as usize] = true;
        }
    }
    among.iter().copied().filter(|&i| repeated[i]).collect()
}

/// Sorts `keyed` by hash. The hashes are uniform in their top bits, so one
/// counting pass over those bits leaves buckets of a few entries, each
/// sorted on its own: at 80k instructions, a third of the comparisons of
/// one sort of everything.
fn sort_by_hash(keyed: &mut Vec<(u64, u32)>) {
    const ONE_SORT_UP_TO: usize = 1024;
    if keyed.len() <= ONE_SORT_UP_TO {
        keyed.sort_unstable_by_key(|e| e.0);
        return;
    }
    // About one bucket per eight entries.
    let bits = usize::BITS - keyed.len().leading_zeros() - 3;
    let bucket = |hash: u64| (hash >> (64 - bits)) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for e in keyed.iter() {
        starts[bucket(e.0) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut next = starts.clone();
    let mut sorted = vec![(0u64, 0u32); keyed.len()];
    for &e in keyed.iter() {
        let b = bucket(e.0);
        sorted[next[b]] = e;
        next[b] += 1;
    }
    for range in starts.windows(2) {
        sorted[range[0]..range[1]].sort_unstable_by_key(|e| e.0);
    }
    *keyed = sorted;
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap as HashMap;

    #[test]
    fn separators_keep_items_apart() {
        let a = StableHasher::new().str("ab").str("c").finish();
        let b = StableHasher::new().str("a").str("bc").finish();
        assert_ne!(a, b);
    }

    #[test]
    fn value_is_fixed_across_builds() {
        // Pinned (computed independently from the definition in the module
        // doc): changing the hash changes every canonical name, and must
        // bump the canonical-form version.
        assert_eq!(hash_str(""), 0x01df_27c8_adb0_f2d1);
        assert_eq!(hash_str("add"), 0xfbb9_e254_69a8_76d1);
        let add_i32 = StableHasher::new().str("add").str("i32").finish();
        assert_eq!(add_i32, 0x9400_63ea_5376_df06);
        assert_eq!(
            StableHasher::new().str("role").u64(7).finish(),
            0x0699_03fe_07f7_a211
        );
    }

    /// `collisions` by counting, the plain way.
    fn counted(hashes: &[u64], among: &[usize]) -> Vec<usize> {
        let mut count: HashMap<u64, usize> = HashMap::default();
        for &i in among {
            *count.entry(hashes[i]).or_default() += 1;
        }
        among
            .iter()
            .copied()
            .filter(|&i| count[&hashes[i]] > 1)
            .collect()
    }

    /// Hashes as refinement makes them, with every `repeat`-th one a copy
    /// of an earlier one.
    fn hashes(n: usize, repeat: usize) -> Vec<u64> {
        let mut out: Vec<u64> = Vec::with_capacity(n);
        for i in 0..n {
            let h = if repeat > 0 && i % repeat == repeat - 1 {
                out[(i * 7919) % i]
            } else {
                StableHasher::new().u64(i as u64).finish()
            };
            out.push(h);
        }
        out
    }

    #[test]
    fn collisions_are_the_values_whose_hash_repeats() {
        for (n, repeat) in [
            (0, 0),
            (1, 0),
            (2, 2),
            (900, 3),
            (1025, 0),
            (5000, 2),
            (80_000, 5),
        ] {
            let hashes = hashes(n, repeat);
            let all: Vec<usize> = (0..n).collect();
            let found = collisions(&hashes, &all);
            assert_eq!(found, counted(&hashes, &all), "{n} values, every {repeat}");
            assert_eq!(found.is_empty(), repeat == 0, "{n} values, every {repeat}");
            // A subset in another order keeps that order.
            let among: Vec<usize> = all.iter().rev().copied().filter(|i| i % 3 != 0).collect();
            assert_eq!(collisions(&hashes, &among), counted(&hashes, &among));
        }
    }

    #[test]
    fn sorting_by_hash_sorts_large_and_small_lists() {
        for n in [0, 1, 1024, 1025, 70_000] {
            let mut keyed: Vec<(u64, u32)> = hashes(n, 4)
                .into_iter()
                .enumerate()
                .map(|(i, h)| (h, i as u32))
                .collect();
            let mut expected = keyed.clone();
            expected.sort_unstable();
            sort_by_hash(&mut keyed);
            assert!(keyed.windows(2).all(|w| w[0].0 <= w[1].0), "{n} sorted");
            keyed.sort_unstable();
            assert_eq!(keyed, expected, "{n}: the same entries");
        }
    }
}
