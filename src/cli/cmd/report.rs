//! `batchdoku report`: one pass that solves every puzzle counting to two
//! (with `--score`, also scores it) and writes no rows, then the corpus
//! report (HTML, JSON or Markdown) into the output, kept only when the pass
//! completed.

use anyhow::Context;

use batchdoku_batch::report::{
    self, Format, InputInfo, OptionInEffect, OptionValue, RatingSource, ReportJob, ReportOptions,
    RunFacts, RunOptions,
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
/// `er` column): CSV or JSONL inputs, or regular files when the format is
/// detected (a file whose format has no columns is opened again without).
/// Anything else (stdin, a FIFO, a device) is read for columns only with
/// `--input-format csv|jsonl`: it cannot be opened twice.
fn open_reading_ratings(
    args: &ReportArgs,
    paths: &[String],
) -> anyhow::Result<(io::Inputs, crate::cli::args::RecordArgs)> {
    let mut records = args.records.clone();
    let keyed = matches!(records.input_format, InputFormat::Csv | InputFormat::Jsonl);
    let reopenable = |p: &String| p != "-" && std::fs::metadata(p).is_ok_and(|m| m.is_file());
    let detectable = records.input_format == InputFormat::Auto && paths.iter().all(reopenable);
    if !args.rate && (keyed || detectable) {
        let given = records.input_format.as_str();
        records.want_columns(format!(
            "--input-format {given}: report reads an `er` column when there is one"
        ));
        match io::open_inputs(paths, None, &records) {
            // Inputs whose columns differ are read without them (no
            // ratings) when they can be opened again, rather than refused.
            Ok(inputs) if same_columns(&inputs.0) || !paths.iter().all(reopenable) => {
                return Ok((inputs, records))
            }
            Err(e) if keyed => return Err(e),
            Ok(_) | Err(_) => {
                records.keep_columns = false;
                records.columns_wanted_by = None;
            }
        }
    }
    Ok((io::open_inputs(paths, None, &records)?, records))
}

/// The options `report` takes that only change what the terminal shows,
/// never the page: left out of the options in effect.
const TERMINAL_ONLY: [&str; 2] = ["quiet", "progress"];

/// The options in effect: every option `report` defines (read from its
/// command-line definition, so none can be forgotten), in the order of its
/// `--help`, but [`TERMINAL_ONLY`], the hidden ones (refused by report)
/// and the inputs; each with its value on the command line (or its
/// default), or the value the run `computed` for it (the page format, the
/// thread count, the batch size, the rating budget).
fn options_in_effect(computed: &[(&str, OptionValue)]) -> RunOptions {
    use clap::{ArgAction, CommandFactory};
    let mut cli = crate::cli::args::Cli::command();
    // The command line parsed once already; parsed again here for the
    // values as clap holds them (defaults included), by argument id.
    let matches = cli.try_get_matches_from_mut(std::env::args_os()).ok();
    let matches = matches
        .as_ref()
        .and_then(|m| m.subcommand_matches("report"));
    let report = cli
        .find_subcommand("report")
        .expect("report is a subcommand");
    // clap's own --help and --version are actions, not options.
    let option = |a: &&clap::Arg| {
        !a.is_positional()
            && !a.is_hide_set()
            && !TERMINAL_ONLY.contains(&a.get_id().as_str())
            && !matches!(
                a.get_action(),
                ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
            )
    };
    let options = report
        .get_arguments()
        .filter(option)
        .filter_map(|a| {
            let id = a.get_id().as_str();
            let long = a.get_long()?;
            let flag = a
                .get_short()
                .map_or_else(|| format!("--{long}"), |c| format!("-{c}"));
            let value = match computed.iter().find(|(k, _)| *k == id) {
                Some((_, v)) => v.clone(),
                None if !a.get_action().takes_values() => OptionValue::Switch(
                    matches
                        .and_then(|m| m.try_get_one::<bool>(id).ok().flatten())
                        .is_some_and(|on| *on),
                ),
                None => match matches.and_then(|m| m.get_raw(id)) {
                    Some(raw) => OptionValue::Text(
                        raw.map(|v| v.to_string_lossy().into_owned())
                            .collect::<Vec<_>>()
                            .join(","),
                    ),
                    None => OptionValue::Unset,
                },
            };
            Some(OptionInEffect {
                key: long.replace('-', "_"),
                flag,
                value,
            })
        })
        .collect();
    RunOptions(options)
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
    let audit = inputs.0.iter().any(|i| i.has_expected());
    // Each input's bytes and checksum, tallied as the pass reads them.
    let tallies: Vec<_> = inputs
        .0
        .iter()
        .map(|i| (i.name.clone(), i.tally()))
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
    let limit = args.limit.unwrap_or(RateJob::DEFAULT_LIMIT);
    // What the run computed rather than read off the command line.
    let options = options_in_effect(&[
        ("format", OptionValue::Text(format.name().to_string())),
        ("output", OptionValue::Text(output.clone())),
        ("threads", OptionValue::Number(config.threads as u64)),
        ("batch_size", OptionValue::Number(config.batch_size as u64)),
        (
            "limit",
            if args.rate {
                OptionValue::Number(limit)
            } else {
                OptionValue::Unset
            },
        ),
    ]);
    let ratings = if args.rate {
        Some(RatingSource::Rate(RateJob {
            limit,
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
            audit,
        },
        config.threads,
    );
    let mut ran = pass(&job, inputs, &mut outputs.rows, &config, &args.run)?;
    let mut line = None;
    if !(ran.interrupted || ran.broken_pipe) {
        let inputs = tallies
            .iter()
            .map(|(name, tally)| InputInfo {
                name: name.to_string(),
                bytes: tally.bytes(),
                xxh3_64: tally.xxh3_64(),
            })
            .collect();
        let facts = RunFacts {
            inputs,
            elapsed: ran.elapsed,
            threads: config.threads,
            date_utc: report::utc(std::time::SystemTime::now()),
            command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            options,
            version: env!("CARGO_PKG_VERSION"),
            commit: env!("BATCHDOKU_COMMIT"),
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
