//! The largest classes of `--classes`, with their canonical form and two
//! example records each (so a class of two shows both), in constant memory. The class table keeps only a
//! hash of each canonical form; this tracker keeps the [`CAPACITY`] best
//! classes seen so far, by (records, then first record), with their form
//! and two examples (their puzzles, inputs and lines).
//!
//! A class's key only improves as records join it (its count grows, its
//! first record can only get earlier), and every update is offered here
//! with the class's key after it. So when a class's last update is
//! offered, its key is final, and fewer than `n` classes can then beat it
//! if it ends among the `n` largest: with `n <= CAPACITY` it is kept from
//! then on. Each worker keeps its own tracker (never contended); merging
//! them (best key per class) gives the true `n` largest at any thread
//! count. The examples are the two earliest records offered while the
//! class was kept: its first two records when the class was kept from its
//! start (any corpus of at most [`CAPACITY`] classes), else early members.

use std::sync::Arc;

use batchdoku_core::Grid;

/// Classes one tracker keeps.
pub const CAPACITY: usize = 64;

/// One record of a class, shown as its example.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// 1-based record number in the run.
    pub index: u64,
    /// Its line in its input.
    pub line: u64,
    /// Its input's name.
    pub input: Arc<str>,
    /// The puzzle as read.
    pub puzzle: Grid,
}

/// A class kept by the tracker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracked {
    /// Its canonical form.
    pub form: Grid,
    /// Records in the class (as last offered).
    pub records: u64,
    /// Its first record (as last offered).
    pub first: u64,
    /// The earliest of its records offered.
    pub example: Example,
    /// The next earliest (`None` until a second record is offered).
    pub another: Option<Example>,
}

impl Tracked {
    /// Whether `self` ranks before `other`: more records, then an earlier
    /// first record.
    fn beats(&self, records: u64, first: u64) -> bool {
        (self.records, std::cmp::Reverse(self.first)) > (records, std::cmp::Reverse(first))
    }

    /// Keeps `example` if it is among the two earliest records seen.
    fn keep_example(&mut self, example: Example) {
        if example.index < self.example.index {
            self.another = Some(std::mem::replace(&mut self.example, example));
        } else if example.index != self.example.index
            && self
                .another
                .as_ref()
                .is_none_or(|a| example.index < a.index)
        {
            self.another = Some(example);
        }
    }
}

/// The best classes offered so far (at most [`CAPACITY`]).
#[derive(Debug, Default)]
pub struct LargestClasses {
    kept: Vec<Tracked>,
}

impl LargestClasses {
    /// Offers a class's key after an update (`records`, `first`) with the
    /// record that made it (`example`). Allocates only when a class is
    /// first kept.
    pub fn offer(
        &mut self,
        form: &Grid,
        records: u64,
        first: u64,
        example: impl FnOnce() -> Example,
    ) {
        let full = self.kept.len() >= CAPACITY;
        // The last entry is the worst when full (kept sorted best first).
        if full && self.kept.last().is_some_and(|w| w.beats(records, first)) {
            return;
        }
        if let Some(at) = self.kept.iter().position(|t| t.form == *form) {
            let t = &mut self.kept[at];
            if !t.beats(records, first) {
                t.records = records;
                t.first = first;
            }
            t.keep_example(example());
        } else {
            self.kept.push(Tracked {
                form: *form,
                records,
                first,
                example: example(),
                another: None,
            });
        }
        self.kept
            .sort_by(|a, b| (b.records, a.first).cmp(&(a.records, b.first)));
        self.kept.truncate(CAPACITY);
    }

    /// Adds another tracker's classes.
    pub fn merge(&mut self, other: LargestClasses) {
        for t in other.kept {
            self.offer(&t.form, t.records, t.first, || t.example);
            if let Some(another) = t.another {
                self.offer(&t.form, t.records, t.first, || another);
            }
        }
    }

