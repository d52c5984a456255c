//! `split`: assigns every record to a part (train, validation, test) so
//! that no class (see [`ClassBy`]) is on two sides, each part holding close
//! to its ratio of the records, overall and within each stratum.
//!
//! Two passes, as `dedupe`: [`Pass::Count`] fills a [`ClassMap`] with, per
//! class, its first record's index, its record count and the stratum of its
//! first record; [`SplitJob::assign`] then orders the classes of each
//! stratum by a hash of the seed and the class and gives each, in that
//! order, to the part furthest below its target share (see [`Filler`]);
//! [`Pass::Emit`] reads the input again and names each record's part. All
//! of it depends only on the input and the seed, never on the thread
//! count. Invalid records belong to no class: each keeps its row, with
//! status `invalid` and no part.

use super::classes::ClassMap;
use super::dedupe::Pass;
use super::keys::{class_key, key_scratch, ClassBy, KeyScratch};
use crate::output::{Column, Row, Split, SPLIT_COLUMNS};
use crate::pipeline::Job;
use batchdoku_core::Grid;
use batchdoku_core::Record;

/// What each part is balanced within (`split --stratify`).
///
/// # Example
/// ```
/// use batchdoku_batch::Stratify;
/// assert_eq!(Stratify::default(), Stratify::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Stratify {
    /// The whole input is one stratum.
    #[default]
    None,
    /// Strata by the search's guesses (as `solve -k 2` counts them), in
    /// doubling bins: 0, 1, 2-3, 4-7, 8-15, ...
    Guesses,
    /// Strata by the value of a kept input CSV column (its index among the
    /// kept columns), compared byte for byte.
    Kept(u16),
}

/// What the count pass remembers of a class: its first record (by index),
/// its number of records and, in `group`, the stratum of its first record;
/// once assigned, `group` holds the class's part instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tally {
    first: u64,
    count: u32,
    group: u32,
}

/// Names each record's part so that no class is on two sides.
///
/// Run [`Pass::Count`] (the job as made) over every record, call
/// [`assign`](SplitJob::assign), then run over the same records again: the
/// job is then in [`Pass::Emit`] and sets each row's
/// [`split`](Row::split).
///
/// # Example
/// ```
/// use batchdoku_batch::{ClassBy, Job, Row, Split, SplitJob, Status, Stratify};
/// use batchdoku_core::{parse_line, Record, Rng, Transform};
/// let easy = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let moved = Transform::random(&mut Rng::new(1)).apply(&easy); // same class
/// let puzzles = [easy, moved, easy];
///
/// let mut job = SplitJob::new(&[0.5, 0.5], &["a", "b"], 7, ClassBy::Puzzle, Stratify::None)?;
/// let (mut scratch, record) = (job.scratch(), Record::default());
/// let mut parts = Vec::new();
/// for emit in [false, true] {
///     if emit {
///         assert_eq!(job.assign().iter().sum::<u64>(), 3); // records per part
///     }
///     for (i, puzzle) in puzzles.iter().enumerate() {
///         let mut row = Row::default();
///         row.reset(i as u64 + 1, i as u64 + 1);
///         job.process(&mut scratch, puzzle, &record, &mut row);
///         if job.writes(&row) {
///             parts.push(row.split.unwrap().as_str());
///         }
///     }
/// }
/// assert_eq!(parts.len(), 3);
/// assert!(parts.iter().all(|&p| p == parts[0])); // one class, one side
/// # Ok::<(), String>(())
/// ```
#[derive(Debug)]
pub struct SplitJob {
    ratios: Vec<f64>,
    names: Vec<&'static str>,
    seed: u64,
    by: ClassBy,
    stratify: Stratify,
    pass: Pass,
    only: Option<usize>,
    classes: ClassMap<Tally>,
}

impl SplitJob {
    /// The columns of `split`, before the optional ones (`trailing`, kept
    /// input columns).
    pub const COLUMNS: &'static [Column] = &SPLIT_COLUMNS;

    /// The same job, its parts balanced within `stratify` (the plan is
    /// checked by [`SplitJob::new`] before the stratifying column is
    /// known).
    pub fn stratified(self, stratify: Stratify) -> SplitJob {
        SplitJob { stratify, ..self }
    }

