//! `batchdoku generate`: turn the flags into a generation [`Spec`], stream
//! the puzzles to the output, print the summary, choose the exit code.

use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde::Serialize;

use batchdoku_batch::plumbing::GenerateConfig;
use batchdoku_batch::{self as batch, ErTarget, GenerateReport, RateJob};
use batchdoku_core::{ClueTarget, Generator, Spec};

use crate::cli::args::{GenerateArgs, RunArgs};
use crate::cli::exit::Exit;
use crate::cli::stderr_progress::StderrProgress;
use crate::cli::{interrupt, io};

/// Below this many givens, `--clues` needs many attempts per puzzle.
const SLOW_BELOW: usize = 22;

/// Runs `generate`.
pub fn run(args: &GenerateArgs) -> anyhow::Result<Exit> {
    let spec = spec_of(args);
    let seed = args.seed.unwrap_or_else(clock_seed);
    let generator = Generator::new(spec, seed).context("generate")?;
    let er = args.er.map(|(min, max)| ErTarget {
        min,
        max,
        limit: args.limit.unwrap_or(RateJob::DEFAULT_LIMIT),
    });
    if let Some((min, max)) = args.er {
        RateJob::available().map_err(|why| anyhow::anyhow!("generate --er: {why}"))?;
        refuse_unreachable(min, max, spec.clues)?;
    }
    if args.start.checked_add(args.count).is_none() {
        anyhow::bail!("generate: --start plus --count overflows");
    }
    if let ClueTarget::Exactly(k) = spec.clues {
        if k < SLOW_BELOW && !args.run.quiet {
            super::say(format_args!(
                "batchdoku generate: warning: --clues {k} is slow (most attempts end with more \
                 givens and are retried)"
            ));
        }
    }
    let config = GenerateConfig {
        start: args.start - 1, // the generator counts from 0
        count: args.count,
        threads: args.run.thread_count(),
        chunk_size: args.run.batch_size_or(RunArgs::RATE_BATCH),
        format: args
            .rows
            .format_for(args.run.output.as_deref(), batch::OutputFormat::Line),
        header: !args.rows.no_header,
        er,
    };
    let progress = StderrProgress::new(args.run.progress_mode());
    let mut sink = io::open_output(args.run.output.as_deref())?;
    io::refuse_binary_on_terminal(&sink, config.format)?;
    let summary_sink = io::open_summary(args.summary_json.as_deref(), &sink)?;
    let mut report =
        batch::plumbing::generate(&generator, &mut sink, &config, interrupt::flag(), &progress)
            .map_err(anyhow::Error::new)
            .with_context(|| match args.er {
                Some((min, max)) => format!(
                    "generate --er {:.1}..{:.1} --limit {}",
                    f64::from(min) / 10.0,
                    f64::from(max) / 10.0,
                    args.limit.unwrap_or(RateJob::DEFAULT_LIMIT)
                ),
                None => "generate".to_string(),
            })?;
    let puzzles = batch::plumbing::flush(sink, report.interrupted, &mut report.broken_pipe)?;
    let facts = Facts::of(seed, args.er, &config, &report);
    let summary_file = match (args.summary_json.as_deref(), summary_sink) {
        (Some(path), Some(sink)) => Some(io::write_summary_json(sink, path, &facts)?),
        _ => None,
    };
    io::keep(puzzles, summary_file, &mut report.interrupted, Exit::Ok)?;
    if !args.run.quiet && !report.broken_pipe {
        super::say(format_args!("{}", summary(seed, &config, &report)));
    }
    Ok(if report.interrupted {
        interrupt::exit()
    } else {
        Exit::Ok
    })
}

/// Refuses an `--er MIN..MAX` (in tenths) no puzzle can rate in, before
/// any work: the rater gives a puzzle with an empty cell 1.0 to its
/// highest rating, and a complete grid (`--clues 81`) 0.0. Such a range
/// would otherwise run until Ctrl-C.
fn refuse_unreachable(min: u8, max: u8, clues: ClueTarget) -> anyhow::Result<()> {
    let Some((low, high)) = RateJob::er_range() else {
        return Ok(());
    };
    let complete = matches!(clues, ClueTarget::Exactly(81) | ClueTarget::AtLeast(81));
    let reachable = if complete {
        min == 0
    } else {
        min <= high && max >= low
    };
    if !reachable {
        let er = |t: u8| f64::from(t) / 10.0;
        let complete_note = if complete {
            "; with 81 givens every puzzle is a complete grid, which rates 0.0"
        } else {
            ""
        };
        anyhow::bail!(
            "generate --er {:.1}..{:.1}: no puzzle can rate in this range: the rater's ER runs \
             from {:.1} (its easiest step, a hidden single that is the last empty cell of its \
             unit) to {:.1} (its deepest level, nested forcing chains of level 5 at 11.0, plus \
             the longest length adjustment){complete_note}",
            er(min),
            er(max),
            er(low),
            er(high),
        );
    }
    Ok(())
}

