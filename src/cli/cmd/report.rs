//! `batchdoku report`: one pass that solves every puzzle counting to two
//! (with `--score`, also scores it) and writes no rows, then the corpus
//! report (HTML, JSON or Markdown) into the output, kept only when the pass
//! completed.

use std::sync::atomic::Ordering;

use anyhow::Context;

use crate::cli::report::{
    self, Format, InputInfo, RatingSource, ReportJob, ReportOptions, RunFacts, RunOptions,
};
use batchdoku_batch::{Column, RateJob, Status, Totals};
use batchdoku_core::InputFormat;

use super::{conclude_saying, open_outputs, pass, settings, Ending};
use crate::cli::args::{ReportArgs, RowArgs, RunArgs};
use crate::cli::exit::Exit;
use crate::cli::io;

/// The record flags that shape rows, which a report does not write: each
/// is refused rather than silently ignored.
fn refuse_row_flags(args: &ReportArgs) -> anyhow::Result<()> {
    for (given, flag) in [
        (args.records.keep_columns, "--keep-columns"),
        (args.records.keep_trailing, "--keep-trailing"),
    ] {
        if given {
            anyhow::bail!("{flag} does nothing for report: it writes a page, not rows");
        }
    }
    Ok(())
}

/// Opens the inputs, keeping their columns when they may hold ratings (an
/// `er` column): CSV or JSONL inputs, or any files when the format is
/// detected (a file whose format has no columns is opened again without).
/// Standard input is read for columns only with `--input-format csv|jsonl`:
/// it cannot be opened twice.
fn open_reading_ratings(
    args: &ReportArgs,
    paths: &[String],
) -> anyhow::Result<(io::Inputs, crate::cli::args::RecordArgs)> {
    let mut records = args.records.clone();
    let keyed = matches!(records.input_format, InputFormat::Csv | InputFormat::Jsonl);
    let detectable = records.input_format == InputFormat::Auto && !paths.iter().any(|p| p == "-");
    if !args.rate && (keyed || detectable) {
        records.keep_columns = true;
        match io::open_inputs(paths, None, &records) {
            // Inputs whose columns differ are read without them (no
            // ratings) when they can be opened again, rather than refused.
            Ok(inputs) if same_columns(&inputs.0) || paths.iter().any(|p| p == "-") => {
                return Ok((inputs, records))
            }
            Ok(_) => records.keep_columns = false,
            Err(e) if keyed => return Err(e),
            Err(_) => records.keep_columns = false,
        }
    }
    Ok((io::open_inputs(paths, None, &records)?, records))
}

/// Whether every input that has columns has the same ones.
fn same_columns(inputs: &[batchdoku_batch::plumbing::Input]) -> bool {
    let mut named = inputs.iter().filter_map(|i| i.kept_names());
    let first = named.next();
    named.all(|n| Some(n) == first)
}

/// Runs `report`.
pub fn run(args: &ReportArgs) -> anyhow::Result<Exit> {
    if args.rate {
        RateJob::available().map_err(|why| anyhow::anyhow!("report --rate: {why}"))?;
    }
    refuse_row_flags(args)?;
    let format = match (args.format, &args.run.output) {
        (Some(f), _) => f.into(),
        (None, None) => Format::Markdown,
        (None, Some(path)) if path.as_os_str() == "-" => Format::Markdown,
        (None, Some(path)) => Format::from_path(path).with_context(|| {
            format!(
                "{}: cannot tell the format from the extension; give --format html|json|markdown",
                path.display()
            )
        })?,
    };
    let score = match &args.score {
        Some(spec) => Some((spec.clone(), io::load_weights(spec)?)),
        None => None,
    };
    let paths = args.inputs.paths();
    let mut outputs = open_outputs(&args.run, &args.records, &paths)?;
    let (inputs, records) = open_reading_ratings(args, &paths)?;
    let bytes_read = inputs.1.clone();
    let mut info: Vec<InputInfo> = inputs
        .0
        .iter()
        .map(|i| InputInfo {
            name: i.name.to_string(),
            bytes: i.size,
            bytes_read: None,
            xxh3_64: None,
        })
        .collect();
    // The pass writes no rows: no header, no columns.
    let rows = RowArgs {
        format: Some(batchdoku_batch::OutputFormat::Csv),
        no_header: true,
    };
    let mut config = settings(
        &args.run,
        &rows,
        &records,
        Vec::new(),
        Column::Solution,
        &[&inputs.0],
    )?;
    if args.rate && args.run.batch_size.is_none() {
        config.batch_size = RunArgs::RATE_BATCH as usize;
    }
    let output = args
        .run
        .output
        .as_ref()
        .map_or_else(|| "-".to_string(), |p| p.display().to_string());
    let options = RunOptions {
        format: format.name(),
        output: output.clone(),
        input_format: args.records.input_format.as_str().to_string(),
        column: args.records.column.clone(),
        classes: args.classes,
        score: args.score.clone(),
        rate: args.rate,
        batch_size: config.batch_size,
    };
    let ratings = if args.rate {
        Some(RatingSource::Rate(RateJob {
            limit: args.limit.unwrap_or(RateJob::DEFAULT_LIMIT),
            ..RateJob::default()
        }))
    } else {
        RatingSource::from_columns(&config.kept_names)
    };
    let job = ReportJob::new(
        ReportOptions {
            classes: args.classes,
            score,
            ratings,
        },
        config.threads,
    );
    let mut ran = pass(&job, inputs, &mut outputs.rows, &config, &args.run)?;
    let mut line = None;
    if !(ran.interrupted || ran.broken_pipe) {
        report::complete_inputs(&mut info, &paths, bytes_read.load(Ordering::Relaxed));
        let facts = RunFacts {
            inputs: info,
            elapsed: ran.elapsed,
            threads: config.threads,
            date_utc: report::utc(std::time::SystemTime::now()),
            command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            options,
        };
        let page = report::render(&job.finish(facts), format);
        match outputs.rows.write_all(page.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ran.broken_pipe = true,
            other => other.context("writing the report")?,
        }
        let target = if output == "-" {
            "stdout".to_string()
        } else {
            output
        };
        line = Some(summary_line(
            &ran.totals,
            ran.elapsed,
            config.threads,
            format,
            &target,
            page.len(),
        ));
    }
    conclude_saying(
        "report",
        ran,
        outputs,
        &args.run,
        &args.records,
        Ending::default(),
        line,
    )
}

/// What `report` says on stderr when it finished: the records by status,
/// the time, and the page it wrote (a report writes no rows).
fn summary_line(
    totals: &Totals,
    elapsed: std::time::Duration,
    threads: usize,
    format: Format,
    target: &str,
    bytes: usize,
) -> String {
    let statuses: Vec<String> = Status::ALL
        .iter()
        .filter(|&&s| totals.count(s) > 0)
        .map(|&s| format!("{} {}", s.as_str(), totals.count(s)))
        .collect();
    let statuses = if statuses.is_empty() {
        String::new()
    } else {
        format!(" ({})", statuses.join(", "))
    };
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        totals.records as f64 / secs
    } else {
        0.0
    };
    format!(
        "batchdoku report: {} records{statuses} in {secs:.2} s, {rate:.0} puzzles/s, {threads} thread{}; {} written to {target} ({bytes} bytes)",
        totals.records,
        if threads == 1 { "" } else { "s" },
        format.page_name(),
    )
}