    /// A job in its count pass: one part per ratio, named by `names`
    /// (distinct, not empty). Ratios are shares of the records, scaled to
    /// sum to 1 (`8, 1, 1` is `0.8, 0.1, 0.1`): at least two, each
    /// positive and finite.
    pub fn new(
        ratios: &[f64],
        names: &[&'static str],
        seed: u64,
        by: ClassBy,
        stratify: Stratify,
    ) -> Result<SplitJob, String> {
        if ratios.len() < 2 || ratios.len() > 255 {
            return Err(format!("2 to 255 ratios needed, not {}", ratios.len()));
        }
        if let Some(r) = ratios.iter().find(|r| !(r.is_finite() && **r > 0.0)) {
            return Err(format!("ratio {r} is not a positive number"));
        }
        if names.len() != ratios.len() {
            return Err(format!(
                "{} names for {} ratios: give one name per ratio",
                names.len(),
                ratios.len()
            ));
        }
        for (i, name) in names.iter().enumerate() {
            if name.is_empty() || names[..i].contains(name) {
                return Err(format!("names must be distinct and not empty: {name:?}"));
            }
        }
        let sum: f64 = ratios.iter().sum();
        Ok(SplitJob {
            ratios: ratios.iter().map(|r| r / sum).collect(),
            names: names.to_vec(),
            seed,
            by,
            stratify,
            pass: Pass::Count,
            only: None,
            classes: ClassMap::new(),
        })
    }

    /// The part names when none are given, for `parts` ratios: `train`,
    /// `test` for two, `train`, `valid`, `test` for three; `None` for any
    /// other count (those need names).
    ///
    /// ```
    /// use batchdoku_batch::SplitJob;
    /// assert_eq!(SplitJob::default_names(3), Some(&["train", "valid", "test"][..]));
    /// assert_eq!(SplitJob::default_names(4), None);
    /// ```
    pub fn default_names(parts: usize) -> Option<&'static [&'static str]> {
        match parts {
            2 => Some(&["train", "test"]),
            3 => Some(&["train", "valid", "test"]),
            _ => None,
        }
    }

    /// The part names, in order.
    pub fn names(&self) -> &[&'static str] {
        &self.names
    }

    /// The number of classes seen by the count pass.
    pub fn classes(&self) -> usize {
        self.classes.len()
    }

    /// Ends the count pass: gives each class a part, stratum by stratum,
    /// and turns the job to [`Pass::Emit`]. Returns the valid records of
    /// each part. Calling it again changes nothing.
    pub fn assign(&mut self) -> Vec<u64> {
        let mut per_part = vec![0u64; self.ratios.len()];
        if self.pass == Pass::Emit {
            self.classes
                .for_each(|t| per_part[t.group as usize] += u64::from(t.count));
            return per_part;
        }
        // Stratum, shuffled position, class, records: sorted, the classes
        // of each stratum in an order only the seed and the input decide.
        let mut order: Vec<(u32, u64, u128, u32)> = Vec::with_capacity(self.classes.len());
        self.classes.for_each_entry(|key, t| {
            order.push((t.group, shuffle(self.seed, key), key, t.count));
        });
        order.sort_unstable();
        for stratum in order.chunk_by(|a, b| a.0 == b.0) {
            let mut filler = Filler::new(&self.ratios);
            for &(_, _, key, count) in stratum {
                let part = filler.place(u64::from(count));
                self.classes.update_key(key, |t| t.group = part as u32);
                per_part[part] += u64::from(count);
            }
        }
        self.pass = Pass::Emit;
        per_part
    }

    /// In the emit pass, write only the rows of part `part` (an index into
    /// [`names`](Self::names)), or every row for `None` (the default).
    pub fn only(&mut self, part: Option<usize>) {
        self.only = part;
    }

    /// The stratum of a valid record (`row` filled by [`class_key`]).
    fn stratum(&self, row: &Row, record: &Record) -> u32 {
        match self.stratify {
            Stratify::None => 0,
            Stratify::Guesses => 64 - row.guesses.leading_zeros(),
            Stratify::Kept(i) => xxhash_rust::xxh3::xxh3_64(&record.kept_text(i.into())) as u32,
        }
    }
}

/// A class's place in the seeded shuffle.
fn shuffle(seed: u64, key: u128) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(&key.to_le_bytes(), seed)
}

impl Job for SplitJob {
    type Scratch = KeyScratch;

