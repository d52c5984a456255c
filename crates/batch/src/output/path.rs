//! The solution path of a rated row (`rate --path`): [`Path`], its steps
//! ([`PathStep`]) and their moves in the players' notation ([`Move`]).
//! The steps are batchdoku-rate's own records, kept in a buffer the row
//! reuses; what a step's columns hold (notation, sentence) is read from
//! them only when the row is written. Without the `rate` feature no row
//! has a path.

/// The solution path of a rated puzzle (`rate --path`): the steps whose
/// ratings give its ER, EP and ED, in order (so as many as its `steps`).
/// Kept in a buffer the row reuses: once it has held the longest path,
/// filling it allocates nothing. Present (maybe empty: a complete grid
/// takes no step) exactly when the row was rated with the path on.
///
/// # Example
/// ```
/// use batchdoku_batch::{Job, RateJob, Row};
/// use batchdoku_core::{parse_line, Record};
/// let puzzle = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let job = RateJob { path: true, ..RateJob::default() };
/// let mut row = Row::default();
/// job.process(&mut job.scratch(), &puzzle, &Record::default(), &mut row);
/// # if RateJob::available().is_ok() {
/// let path = &row.path;
/// assert_eq!(Some(path.len() as u32), row.ratings.map(|r| r.steps));
/// let first = path.steps().next().unwrap();
/// assert_eq!((first.technique(), first.rating()), ("hidden single", 12));
/// assert_eq!(first.placements().collect::<Vec<_>>(), ["r6c2=4"]);
/// assert_eq!(first.eliminations().count(), 0);
/// assert_eq!(first.text(), "4 in box 4 only at r6c2");
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Path {
    /// Whether the row has a path (rated with the path on).
    present: bool,
    #[cfg(feature = "rate")]
    steps: Vec<batchdoku_rate::Step>,
}

impl Path {
    /// Whether the row has a path: rated, with the path on.
    pub fn is_present(&self) -> bool {
        self.present
    }

    /// The number of steps.
    pub fn len(&self) -> usize {
        #[cfg(feature = "rate")]
        return self.steps.len();
        #[cfg(not(feature = "rate"))]
        return 0;
    }

    /// Whether the path has no step (absent, or a complete grid's).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The steps, in order.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = PathStep<'_>> + '_ {
        #[cfg(feature = "rate")]
        return self.steps.iter().map(|step| PathStep { step });
        // Without the rater no row has a path.
        #[cfg(not(feature = "rate"))]
        return std::iter::empty();
    }

    /// No path.
    pub(crate) fn clear(&mut self) {
        self.present = false;
        #[cfg(feature = "rate")]
        self.steps.clear();
    }

    /// Takes `steps` as the path, reusing the buffer.
    #[cfg(feature = "rate")]
    pub(crate) fn set(&mut self, steps: &[batchdoku_rate::Step]) {
        self.present = true;
        self.steps.clear();
        self.steps.extend_from_slice(steps);
    }
}

/// One step of a [`Path`]: its technique, rating, placements and
/// eliminations (in the players' notation, `r4c6=7` and `r5c4<>3`, rows
/// and columns from 1, in cell order then digit order), and a sentence
/// naming the cells and units of its pattern.
#[derive(Clone, Copy, Debug)]
pub struct PathStep<'a> {
    #[cfg(feature = "rate")]
    step: &'a batchdoku_rate::Step,
    #[cfg(not(feature = "rate"))]
    never: std::convert::Infallible,
    #[cfg(not(feature = "rate"))]
    _path: std::marker::PhantomData<&'a ()>,
}

/// A placement or an elimination in the players' notation (`r4c6=7`,
/// `r5c4<>3`), as text on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    bytes: [u8; 7],
    len: u8,
}

impl Move {
    /// `digit` (1..=9) placed in `cell` (0..81, row by row): `r4c6=7`.
    ///
    /// ```
    /// use batchdoku_batch::Move;
    /// assert_eq!(Move::placement(32, 7).as_str(), "r4c6=7");
    /// assert_eq!(Move::elimination(39, 3).to_string(), "r5c4<>3");
    /// ```
    pub fn placement(cell: usize, digit: u8) -> Move {
        Move::new(cell, digit, true)
    }

    /// `digit` (1..=9) removed from `cell` (0..81, row by row): `r5c4<>3`.
    pub fn elimination(cell: usize, digit: u8) -> Move {
        Move::new(cell, digit, false)
    }

    /// `digit` placed in `cell` when `placed`, else removed from it.
    fn new(cell: usize, digit: u8, placed: bool) -> Move {
        let mut bytes = [
            b'r',
            b'1' + (cell / 9) as u8,
            b'c',
            b'1' + (cell % 9) as u8,
            b'=',
            b'0' + digit,
            0,
        ];
        let len = if placed {
            6
        } else {
            bytes[4..7].copy_from_slice(&[b'<', b'>', b'0' + digit]);
            7
        };
        Move { bytes, len }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // ASCII by construction.
        std::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    /// The text, as bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl PartialEq<&str> for Move {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Display for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<'a> PathStep<'a> {
    /// The technique, as the `techniques` column names it.
    pub fn technique(&self) -> &'static str {
        #[cfg(feature = "rate")]
        return self.step.technique().name();
        #[cfg(not(feature = "rate"))]
        match self.never {}
    }

    /// The rating in tenths (2.6 is 26): what the step adds to the scale.
    pub fn rating(&self) -> u8 {
        #[cfg(feature = "rate")]
        return self.step.rating();
        #[cfg(not(feature = "rate"))]
        match self.never {}
    }

    /// The placements (none or one): `r4c6=7`.
    pub fn placements(&self) -> impl Iterator<Item = Move> + 'a {
        #[cfg(feature = "rate")]
        return self
            .step
            .placement()
            .into_iter()
            .map(|(cell, digit)| Move::placement(cell, digit));
        // No step without the rater.
        #[cfg(not(feature = "rate"))]
        return std::iter::empty();
    }

    /// The eliminations, in cell order then digit order: `r5c4<>3`.
    pub fn eliminations(&self) -> impl Iterator<Item = Move> + 'a {
        #[cfg(feature = "rate")]
        return self
            .step
            .eliminations()
            .map(|(cell, digit)| Move::elimination(cell, digit));
        // No step without the rater.
        #[cfg(not(feature = "rate"))]
        return std::iter::empty();
    }

    /// Appends the step's sentence (no `|`, `;`, `"` or line break).
    pub fn write_text(&self, out: &mut Vec<u8>) {
        #[cfg(feature = "rate")]
        self.step.write_text(out);
        #[cfg(not(feature = "rate"))]
        {
            let _ = out;
            match self.never {}
        }
    }

    /// The step's sentence.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        self.write_text(&mut out);
        // ASCII by construction.
        String::from_utf8(out).unwrap_or_default()
    }
}
