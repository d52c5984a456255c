//! `batchdoku dedupe`: a counting pass, then a pass that writes each
//! class's first record. Inputs that cannot be reopened (stdin, pipes) are
//! spooled to temporary files so that they can be read twice.

use batchdoku_batch::{ClassMap, DedupeJob, Equivalence, Pass};
use batchdoku_batch::{Column, Status};

use super::{conclude, counting_pass, open_outputs, pass, settings, Ending};
use crate::cli::args::DedupeArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `dedupe`.
pub fn run(args: &DedupeArgs) -> anyhow::Result<Exit> {
    let paths = args.common.inputs.paths();
    let outputs = open_outputs(&args.common.run, &args.common.records, &paths)?;
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
    let inputs = io::open_inputs(&paths, Some(&reopenable), &args.common.records)?;
    let config = settings(
        &args.common.run,
        &args.common.rows,
        &args.common.records,
        columns,
        Column::Puzzle,
        &[&inputs.0],
    )?;
    let counted = counting_pass(
        "dedupe",
        &job,
        inputs,
        outputs,
        &config,
        &args.common.run,
        &args.common.records,
    )?;
    let (counting, mut outputs) = match counted {
        Ok(counted) => counted,
        Err(exit) => return Ok(exit),
    };
    job.pass = Pass::Emit;
    let inputs = io::open_inputs(&paths, Some(&reopenable), &args.common.records)?;
    let mut report = pass(&job, inputs, &mut outputs.rows, &config, &args.common.run)?;
    io::check_unchanged(&reopenable)?;
    report.elapsed += counting.elapsed;
    let kept = report.totals.count(Status::Ok);
    let dropped = report.totals.count(Status::Duplicate);
    let note = format!("batchdoku dedupe: {kept} classes kept, {dropped} duplicates dropped");
    conclude(
        "dedupe",
        report,
        outputs,
        &args.common.run,
        &args.common.records,
        Ending {
            note: Some(note),
            failed: false,
        },
    )
}