    fn columns(&self) -> &'static [Column] {
        Self::COLUMNS
    }

    fn scratch(&self) -> KeyScratch {
        key_scratch()
    }

    fn process(&self, scratch: &mut KeyScratch, puzzle: &Grid, record: &Record, row: &mut Row) {
        // Guesses are needed only to stratify, in the count pass: the rows
        // written say `ok` (or, by grid, how many solutions there are).
        let solve = self.pass == Pass::Count && self.stratify == Stratify::Guesses;
        let Some(class) = class_key(self.by, scratch, puzzle, row, solve) else {
            return;
        };
        match self.pass {
            Pass::Count => {
                let tally = Tally {
                    first: row.index,
                    count: 1,
                    group: self.stratum(row, record),
                };
                self.classes.upsert(&class, tally, |v, new| {
                    if new.first < v.first {
                        v.first = new.first;
                        v.group = new.group;
                    }
                    v.count = v.count.saturating_add(new.count);
                });
            }
            // None only when the input changed between the passes, which
            // the command checks: the row then has no part.
            Pass::Emit => {
                if let Some(t) = self.classes.get(&class) {
                    row.split = Some(Split::Named(self.names[t.group as usize]));
                }
            }
        }
    }

    fn writes(&self, row: &Row) -> bool {
        self.pass == Pass::Emit
            && self
                .only
                .is_none_or(|k| row.split == Some(Split::Named(self.names[k])))
    }
}

/// Places classes, one at a time, into the part furthest below its target
/// share of the records placed so far (ties: the earlier part). In a
/// shuffled order this keeps every part within about one class of its
/// share at any point, on small inputs too, where drawing each class's
/// part independently would be off by the square root of the count.
#[derive(Debug)]
struct Filler<'a> {
    ratios: &'a [f64],
    filled: Vec<u64>,
    total: u64,
}

