//! `batchdoku overlap`: remember the training split's classes, then report
//! the test records in them. Every row names its split (`train` for an
//! invalid training record, `test` otherwise) and `index` counts records
//! within that split. Exit code 1 when any test record leaks (or any
//! record is invalid).

use batchdoku_batch::{ClassBy, ClassMap, OverlapJob, Split};
use batchdoku_batch::{Column, Status};

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::OverlapArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `overlap`.
pub fn run(args: &OverlapArgs) -> anyhow::Result<Exit> {
    if args.train == "-" && args.test == "-" {
        anyhow::bail!("overlap: TRAIN and TEST cannot both be stdin");
    }
    let both = [args.train.clone(), args.test.clone()];
    let mut outputs = open_outputs(&args.run, &args.records, &both)?;
    let train = io::open_inputs(std::slice::from_ref(&args.train), None, &args.records)?;
    let test = io::open_inputs(std::slice::from_ref(&args.test), None, &args.records)?;
    let columns = OverlapJob::COLUMNS.to_vec();
    let config = settings(
        &args.run,
        &args.rows,
        &args.records,
        columns,
        Column::Puzzle,
        &[&train.0, &test.0],
    )?;
    let classes = ClassMap::new();
    let mut job = OverlapJob {
        split: Split::Train,
        by: args.by,
        classes: &classes,
    };
    let mut report = pass(&job, train, &mut outputs.rows, &config, &args.run)?;
    let train_records = report.totals.records;
    let mut test_records = 0;
    if !(report.interrupted || report.broken_pipe) {
        job.split = Split::Test;
        let testing = pass(
            &job,
            test,
            &mut outputs.rows,
            &config.without_header(),
            &args.run,
        )?;
        test_records = testing.totals.records;
        report.totals += testing.totals;
        report.elapsed += testing.elapsed;
        report.interrupted = testing.interrupted;
        report.broken_pipe = testing.broken_pipe;
    }
    let leaks = report.totals.count(Status::Leak);
    let classes = classes.len();
    let note = format!(
        "batchdoku overlap: {train_records} train record{} ({classes} class{}), {test_records} \
         test record{}, {leaks} leak{} (test records {})",
        plural(train_records),
        if classes == 1 { "" } else { "es" },
        plural(test_records),
        plural(leaks),
        match args.by {
            ClassBy::Grid => "whose solution grid is equivalent to a training record's",
            _ => "equivalent to a training record",
        },
    );
    conclude(
        "overlap",
        report,
        outputs,
        &args.run,
        &args.records,
        Ending {
            note: Some(note),
            failed: leaks > 0,
        },
    )
}

/// `s` unless `n` is 1.
fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