    /// The `n` best classes with at least two records, best first.
    pub fn top(&self, n: usize) -> impl Iterator<Item = &Tracked> {
        self.kept.iter().filter(|t| t.records >= 2).take(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(k: u64) -> Grid {
        let mut g = Grid::default();
        for (cell, digit) in k.to_string().bytes().enumerate() {
            g.set(cell, 1 + (digit - b'0') % 9);
        }
        g
    }

    fn example(index: u64) -> Example {
        Example {
            index,
            line: index + 1,
            input: Arc::from("in"),
            puzzle: grid(index),
        }
    }

    /// Records spread over many classes of known sizes, offered as a
    /// class table would (count and first record after each update), in
    /// shuffled order over several trackers: the merge finds the true
    /// largest, and the examples belong to their class.
    #[test]
    fn finds_the_largest_at_any_split_and_order() {
        // Class c has (c * 7919) % 23 + 1 records; 300 classes, far more
        // than a tracker keeps.
        let mut records: Vec<(u64, u64)> = Vec::new(); // (index, class)
        let mut index = 0;
        for c in 0..300u64 {
            for _ in 0..(c * 7919) % 23 + 1 {
                index += 1;
                records.push((index, c));
            }
        }
        let mut rng = batchdoku_core::Rng::new(3);
        for parts in [1usize, 2, 5] {
            rng.shuffle(&mut records);
            let mut trackers: Vec<LargestClasses> =
                (0..parts).map(|_| LargestClasses::default()).collect();
            let mut table = std::collections::HashMap::<u64, (u64, u64)>::new();
            for (i, &(index, c)) in records.iter().enumerate() {
                let v = table.entry(c).or_insert((index, 0));
                v.0 = v.0.min(index);
                v.1 += 1;
                let (first, n) = *v;
                trackers[i % parts].offer(&grid(1000 + c), n, first, || example(index));
            }
            let mut merged = LargestClasses::default();
            for t in trackers {
                merged.merge(t);
            }
            let mut expected: Vec<(u64, u64, u64)> = table
                .iter()
                .map(|(&c, &(first, n))| (n, first, c))
                .collect();
            expected.sort_by(|a, b| (b.0, a.1).cmp(&(a.0, b.1)));
            let got: Vec<(u64, u64, Grid)> = merged
                .top(10)
                .map(|t| (t.records, t.first, t.form))
                .collect();
            let want: Vec<(u64, u64, Grid)> = expected[..10]
                .iter()
                .map(|&(n, f, c)| (n, f, grid(1000 + c)))
                .collect();
            assert_eq!(got, want, "{parts} parts");
            for t in merged.top(10) {
                let class = records.iter().find(|r| r.0 == t.example.index).unwrap().1;
                assert_eq!(grid(1000 + class), t.form);
            }
        }
    }

    #[test]
    fn singletons_are_not_listed_and_examples_are_the_earliest() {
        let mut t = LargestClasses::default();
        t.offer(&grid(1), 1, 5, || example(5));
        assert_eq!(t.top(10).count(), 0);
        t.offer(&grid(1), 2, 3, || example(9));
        t.offer(&grid(1), 3, 3, || example(3));
        let top: Vec<&Tracked> = t.top(10).collect();
        assert_eq!(
            (top[0].records, top[0].first, top[0].example.index),
            (3, 3, 3)
        );
        assert_eq!(top[0].another.as_ref().map(|a| a.index), Some(5));
        // Two trackers holding one record each of a class of two: merged,
        // the class shows both.
        let (mut a, mut b) = (LargestClasses::default(), LargestClasses::default());
        a.offer(&grid(2), 1, 8, || example(8));
        b.offer(&grid(2), 2, 4, || example(4));
        a.merge(b);
        let pair = a.top(1).next().unwrap();
        assert_eq!(
            (pair.example.index, pair.another.as_ref().map(|e| e.index)),
            (4, Some(8))
        );
        // A stale offer does not lower the key.
        t.offer(&grid(1), 2, 3, || example(7));
        assert_eq!(t.top(1).next().unwrap().records, 3);
    }
}
