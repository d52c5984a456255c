//! `batchdoku overlap`: remember the training split's classes, then report
//! the test records in them. Exit code 1 when any test record leaks (or
//! any record is invalid).

use batchdoku::jobs::{ClassMap, OverlapJob, Split};
use batchdoku::output::{Column, Status, OVERLAP_COLUMNS};

use super::{conclude, pass, settings};
use crate::cli::args::OverlapArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `overlap`.
pub fn run(args: &OverlapArgs) -> anyhow::Result<Exit> {
    if args.train == "-" && args.test == "-" {
        anyhow::bail!("overlap: TRAIN and TEST cannot both be stdin");
    }
    let mut sink = io::open_output(args.run.output.as_deref())?;
    let train = io::open_inputs(std::slice::from_ref(&args.train), None, &args.records)?;
    let test = io::open_inputs(std::slice::from_ref(&args.test), None, &args.records)?;
    let columns = OVERLAP_COLUMNS.to_vec();
    let config = settings(
        &args.run,
        &args.records,
        columns,
        Column::Puzzle,
        &[&train.0, &test.0],
    )?;
    let classes = ClassMap::new();
    let mut job = OverlapJob {
        split: Split::Train,
        classes: &classes,
    };
    let mut report = pass(&job, train, &mut sink, &config, &args.run)?;
    if !(report.interrupted || report.broken_pipe) {
        job.split = Split::Test;
        let testing = pass(&job, test, &mut sink, &config.without_header(), &args.run)?;
        report.totals += testing.totals;
        report.elapsed += testing.elapsed;
        report.interrupted = testing.interrupted;
        report.broken_pipe = testing.broken_pipe;
    }
    let leaks = report.totals.count(Status::Leak);
    let exit = conclude("overlap", report, sink, &args.run, &args.records)?;
    if !args.run.quiet {
        eprintln!(
            "batchdoku overlap: {leaks} test record{} equivalent to a training record ({} training classes)",
            if leaks == 1 { "" } else { "s" },
            classes.len()
        );
    }
    Ok(exit.or_invalid(leaks > 0))
}
