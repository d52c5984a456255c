//! Per-cell weights of the scored search, and their text format.
//!
//! A score is `sum over cells of weight[cell] * digit`. The default table is
//! the "target" board of NOIP 2009 (6 on the outer ring up to 10 in the
//! centre); any other table can be read from text: 81 integers, separated by
//! whitespace and/or commas, in row-major order (usually 9 lines of 9, but
//! line breaks are not significant). Negative weights are allowed.

use std::io::BufRead;
use std::str::FromStr;
use std::sync::OnceLock;

use super::lagrange::{self, Cells, Lagrange, SCALE};
use crate::grid::{Grid, CELLS};
use crate::solver::{Flow, Node, Solver, Visitor};

/// Coordinate-descent passes on the empty grid for the starting prices.
const BLANK_SWEEPS: usize = 16;
/// Subgradient steps on the empty grid for the starting prices, after
/// the passes.
const BLANK_STEPS: usize = 500;

/// Why a weights table could not be read.
///
/// # Example
/// ```
/// use batchdoku_core::{Weights, WeightsError};
/// assert_eq!("1 2 3".parse::<Weights>(), Err(WeightsError::Count { found: 3 }));
/// let err = "1 2 x".parse::<Weights>().unwrap_err();
/// assert_eq!(err, WeightsError::NotInteger { line: 1, token: 3 });
/// assert_eq!(err.to_string(), "weights: line 1: token 3 is not an integer");
/// let missing = Weights::from_spec("/no/such/weights.txt").unwrap_err();
/// assert_eq!(missing, WeightsError::Io { kind: std::io::ErrorKind::NotFound });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The text did not hold exactly 81 integers.
    #[error("weights: expected 81 integers, found {found}")]
    Count {
        /// How many tokens the text held.
        found: usize,
    },
    /// A token is not a decimal integer.
    #[error("weights: line {line}: token {token} is not an integer")]
    NotInteger {
        /// 1-based line number.
        line: usize,
        /// 1-based position of the token within its line.
        token: usize,
    },
    /// A token is an integer outside the `i32` range.
    #[error("weights: line {line}: token {token} is out of range (must fit in 32 bits)")]
    OutOfRange {
        /// 1-based line number.
        line: usize,
        /// 1-based position of the token within its line.
        token: usize,
    },
    /// The reader failed (or the file could not be opened).
    #[error("weights: read error: {kind}")]
    Io {
        /// The kind of I/O error.
        kind: std::io::ErrorKind,
    },
    /// A weights file longer than [`Weights::MAX_FILE_BYTES`]: not a
    /// weights table (`/dev/zero`, a corpus given by mistake).
    #[error("weights: more than {limit} bytes, not a table of 81 integers")]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
}

/// A weight per cell (row-major, cell = 9 * row + column).
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, Weights};
/// let w = Weights::target();
/// assert_eq!(w.get(0), 6); // corner
/// assert_eq!(w.get(40), 10); // centre
/// let flat: Weights = "1 ".repeat(81).parse().unwrap();
/// assert_eq!(flat.get(80), 1);
///
/// // Every solved grid scores 405 (each digit 1-9 nine times) on flat weights.
/// let solved = parse_line(
///     b"534678912672195348198342567859761423426853791713924856961537284287419635345286179",
/// )
/// .unwrap();
/// assert_eq!(flat.score(&solved), 405);
/// assert_eq!(Weights::from_spec("target"), Ok(Weights::target()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    cells: [i32; CELLS],
    /// The bound's starting prices (derived from `cells`, kept so each
    /// puzzle copies them instead of computing them).
    start: Lagrange,
}

impl Default for Weights {
    /// The target weights.
    fn default() -> Self {
        Weights::target()
    }
}

impl Weights {
    /// The NOIP 2009 "target" weights: `6 + min(r, 8 - r, c, 8 - c)` for
    /// 0-based row `r` and column `c` (6 on the outer ring, 10 in the
    /// centre).
    ///
    /// Built once per process: tuning the starting prices takes a few
    /// milliseconds, which a caller scoring one puzzle at a time (the
    /// Python `score()` with default weights) would otherwise pay per call.
    pub fn target() -> Weights {
        static TARGET: OnceLock<Weights> = OnceLock::new();
        TARGET
            .get_or_init(|| {
                let mut cells = [0i32; CELLS];
                for (cell, w) in cells.iter_mut().enumerate() {
                    let (r, c) = (cell / 9, cell % 9);
                    *w = 6 + r.min(8 - r).min(c).min(8 - c) as i32;
                }
                Weights::new(cells)
            })
            .clone()
    }

    /// Weights from a row-major table of 81 values.
    pub fn new(cells: [i32; CELLS]) -> Weights {
        Weights {
            cells,
            start: start_prices(&cells),
        }
    }

    /// The weight of one cell (0..81).
    #[inline(always)]
    pub fn get(&self, cell: usize) -> i32 {
        self.cells[cell]
    }

    /// The whole table, row-major.
    #[inline]
    pub fn as_array(&self) -> &[i32; CELLS] {
        &self.cells
    }

