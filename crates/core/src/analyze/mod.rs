//! The puzzle forum's measures of a puzzle with one solution (what
//! `batchdoku analyze` writes): whether it is minimal and how many givens
//! are redundant, the symmetry of its pattern of givens, its
//! automorphisms, its trial-and-error depth and its singles backdoor
//! size.
//!
//! Each measure is built on the crate's own engines: redundant givens on
//! the solver's search loop (a visitor, `givens.rs`), automorphisms on
//! the canonical search ([`Canonicalizer::automorphisms`]), the pattern's
//! symmetries on [`Symmetry`](crate::Symmetry)'s maps ([`Symmetries`]),
//! trial and error (`te.rs`) and backdoors (`backdoor.rs`) on the singles
//! propagation of [`solved_by_singles`](crate::solved_by_singles). The
//! last two can cost far more than the others, so they search up to a
//! cap ([`AnalyzeOptions::max_te`], [`AnalyzeOptions::max_backdoor`]).

mod backdoor;
mod givens;
mod te;

use crate::canon::Canonicalizer;
use crate::engine::{Engine, Outcome};
use crate::generate::Symmetries;
use crate::grid::{Conflict, Grid};
use crate::singles::Board;
use crate::solver::Solver;

/// One measure of [`Analyzer::analyze`], by its column name.
///
/// # Example
/// ```
/// use batchdoku_core::Measure;
/// let te: Measure = "TE".parse().unwrap(); // names ignore case
/// assert_eq!(te, Measure::Te);
/// assert_eq!(te.as_str(), "te");
/// assert_eq!(Measure::ALL.len(), 6);
/// assert!("depth".parse::<Measure>().unwrap_err().contains("minimal, redundant"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Measure {
    /// True when no single given can be removed with the puzzle still
    /// unique.
    Minimal,
    /// How many givens could each be removed alone, the puzzle staying
    /// unique.
    Redundant,
    /// The symmetries of the pattern of givens ([`Symmetries`]).
    Symmetry,
    /// How many transformations map the puzzle onto itself.
    Automorphisms,
    /// Trial-and-error depth (Berthier), up to [`AnalyzeOptions::max_te`].
    Te,
    /// Singles backdoor size, up to [`AnalyzeOptions::max_backdoor`].
    Backdoor,
}

impl Measure {
    /// Every measure, in column order.
    pub const ALL: [Measure; 6] = [
        Measure::Minimal,
        Measure::Redundant,
        Measure::Symmetry,
        Measure::Automorphisms,
        Measure::Te,
        Measure::Backdoor,
    ];

    /// The measure's column name.
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Minimal => "minimal",
            Measure::Redundant => "redundant",
            Measure::Symmetry => "symmetry",
            Measure::Automorphisms => "automorphisms",
            Measure::Te => "te",
            Measure::Backdoor => "backdoor",
        }
    }

    /// What the measure is, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Measure::Minimal => {
                "true when no given can be removed alone, the puzzle staying unique"
            }
            Measure::Redundant => "how many givens could each be removed alone",
            Measure::Symmetry => "symmetries of the pattern of givens (generate's names), or none",
            Measure::Automorphisms => "transformations mapping the puzzle onto itself (1 for most)",
            Measure::Te => "trial-and-error depth (Berthier), exact up to its cap",
            Measure::Backdoor => {
                "fewest solution cells that let singles solve it, exact up to its cap"
            }
        }
    }
}

impl std::str::FromStr for Measure {
    type Err = String;

    /// Parses a measure name (ASCII case-insensitive).
    fn from_str(s: &str) -> Result<Measure, String> {
        crate::names::parse_name("measure", &Measure::ALL, Measure::as_str, s)
    }
}