/// The `--summary-json` of `generate`: what the stderr line says, as JSON.
#[derive(Debug, Serialize)]
struct Facts {
    /// Always `generate`.
    command: &'static str,
    /// Puzzles written.
    puzzles: u64,
    /// The seed.
    seed: u64,
    /// Attempts over the puzzles written.
    attempts: u64,
    /// With `--er`: the range (ER, one decimal).
    er: Option<[f64; 2]>,
    /// With `--er`: candidates rated during the run (also for puzzles an
    /// interruption left unwritten).
    tried: Option<u64>,
    /// With `--er`: of those, rated outside the range.
    out_of_range: Option<u64>,
    /// With `--er`: of those, whose rating ran out of budget (`--limit`).
    out_of_budget: Option<u64>,
    /// Mean givens per puzzle.
    mean_givens: f64,
    /// Wall-clock seconds.
    elapsed_seconds: f64,
    /// Worker threads.
    threads: usize,
    /// True when the run was interrupted before the end.
    interrupted: bool,
    /// True when every puzzle was made and written.
    complete: bool,
}

impl Facts {
    fn of(
        seed: u64,
        er: Option<(u8, u8)>,
        config: &GenerateConfig,
        report: &GenerateReport,
    ) -> Facts {
        Facts {
            command: "generate",
            puzzles: report.puzzles,
            seed,
            attempts: report.attempts,
            er: er.map(|(lo, hi)| [f64::from(lo) / 10.0, f64::from(hi) / 10.0]),
            tried: er.map(|_| report.candidates.tried),
            out_of_range: er.map(|_| report.candidates.out_of_range),
            out_of_budget: er.map(|_| report.candidates.out_of_budget),
            mean_givens: report.givens as f64 / report.puzzles.max(1) as f64,
            elapsed_seconds: report.elapsed.as_secs_f64(),
            threads: config.threads,
            interrupted: report.interrupted,
            complete: !report.interrupted && !report.broken_pipe,
        }
    }
}

/// The spec the flags ask for (validated by [`Generator::new`]).
fn spec_of(args: &GenerateArgs) -> Spec {
    let clues = match (args.clues, args.min_clues) {
        (Some(k), _) => ClueTarget::Exactly(usize::from(k)),
        (None, Some(k)) => ClueTarget::AtLeast(usize::from(k)),
        (None, None) => ClueTarget::Fewest,
    };
    Spec {
        clues,
        minimal: args.minimal,
        symmetry: args.symmetry,
    }
}

/// A seed for a run without `--seed`: the clock and the process id.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

/// The end-of-run line, e.g. `batchdoku generate: 1000 puzzles (seed 42,
/// 24.3 givens on average, 1.00 attempts/puzzle) in 0.20 s, 5000
/// puzzles/s, 2 threads`.
fn summary(seed: u64, config: &GenerateConfig, report: &GenerateReport) -> String {
    let n = report.puzzles.max(1) as f64;
    let secs = report.elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        report.puzzles as f64 / secs
    } else {
        0.0
    };
    // Slow specs (--clues 20) make well under one puzzle per second.
    let rate = if rate < 10.0 {
        format!("{rate:.2}")
    } else {
        format!("{rate:.0}")
    };
    // With --er, how many candidates were rated, and why those not kept
    // were not.
    let c = report.candidates;
    let tried = if config.er.is_some() {
        format!(
            ", {} candidates rated ({} out of range, {} out of budget)",
            c.tried, c.out_of_range, c.out_of_budget
        )
    } else {
        String::new()
    };
    format!(
        "batchdoku generate: {} puzzles (seed {seed}, {:.1} givens on average, {:.2} \
         attempts/puzzle{tried}) in {secs:.2} s, {rate} puzzles/s, {} thread{}{}",
        report.puzzles,
        report.givens as f64 / n,
        report.attempts as f64 / n,
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    )
}