    /// The score of `grid`: the sum of weight times digit (blank cells add
    /// nothing).
    #[inline]
    pub fn score(&self, grid: &Grid) -> i64 {
        self.cells
            .iter()
            .zip(grid.cells())
            .map(|(&w, &d)| i64::from(w) * i64::from(d))
            .sum()
    }

    /// The bound's starting prices for these weights.
    #[inline]
    pub(crate) fn start(&self) -> &Lagrange {
        &self.start
    }

    /// The longest weights file [`Weights::from_spec`] reads.
    pub const MAX_FILE_BYTES: usize = 64 * 1024;

    /// The weights `spec` names, as `score --weights` and the Python
    /// package's `weights=` take it: `target` ([`Weights::target`]) or the
    /// path of a weights file of at most [`MAX_FILE_BYTES`](Self::MAX_FILE_BYTES),
    /// read as [`Weights::from_reader`] reads it.
    pub fn from_spec(spec: &str) -> Result<Weights, WeightsError> {
        use std::io::Read as _;
        if spec == "target" {
            return Ok(Weights::target());
        }
        let io = |e: std::io::Error| WeightsError::Io { kind: e.kind() };
        let mut text = Vec::new();
        std::fs::File::open(spec)
            .map_err(io)?
            .take(Self::MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut text)
            .map_err(io)?;
        if text.len() > Self::MAX_FILE_BYTES {
            return Err(WeightsError::TooLarge {
                limit: Self::MAX_FILE_BYTES,
            });
        }
        Weights::from_reader(text.as_slice())
    }

    /// Reads a table of 81 integers from `reader`: whitespace- and/or
    /// comma-separated, row-major, line breaks not significant (LF or
    /// CRLF), after an optional UTF-8 byte order mark.
    pub fn from_reader<R: BufRead>(reader: R) -> Result<Weights, WeightsError> {
        let mut parser = TableParser::default();
        for (index, line) in reader.lines().enumerate() {
            let line = line.map_err(|e| WeightsError::Io { kind: e.kind() })?;
            parser.line(index + 1, &line)?;
        }
        parser.finish()
    }
}

impl FromStr for Weights {
    type Err = WeightsError;

    /// Parses a table of 81 integers, as [`Weights::from_reader`] reads it.
    fn from_str(s: &str) -> Result<Weights, WeightsError> {
        let mut parser = TableParser::default();
        for (index, line) in s.lines().enumerate() {
            parser.line(index + 1, line)?;
        }
        parser.finish()
    }
}

/// Collects integers line by line, counting every token so a wrong count is
/// reported with the number actually found.
#[derive(Default)]
struct TableParser {
    cells: Vec<i32>,
    found: usize,
}

impl TableParser {
    fn line(&mut self, line_no: usize, line: &str) -> Result<(), WeightsError> {
        // A byte order mark opens the first line of a file saved by some
        // editors; `lines` has already dropped the CR of a CRLF.
        let line = if line_no == 1 {
            line.strip_prefix('\u{feff}').unwrap_or(line)
        } else {
            line
        };
        let tokens = line
            .split(|ch: char| ch == ',' || ch.is_whitespace())
            .filter(|t| !t.is_empty());
        for (index, token) in tokens.enumerate() {
            self.found += 1;
            let value = token.parse::<i32>().map_err(|e| {
                let (line, token) = (line_no, index + 1);
                match e.kind() {
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
                        WeightsError::OutOfRange { line, token }
                    }
                    _ => WeightsError::NotInteger { line, token },
                }
            })?;
            if self.cells.len() < CELLS {
                self.cells.push(value);
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<Weights, WeightsError> {
        let cells: [i32; CELLS] = self
            .cells
            .try_into()
            .ok()
            .filter(|_| self.found == CELLS)
            .ok_or(WeightsError::Count { found: self.found })?;
        Ok(Weights::new(cells))
    }
}

/// The bound's starting prices for `weights`: the prices tuned on the
/// empty grid. A puzzle's givens move its best prices away from these,
/// but far less than from the even share of [`Lagrange::new`] (at the
/// benchmark's 24-given roots the bound starts 17 points above the
/// optimum instead of 66), so the root's passes need fewer rounds. The
/// even share is tuned by coordinate descent, then by subgradient steps
/// towards the score of the first solution those prices lead to.
fn start_prices(weights: &[i32; CELLS]) -> Lagrange {
    let mut start = Lagrange::new(weights);
    if !lagrange::tunable(weights) {
        return start;
    }
    start.sweep(&Cells::BLANK, BLANK_SWEEPS);
    if let Some(lower) = first_solution_score(&start, weights) {
        start.descend(&Cells::BLANK, lower * SCALE, BLANK_STEPS);
    }
    start
}

/// The score of the first solution of the empty grid found by following
/// each cell's most profitable candidate under `lagrange`'s prices.
fn first_solution_score(lagrange: &Lagrange, weights: &[i32; CELLS]) -> Option<i64> {
    struct Dive<'a> {
        lagrange: &'a Lagrange,
        weights: &'a [i32; CELLS],
        score: Option<i64>,
    }
    impl Visitor for Dive<'_> {
        fn solution(&mut self, node: &Node) -> Flow {
            let grid = node.to_grid();
            let score = self.weights.iter().zip(grid.cells());
            self.score = Some(score.map(|(&w, &d)| i64::from(w) * i64::from(d)).sum());
            Flow::Stop
        }
        fn choose_digit(&self, cell: usize, candidates: u16) -> usize {
            self.lagrange.best_digit(cell, candidates)
        }
    }
    let mut dive = Dive {
        lagrange,
        weights,
        score: None,
    };
    Solver::new().search(&Grid::empty(), &mut dive).ok()?;
    dive.score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::lagrange::Eval;