/// Which measures [`Analyzer::analyze`] computes, and how far the two
/// searches go.
///
/// `te` is exact up to `max_te` and `backdoor` up to `max_backdoor`; a
/// puzzle beyond the cap gets the cap plus one, which reads "more than
/// the cap". The caps are at most [`AnalyzeOptions::TE_LIMIT`] and
/// [`AnalyzeOptions::BACKDOOR_LIMIT`] (larger values count as those).
/// The default computes every measure with both caps at 1, the cheap
/// setting (thousands of puzzles a second on one thread).
///
/// # Example
/// ```
/// use batchdoku_core::{AnalyzeOptions, Measure};
/// let options = AnalyzeOptions::default();
/// assert!(Measure::ALL.iter().all(|&m| options.wants(m)));
/// assert_eq!((options.max_te, options.max_backdoor), (1, 1));
/// let exact = AnalyzeOptions { max_te: 2, ..AnalyzeOptions::of(&[Measure::Te]) };
/// assert!(exact.wants(Measure::Te) && !exact.wants(Measure::Minimal));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// Compute [`Analysis::minimal`].
    pub minimal: bool,
    /// Compute [`Analysis::redundant`].
    pub redundant: bool,
    /// Compute [`Analysis::symmetry`].
    pub symmetry: bool,
    /// Compute [`Analysis::automorphisms`].
    pub automorphisms: bool,
    /// Compute [`Analysis::te`].
    pub te: bool,
    /// Compute [`Analysis::backdoor`].
    pub backdoor: bool,
    /// The deepest trial-and-error level tried (0 to 2).
    pub max_te: u8,
    /// The largest backdoor size tried (0 to 3).
    pub max_backdoor: u8,
}

impl AnalyzeOptions {
    /// The largest `max_te`: almost every known puzzle has a depth of at
    /// most 2.
    pub const TE_LIMIT: u8 = 2;
    /// The largest `max_backdoor`.
    pub const BACKDOOR_LIMIT: u8 = 3;

    /// The measures of `measures`, with both caps at 1.
    pub fn of(measures: &[Measure]) -> AnalyzeOptions {
        let wants = |m| measures.contains(&m);
        AnalyzeOptions {
            minimal: wants(Measure::Minimal),
            redundant: wants(Measure::Redundant),
            symmetry: wants(Measure::Symmetry),
            automorphisms: wants(Measure::Automorphisms),
            te: wants(Measure::Te),
            backdoor: wants(Measure::Backdoor),
            max_te: 1,
            max_backdoor: 1,
        }
    }

    /// Whether `measure` is computed.
    pub fn wants(&self, measure: Measure) -> bool {
        match measure {
            Measure::Minimal => self.minimal,
            Measure::Redundant => self.redundant,
            Measure::Symmetry => self.symmetry,
            Measure::Automorphisms => self.automorphisms,
            Measure::Te => self.te,
            Measure::Backdoor => self.backdoor,
        }
    }
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions::of(&Measure::ALL)
    }
}

/// The measures of one puzzle with exactly one solution; `None` for a
/// measure not asked for.
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, AnalyzeOptions, Analyzer, Measure};
/// let easy = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let options = AnalyzeOptions::of(&[Measure::Redundant, Measure::Symmetry, Measure::Te]);
/// let analysis = Analyzer::new().analyze(&easy, &options).unwrap().1.unwrap();
/// assert_eq!(analysis.redundant, Some(21)); // 21 givens could each go alone
/// assert_eq!(analysis.symmetry.map(|s| s.as_str()), Some("central+mirror"));
/// assert_eq!(analysis.te, Some(0)); // singles solve it
/// assert_eq!(analysis.minimal, None); // not asked for
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// True when no single given can be removed with the puzzle still
    /// unique.
    pub minimal: Option<bool>,
    /// How many givens could each be removed alone with the puzzle still
    /// unique (not all at once: removing one may make another needed).
    pub redundant: Option<u8>,
    /// The symmetries of the pattern of givens.
    pub symmetry: Option<Symmetries>,
    /// How many transformations (digit relabellings, row and column moves
    /// within bands and stacks, band and stack moves, transposition)
    /// map the puzzle onto itself, the identity included.
    pub automorphisms: Option<u64>,
    /// Trial-and-error depth: 0 when singles solve the puzzle, `n` when
    /// level `n` does and level `n - 1` does not, `max_te + 1` when no
    /// level up to `max_te` does.
    pub te: Option<u8>,
    /// Singles backdoor size: the fewest cells whose solution digits,
    /// added as givens, let singles solve the puzzle (0 when they already
    /// do); `max_backdoor + 1` when more than `max_backdoor` are needed.
    pub backdoor: Option<u8>,
}

