//! Line diffs: which lines of a block two versions have in common, and each
//! side's edit script over the base as maximal intervals (the spec's
//! `Left L | Right R C | Replace L R`, written as [`Hunk`]s).
//!
//! ```text
//! base          side           hunks (base index ranges)
//! %a = add 1    %a = add 2     Replace [0,1) by ["%a = add 2"]
//! store %a      store %a
//!               call @f()      Right at cut 2: ["call @f()"]
//! ret void      ret void
//! ```

/// Common lines of `a` and `b` as index pairs, increasing in both (Myers'
/// O(ND) algorithm after trimming the common prefix and suffix). When the
/// distance exceeds `max_d` only the prefix and suffix are matched: a
/// coarser but still valid diff.
pub(crate) fn common<T: PartialEq>(a: &[T], b: &[T]) -> Vec<(usize, usize)> {
    let mut pre = 0;
    while pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf]
    {
        suf += 1;
    }
    let mut out: Vec<(usize, usize)> = (0..pre).map(|i| (i, i)).collect();
    let am = &a[pre..a.len() - suf];
    let bm = &b[pre..b.len() - suf];
    for (i, j) in myers(am, bm, 4000) {
        out.push((i + pre, j + pre));
    }
    for k in 0..suf {
        out.push((a.len() - suf + k, b.len() - suf + k));
    }
    out
}

fn myers<T: PartialEq>(a: &[T], b: &[T], max_d: usize) -> Vec<(usize, usize)> {
    let n = a.len() as isize;
    let m = b.len() as isize;
    if n == 0 || m == 0 {
        return Vec::new();
    }
    let max = (n + m) as usize;
    let off = max as isize;
    let mut v = vec![0isize; 2 * max + 2];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut found = None;
    'outer: for d in 0..=(max.min(max_d) as isize) {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let mut x =
                if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) {
                    v[(off + k + 1) as usize]
                } else {
                    v[(off + k - 1) as usize] + 1
                };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'outer;
            }
            k += 2;
        }
    }
    let Some(dfinal) = found else {
        return Vec::new();
    };
    // Backtrack.
    let mut pairs = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=dfinal).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize])
        {
            k + 1
        } else {
            k - 1
        };
        let prev_x = v[(off + prev_k) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            pairs.push((x as usize, y as usize));
        }
        x = prev_x;
        y = prev_y;
    }
    while x > 0 && y > 0 {
        x -= 1;
        y -= 1;
        pairs.push((x as usize, y as usize));
    }
    pairs.reverse();
    pairs
}

/// One side's change inside a stretch of the base: base lines
/// `[start, end)` are replaced by `new` (`start == end`: a pure insertion
/// at that cut; `new` empty: a pure deletion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk<T> {
    pub start: usize,
    pub end: usize,
    pub new: Vec<T>,
}

/// The maximal hunks of a side over base range `[o0, o1)` / side range
/// `[s0, s1)`, given `matched[i]` = side index of base line `i`.
pub(crate) fn hunks<T: Clone>(
    side: &[T],
    matched: &[Option<usize>],
    (o0, o1): (usize, usize),
    (s0, s1): (usize, usize),
) -> Vec<Hunk<T>> {
    let mut out = Vec::new();
    let (mut po, mut ps) = (o0, s0);
    for (t, m) in matched.iter().enumerate().take(o1).skip(o0) {
        if let Some(x) = *m {
            if x >= s0 && x < s1 {
                if t > po || x > ps {
                    out.push(Hunk {
                        start: po,
                        end: t,
                        new: side[ps..x].to_vec(),
                    });
                }
                po = t + 1;
                ps = x + 1;
            }
        }
    }
    if o1 > po || s1 > ps {
        out.push(Hunk {
            start: po,
            end: o1,
            new: side[ps..s1].to_vec(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_lines_are_an_lcs() {
        let a = ["a", "b", "c", "d", "e"];
        let b = ["a", "x", "c", "e", "y"];
        assert_eq!(common(&a, &b), vec![(0, 0), (2, 2), (4, 3)]);
        assert_eq!(common::<&str>(&[], &["a"]), vec![]);
    }

    #[test]
    fn hunks_are_maximal_intervals() {
        let base = ["a", "b", "c", "d"];
        let side = ["a", "B", "c", "d", "e"];
        let pairs = common(&base, &side);
        let mut m = vec![None; base.len()];
        for (i, j) in pairs {
            m[i] = Some(j);
        }
        let h = hunks(&side, &m, (0, 4), (0, 5));
        assert_eq!(
            h,
            vec![
                Hunk {
                    start: 1,
                    end: 2,
                    new: vec!["B"]
                },
                Hunk {
                    start: 4,
                    end: 4,
                    new: vec!["e"]
                }
            ]
        );
    }
}