    /// The bound at the empty grid under `prices`, in points.
    fn blank_bound(prices: &Lagrange) -> f64 {
        let total = prices.evaluate(&Cells::BLANK, &mut Eval::new()).unwrap();
        total as f64 / SCALE as f64
    }

    #[test]
    fn starting_prices_are_tuned_on_the_empty_grid() {
        // The target weights' best on the empty grid is 2906 (the search
        // proves it, see the score tests); the even share bounds it 120
        // points above, the tuned start within 2.
        let w = Weights::target();
        let even = blank_bound(&Lagrange::new(w.as_array()));
        let tuned = blank_bound(w.start());
        assert!(even > 3000.0, "even share {even}");
        assert!((2906.0..2908.0).contains(&tuned), "tuned start {tuned}");
        // Mixed signs: still tuned, never worse than the even share.
        let mixed = Weights::new(std::array::from_fn(|c| (c as i32 * 7) % 23 - 11));
        let even = blank_bound(&Lagrange::new(mixed.as_array()));
        assert!(blank_bound(mixed.start()) < even - 1.0);
        // Weights too large to tune keep the even share.
        let big = Weights::new([1 << 20; CELLS]);
        assert_eq!(big.start(), &Lagrange::new(big.as_array()));
    }

    #[test]
    fn target_rings() {
        let w = Weights::target();
        assert_eq!(w.get(0), 6);
        assert_eq!(w.get(8), 6);
        assert_eq!(w.get(10), 7);
        assert_eq!(w.get(20), 8);
        assert_eq!(w.get(30), 9);
        assert_eq!(w.get(40), 10);
        assert_eq!(w.get(80), 6);
        let total: i32 = w.as_array().iter().sum();
        // Rings of 32, 24, 16, 8 and 1 cells.
        assert_eq!(total, 32 * 6 + 24 * 7 + 16 * 8 + 8 * 9 + 10);
    }

    #[test]
    fn parses_nine_lines_and_one_line_alike() {
        let target = Weights::target();
        let rows: Vec<String> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| target.get(r * 9 + c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let block = rows.join("\n") + "\n";
        assert_eq!(block.parse::<Weights>().unwrap(), target);
        let one_line = rows.join(", ");
        assert_eq!(one_line.parse::<Weights>().unwrap(), target);
        let from_reader = Weights::from_reader(block.as_bytes()).unwrap();
        assert_eq!(from_reader, target);
    }

    #[test]
    fn negatives_and_commas() {
        let text = (0..81)
            .map(|i: i32| (i - 40).to_string())
            .collect::<Vec<_>>()
            .join(",");
        let w: Weights = text.parse().unwrap();
        assert_eq!(w.get(0), -40);
        assert_eq!(w.get(80), 40);
    }

    #[test]
    fn wrong_count_is_reported() {
        let short = "1 ".repeat(80);
        assert_eq!(
            short.parse::<Weights>(),
            Err(WeightsError::Count { found: 80 })
        );
        let long = "1 ".repeat(82);
        assert_eq!(
            long.parse::<Weights>(),
            Err(WeightsError::Count { found: 82 })
        );
        assert_eq!("".parse::<Weights>(), Err(WeightsError::Count { found: 0 }));
    }

    #[test]
    fn bad_token_is_reported_with_its_line() {
        let text = format!("{}\n1 2 x 4\n", "1 ".repeat(9));
        assert_eq!(
            text.parse::<Weights>(),
            Err(WeightsError::NotInteger { line: 2, token: 3 })
        );
        let text = "1 1.5";
        assert_eq!(
            text.parse::<Weights>(),
            Err(WeightsError::NotInteger { line: 1, token: 2 })
        );
        let text = "\n\n 99999999999";
        assert_eq!(
            text.parse::<Weights>(),
            Err(WeightsError::OutOfRange { line: 3, token: 1 })
        );
        let err = WeightsError::NotInteger { line: 2, token: 3 };
        assert_eq!(
            err.to_string(),
            "weights: line 2: token 3 is not an integer"
        );
    }

    #[test]
    fn score_sums_weight_times_digit() {
        let w = Weights::target();
        let mut g = Grid::empty();
        assert_eq!(w.score(&g), 0);
        g.set(40, 9);
        g.set(0, 1);
        assert_eq!(w.score(&g), 90 + 6);
    }
}