/// Measures puzzles ([`Analysis`]); one per worker, reused for every
/// puzzle (it allocates nothing once its canonical search's buffers have
/// grown).
///
/// # Example
/// ```
/// use batchdoku_core::{parse_line, AnalyzeOptions, Analyzer};
/// let hard = parse_line(
///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
/// )
/// .unwrap();
/// let mut analyzer = Analyzer::new();
/// let (outcome, analysis) = analyzer.analyze(&hard, &AnalyzeOptions::default()).unwrap();
/// assert_eq!(outcome.solutions, 1);
/// let analysis = analysis.unwrap();
/// assert_eq!(analysis.minimal, Some(true));
/// assert_eq!(analysis.te, Some(1)); // one level of trial and error
/// // No single cell lets singles solve it: 2 reads "more than 1", the
/// // default cap.
/// assert_eq!(analysis.backdoor, Some(2));
/// let exact = AnalyzeOptions { max_backdoor: 3, ..AnalyzeOptions::default() };
/// assert_eq!(analyzer.analyze(&hard, &exact).unwrap().1.unwrap().backdoor, Some(2));
/// assert_eq!(analysis.symmetry.unwrap().as_str(), "none");
/// assert_eq!(analysis.automorphisms, Some(1));
///
/// // A puzzle with several solutions has no measures.
/// let (outcome, analysis) =
///     analyzer.analyze(&batchdoku_core::Grid::empty(), &AnalyzeOptions::default()).unwrap();
/// assert_eq!((outcome.solutions, analysis), (2, None));
/// ```
#[derive(Debug, Default)]
pub struct Analyzer {
    solver: Solver,
    canon: Canonicalizer,
}

impl Analyzer {
    /// An analyzer with its solver and canonical search.
    pub fn new() -> Analyzer {
        Analyzer::default()
    }

    /// Counts the solutions of `puzzle` up to two (what `solve -k 2`
    /// does: the same outcome) and, when there is exactly one, computes
    /// the measures `options` asks for. Contradictory givens are `Err`,
    /// as for [`Engine::count_solutions_up_to`].
    pub fn analyze(
        &mut self,
        puzzle: &Grid,
        options: &AnalyzeOptions,
    ) -> Result<(Outcome, Option<Analysis>), Conflict> {
        let outcome = self.solver.count_solutions_up_to(puzzle, 2)?;
        let analysis = match outcome.solution {
            Some(solution) if outcome.solutions == 1 => self.measure(puzzle, &solution, options),
            _ => None,
        };
        Ok((outcome, analysis))
    }

    /// The measures of `puzzle`, whose one solution is `solution`.
    fn measure(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        options: &AnalyzeOptions,
    ) -> Option<Analysis> {
        let mut analysis = Analysis::default();
        if options.minimal || options.redundant {
            let only_minimal = !options.redundant;
            let n = givens::redundant_givens(&mut self.solver, puzzle, solution, only_minimal);
            analysis.minimal = options.minimal.then_some(n == 0);
            analysis.redundant = options.redundant.then_some(n);
        }
        if options.symmetry {
            analysis.symmetry = Some(Symmetries::of(puzzle));
        }
        if options.automorphisms {
            analysis.automorphisms = Some(self.canon.automorphisms(puzzle));
        }
        if options.te || options.backdoor {
            // A puzzle with a solution never meets a contradiction here.
            let start = Board::load(puzzle).ok()?;
            if options.te {
                let max = options.max_te.min(AnalyzeOptions::TE_LIMIT);
                analysis.te = Some(te::te_depth(&start, solution, max));
            }
            if options.backdoor {
                let max = options.max_backdoor.min(AnalyzeOptions::BACKDOOR_LIMIT);
                analysis.backdoor = Some(backdoor::backdoor_size(&start, solution, max));
            }
        }
        Some(analysis)
    }
}

#[cfg(test)]
mod tests;