impl<'a> Filler<'a> {
    fn new(ratios: &'a [f64]) -> Filler<'a> {
        Filler {
            ratios,
            filled: vec![0; ratios.len()],
            total: 0,
        }
    }

    /// The part for a class of `count` records, counted in.
    fn place(&mut self, count: u64) -> usize {
        let total = (self.total + count) as f64;
        let below = |i: usize| self.ratios[i] * total - self.filled[i] as f64;
        let part = (0..self.ratios.len())
            .max_by(|&a, &b| below(a).total_cmp(&below(b)).then(b.cmp(&a)))
            .unwrap_or(0);
        self.filled[part] += count;
        self.total += count;
        part
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::testdata::{grid, EASY, HARD};
    use batchdoku_core::Rng;
    use batchdoku_core::Transform;

    #[test]
    fn filler_hits_the_ratios_exactly_on_unit_classes() {
        let ratios = [0.8, 0.1, 0.1];
        let mut filler = Filler::new(&ratios);
        let mut counts = [0; 3];
        for _ in 0..1000 {
            counts[filler.place(1)] += 1;
        }
        assert_eq!(counts, [800, 100, 100]);
        // At every prefix too, each part is within one record of its share.
        let mut filler = Filler::new(&ratios);
        let mut counts = [0.0; 3];
        for n in 1..=97 {
            counts[filler.place(1)] += 1.0;
            for (c, r) in counts.iter().zip(ratios) {
                assert!((c - r * f64::from(n)).abs() <= 1.0, "{counts:?} after {n}");
            }
        }
    }

    #[test]
    fn filler_balances_uneven_classes() {
        let ratios = [0.5, 0.5];
        let mut filler = Filler::new(&ratios);
        let mut counts = [0u64; 2];
        for count in [5, 1, 1, 1, 1, 1, 3, 2, 1, 4] {
            counts[filler.place(count)] += count;
        }
        assert_eq!(counts.iter().sum::<u64>(), 20);
        // Each part within the largest class (5 records) of its share.
        assert!(counts.iter().all(|&c| c.abs_diff(10) <= 5), "{counts:?}");
        assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    }

    fn job(seed: u64, stratify: Stratify) -> SplitJob {
        SplitJob::new(
            &[8.0, 1.0, 1.0],
            &["train", "valid", "test"],
            seed,
            ClassBy::Puzzle,
            stratify,
        )
        .unwrap()
    }

    /// Runs both passes over `puzzles` and returns each row's part.
    fn parts(job: &mut SplitJob, puzzles: &[Grid]) -> Vec<Option<&'static str>> {
        let mut scratch = job.scratch();
        let record = Record::default();
        let mut out = Vec::new();
        for emit in [false, true] {
            if emit {
                job.assign();
            }
            for (i, p) in puzzles.iter().enumerate() {
                let mut row = Row::default();
                row.reset(i as u64 + 1, i as u64 + 1);
                job.process(&mut scratch, p, &record, &mut row);
                if job.writes(&row) {
                    out.push(row.split.map(|s| s.as_str()));
                }
            }
        }
        out
    }

    /// 200 classes of one to three equivalent copies each.
    fn corpus() -> Vec<Grid> {
        let mut rng = Rng::new(11);
        let mut puzzles = Vec::new();
        for i in 0..200 {
            // Distinct classes: the easy puzzle with one given removed at
            // most, or the hard one, each removal a different class.
            let mut p = grid(if i % 2 == 0 { EASY } else { HARD });
            let givens: Vec<usize> = (0..81).filter(|&c| p.get(c) != 0).collect();
            p.set(givens[(i / 2) % givens.len()], 0);
            for _ in 0..=(i % 3) {
                puzzles.push(Transform::random(&mut rng).apply(&p));
            }
        }
        puzzles
    }

    #[test]
    fn classes_stay_together_and_seeds_reorder() {
        let puzzles = corpus();
        let mut job_a = job(1, Stratify::None);
        let a = parts(&mut job_a, &puzzles);
        assert_eq!(a.len(), puzzles.len());
        let mut canon = batchdoku_core::Canonicalizer::new();
        let forms: Vec<Grid> = puzzles.iter().map(|p| canon.canonical(p).0).collect();
        for i in 0..puzzles.len() {
            for j in 0..i {
                if forms[i] == forms[j] {
                    assert_eq!(a[i], a[j], "records {i} and {j} are one class");
                }
            }
        }
        assert_eq!(a, parts(&mut job(1, Stratify::None), &puzzles));
        assert_ne!(a, parts(&mut job(2, Stratify::None), &puzzles));
        let train = a.iter().filter(|p| **p == Some("train")).count() as f64;
        assert!((train / puzzles.len() as f64 - 0.8).abs() < 0.03, "{train}");
    }

    #[test]
    fn each_stratum_hits_the_ratios() {
        let puzzles = corpus();
        let mut canon = batchdoku_core::Canonicalizer::new();
        // The stratum of a class: "b" for one class in four, by its form.
        let stratum_of = |p: &Grid, canon: &mut batchdoku_core::Canonicalizer| {
            if super::super::classes::grid_key(&canon.canonical(p).0).is_multiple_of(4) {
                b"b"
            } else {
                b"a"
            }
        };
        let mut j = job(3, Stratify::Kept(0));
        let mut scratch = j.scratch();
        let mut record = Record::default();
        let mut got = Vec::new();
        for emit in [false, true] {
            if emit {
                j.assign();
            }
            for (i, p) in puzzles.iter().enumerate() {
                record.kept.clear();
                record.kept.extend_from_slice(stratum_of(p, &mut canon));
                record.kept_ends = vec![1];
                let mut row = Row::default();
                row.reset(i as u64 + 1, i as u64 + 1);
                j.process(&mut scratch, p, &record, &mut row);
                if j.writes(&row) {
                    got.push((record.kept[0], row.split.unwrap().as_str()));
                }
            }
        }
        for stratum in [b'a', b'b'] {
            let n = got.iter().filter(|g| g.0 == stratum).count() as f64;
            assert!(n > 40.0, "{n}");
            for (name, ratio) in [("train", 0.8), ("valid", 0.1), ("test", 0.1)] {
                let k = got.iter().filter(|g| g == &&(stratum, name)).count() as f64;
                // Within two classes (at most three records each) of the
                // share.
                assert!((k - ratio * n).abs() <= 6.0, "{stratum} {name}: {k} of {n}");
            }
        }
    }

    #[test]
    fn invalid_records_get_no_part_and_assign_twice_changes_nothing() {
        let mut bad = Grid::default();
        bad.set(0, 3);
        bad.set(1, 3);
        let mut j = job(5, Stratify::Guesses);
        let out = parts(&mut j, &[grid(EASY), bad, grid(HARD)]);
        assert_eq!(out.len(), 3);
        assert_eq!(out[1], None);
        assert!(out[0].is_some() && out[2].is_some());
        assert_eq!(j.classes(), 2);
        assert_eq!(j.assign().iter().sum::<u64>(), 2);
    }

    #[test]
    fn new_refuses_bad_plans() {
        let by = ClassBy::Puzzle;
        let none = Stratify::None;
        assert!(SplitJob::new(&[1.0], &["a"], 0, by, none).is_err());
        assert!(SplitJob::new(&[1.0, 0.0], &["a", "b"], 0, by, none).is_err());
        assert!(SplitJob::new(&[1.0, f64::NAN], &["a", "b"], 0, by, none).is_err());
        assert!(SplitJob::new(&[1.0, 1.0], &["a"], 0, by, none).is_err());
        assert!(SplitJob::new(&[1.0, 1.0], &["a", "a"], 0, by, none).is_err());
        assert!(SplitJob::new(&[1.0, 1.0], &["a", ""], 0, by, none).is_err());
        let ok = SplitJob::new(&[3.0, 1.0], &["a", "b"], 0, by, none).unwrap();
        assert_eq!(ok.ratios, [0.75, 0.25]);
        assert_eq!(ok.names(), ["a", "b"]);
    }
}
