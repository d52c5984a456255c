//! `batchdoku dedupe`: a counting pass, then a pass that writes each
//! class's first record. Inputs that cannot be reopened (stdin, pipes) are
//! spooled to temporary files so that they can be read twice.

use anyhow::Context;

use batchdoku::batch::{ClassMap, DedupeJob, Equivalence, Pass};
use batchdoku::batch::{Column, Status};

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::DedupeArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `dedupe`.
pub fn run(args: &DedupeArgs) -> anyhow::Result<Exit> {
    let paths = args.inputs.paths();
    let mut outputs = open_outputs(&args.run, &args.records, &paths)?;
    let reopenable = io::reopenable(&paths)?;
    let equivalence = if args.exact {
        Equivalence::Exact
    } else {
        Equivalence::Class
    };
    let mut columns = DedupeJob::COLUMNS.to_vec();
    if args.exact {
        columns.retain(|&c| c != Column::Canonical);
    }
    let classes = ClassMap::new();
    let mut job = DedupeJob {
        equivalence,
        pass: Pass::Count,
        classes: &classes,
    };
    let inputs = io::open_inputs(&paths, Some(&reopenable), &args.records)?;
    let config = settings(
        &args.run,
        &args.rows,
        &args.records,
        columns,
        Column::Puzzle,
        &[&inputs.0],
    )?;
    let counting = pass(
        &job,
        inputs,
        &mut outputs.rows,
        &config.without_header(),
        &args.run,
    )?;
    if counting.interrupted || counting.broken_pipe {
        return conclude(
            "dedupe",
            counting,
            outputs,
            &args.run,
            &args.records,
            Ending::default(),
        );
    }
    job.pass = Pass::Emit;
    let inputs = io::open_inputs(&paths, Some(&reopenable), &args.records)?;
    let mut report = pass(&job, inputs, &mut outputs.rows, &config, &args.run)?;
    for input in &reopenable {
        input
            .check_unchanged()
            .with_context(|| input.name().to_owned())?;
    }
    report.elapsed += counting.elapsed;
    let kept = report.totals.count(Status::Ok);
    let dropped = report.totals.count(Status::Duplicate);
    let note = format!("batchdoku dedupe: {kept} classes kept, {dropped} duplicates dropped");
    conclude(
        "dedupe",
        report,
        outputs,
        &args.run,
        &args.records,
        Ending {
            note: Some(note),
            failed: false,
        },
    )
}
