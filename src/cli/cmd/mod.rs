//! The commands, one module each, all run the same way: `run(args)` opens
//! what the command reads and writes, runs it, prints its summary and
//! returns how the run ended as an [`Exit`] (`completions` and `man` only
//! print what clap generates). The record commands (all but
//! `bench` and `generate`) share the steps below: the pipeline settings
//! ([`settings`]), the files they write ([`open_outputs`]), one pass of a
//! job ([`pass`]), and the end of a run ([`conclude`]); the one-pass
//! commands, which can be resumed (`--checkpoint`), run through
//! [`one_pass`].

mod bench;
mod canon;
mod completions;
mod dedupe;
mod generate;
mod licenses;
mod man;
mod overlap;
mod rate;
mod report;
mod score;
mod solve;
mod split;

use std::path::Path;

use anyhow::Context;

use super::run_summary::Summary;
use batchdoku_batch::plumbing::{Config, Input, Sink};
use batchdoku_batch::{self as batch, Job, Report};
use batchdoku_batch::{Column, OutputFormat, Status};

use super::args::{Command, RecordArgs, RecordCommand, RowArgs, RunArgs};
use super::checkpoint::{self, Checkpoint};
use super::exit::Exit;
use super::interrupt;
use super::io::{self, Inputs};
pub(crate) use super::say;
use super::stderr_progress::StderrProgress;

/// Runs a parsed command.
pub fn run(command: Command) -> anyhow::Result<Exit> {
    match command {
        Command::Solve(args) => solve::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Rate(args) => rate::run(&args),
        Command::Canon(args) => canon::run(&args),
        Command::Dedupe(args) => dedupe::run(&args),
        Command::Overlap(args) => overlap::run(&args),
        Command::Split(args) => split::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Completions(args) => completions::run(&args),
        Command::Man(args) => man::run(&args),
        Command::Licenses(args) => licenses::run(&args),
    }
}

/// Writes generated text to stdout; a closed stdout (`| head`) is not an
/// error.
fn print_stdout(text: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(anyhow::Error::new(e).context("writing output"))
        }
        _ => Ok(()),
    }
}

/// The pipeline settings of a record command: its `columns` (plus
/// `trailing` and the input's kept CSV columns when asked), or for
/// `--format line` only `line_column`, the one grid written. Kept columns
/// must have the same names in every input.
fn settings(
    run: &RunArgs,
    rows: &RowArgs,
    records: &RecordArgs,
    mut columns: Vec<Column>,
    line_column: Column,
    inputs: &[&[Input]],
) -> anyhow::Result<Config> {
    let format = rows.format_for(run.output.as_deref(), OutputFormat::Csv);
    let mut kept_names: Vec<String> = Vec::new();
    let mut named_by: Option<&str> = None;
    for input in inputs.iter().flat_map(|i| i.iter()) {
        let Some(names) = input.kept_names() else {
            continue;
        };
        match named_by {
            None => {
                kept_names = names.to_vec();
                named_by = Some(&input.name);
            }
            Some(first) if names != kept_names.as_slice() => anyhow::bail!(
                "{}: {} has columns ({}) unlike {first} ({})",
                records.columns_flag(),
                input.name,
                names.join(", "),
                kept_names.join(", ")
            ),
            Some(_) => {}
        }
    }
    if format == OutputFormat::Line {
        columns = vec![line_column];
    } else {
        if records.keep_trailing {
            columns.push(Column::Trailing);
        }
        let kept = u16::try_from(kept_names.len())
            .with_context(|| format!("{}: too many columns", records.columns_flag()))?;
        columns.extend((0..kept).map(Column::Kept));
    }
    Ok(Config {
        threads: run.thread_count(),
        batch_size: run.batch_size_or(RunArgs::BATCH),
        format,
        columns,
        kept_names,
        header: !rows.no_header,
        as_written: None,
    })
}

/// What a record command writes: its rows (stdout or `-o`) and, with
/// `--summary-json`, the summary.
struct Outputs {
    /// The rows.
    rows: Sink,
    /// The `--summary-json` file (a temporary file until the end).
    summary: Option<Sink>,
    /// More files of rows, kept or dropped with the rows (`split
    /// --output-dir`: one per part).
    parts: Vec<Sink>,
}

/// Opens a record command's outputs before any input is read, so that an
/// unwritable `-o` or `--summary-json` fails before any work.
fn open_outputs(run: &RunArgs, records: &RecordArgs, inputs: &[String]) -> anyhow::Result<Outputs> {
    open_outputs_at(run.output.as_deref(), records, inputs)
}

/// [`open_outputs`] with the rows going to `output` (stdout when `None`).
fn open_outputs_at(
    output: Option<&Path>,
    records: &RecordArgs,
    inputs: &[String],
) -> anyhow::Result<Outputs> {
    let rows = io::open_output(output)?;
    let summary = io::open_summary(records.summary_json.as_deref(), &rows)?;
    io::refuse_inputs_as_outputs(
        inputs,
        [Some(&rows), summary.as_ref()].into_iter().flatten(),
    )?;
    Ok(Outputs {
        rows,
        summary,
        parts: Vec::new(),
    })
}

/// A one-pass command's `--checkpoint`, with the flags of its own that
/// decide its output (by name, with their values: a checkpoint's
/// identity, see [`checkpoint::identity`]).
struct Resumable {
    /// `--checkpoint` was given.
    checkpoint: bool,
    /// The command's own flags that decide its output's bytes.
    options: Vec<(&'static str, String)>,
}

/// A record command that is one pass of `job` (`solve`, `score`, `rate`,
/// `canon`): opens its outputs and inputs, runs the pass (into a
/// checkpoint with `--checkpoint`, see [`checkpoint`]) and concludes.
/// `columns` gives the output columns once the inputs are open (their CSV
/// headers may add some); `line_column` is what `--format line` writes.
/// With `fail_on_mismatch`, exits 1 when an answer disagrees with the
/// input's expected solution.
fn one_pass<J: Job + std::fmt::Debug>(
    command: &'static str,
    job: &J,
    flags: &RecordCommand,
    resumable: Resumable,
    fail_on_mismatch: bool,
    columns: impl FnOnce(&[Input]) -> Vec<Column>,
    line_column: Column,
) -> anyhow::Result<Exit> {
    let paths = flags.inputs.paths();
    let output = flags.run.output.as_deref();
    let resume_at = if resumable.checkpoint {
        let format = flags.rows.format_for(output, OutputFormat::Csv);
        Some(checkpoint::target(output, format)?)
    } else {
        None
    };
    let mut outputs = open_outputs(&flags.run, &flags.records, &paths)?;
    let inputs = io::open_inputs(&paths, None, &flags.records)?;
    let columns = columns(&inputs.0);
    let config = settings(
        &flags.run,
        &flags.rows,
        &flags.records,
        columns,
        line_column,
        &[&inputs.0],
    )?;
    let (report, checkpoint) = match resume_at {
        None => (
            pass(job, inputs, &mut outputs.rows, &config, &flags.run)?,
            None,
        ),
        Some(at) => {
            let identity = checkpoint::identity(
                command,
                &resumable.options,
                job,
                &flags.records,
                &config,
                &paths,
            );
            let mut checkpoint = Checkpoint::open(&at, identity, flags.run.quiet)?;
            let report = checkpoint.run(job, inputs, &config, &flags.run, &mut outputs.rows)?;
            (report, Some(checkpoint))
        }
    };
    let ending = Ending {
        failed: fail_on_mismatch && report.totals.mismatches > 0,
        ..Ending::default()
    };
    let exit = conclude(command, report, outputs, &flags.run, &flags.records, ending)?;
    if let Some(checkpoint) = checkpoint {
        checkpoint.end(exit, flags.run.quiet);
    }
    Ok(exit)
}

/// The counting pass of a two-pass command (`dedupe`, `split`): `job` over
/// `inputs`, writing no rows. Gives the pass's report and the outputs for
/// the passes that write; a run that stops there (Ctrl-C, a closed
/// stdout) is concluded as `command`'s, and its exit is the `Err`.
fn counting_pass<J: Job>(
    command: &'static str,
    job: &J,
    inputs: Inputs,
    mut outputs: Outputs,
    config: &Config,
    run: &RunArgs,
    records: &RecordArgs,
) -> anyhow::Result<Result<(Report, Outputs), Exit>> {
    let counting = pass(
        job,
        inputs,
        &mut outputs.rows,
        &config.without_header(),
        run,
    )?;
    if counting.interrupted || counting.broken_pipe {
        let exit = conclude(command, counting, outputs, run, records, Ending::default())?;
        return Ok(Err(exit));
    }
    Ok(Ok((counting, outputs)))
}

/// Runs one pass of a job through the pipeline into `sink`.
fn pass<J: Job>(
    job: &J,
    (inputs, counter): Inputs,
    sink: &mut Sink,
    config: &Config,
    run: &RunArgs,
) -> anyhow::Result<Report> {
    io::refuse_binary_on_terminal(sink, config.format)?;
    let progress = StderrProgress::new(run.progress_mode());
    Ok(batch::plumbing::run(
        job,
        inputs,
        sink,
        config,
        interrupt::flag(),
        &counter,
        &progress,
    )?)
}

/// What a command adds to the end of its run beyond the common summary.
#[derive(Debug, Default)]
struct Ending {
    /// A line of the command's own counts, printed after the summary.
    note: Option<String>,
    /// Whether the command found what it reports as a failure (exit 1
    /// when the run finished), besides invalid records: `overlap`'s leaks,
    /// `solve --fail-on-mismatch`'s mismatches.
    failed: bool,
}

/// Ends a record command's run: keeps the output when the run completed,
/// prints the summary, and chooses the exit code. Both files are written
/// before either is renamed: when the summary cannot be written, nothing
/// is kept under `-o`. The command's note is printed only when the run
/// finished: after Ctrl-C or a closed stdout its counts would claim work
/// that was not done. A closed stdout (`| head`) ends the run with 0, as
/// promised: it did not finish, so it found nothing to fail on.
fn conclude(
    command: &'static str,
    report: Report,
    outputs: Outputs,
    run: &RunArgs,
    records: &RecordArgs,
    ending: Ending,
) -> anyhow::Result<Exit> {
    conclude_saying(command, report, outputs, run, records, ending, None)
}

/// [`conclude`], with the command's own summary line printed instead of
/// the common one when the run finished (`report`, which writes a page,
/// not rows).
fn conclude_saying(
    command: &'static str,
    mut report: Report,
    outputs: Outputs,
    run: &RunArgs,
    records: &RecordArgs,
    ending: Ending,
    line: Option<String>,
) -> anyhow::Result<Exit> {
    let rows = batch::plumbing::flush(outputs.rows, report.interrupted, &mut report.broken_pipe)?;
    let mut parts = Vec::with_capacity(outputs.parts.len());
    for sink in outputs.parts {
        // A part file is never stdout: no closed pipe to find here.
        parts.extend(batch::plumbing::flush(
            sink,
            report.interrupted,
            &mut false,
        )?);
    }
    let mut summary = Summary::new(command, &report.totals, report.elapsed, run.thread_count());
    summary.interrupted = report.interrupted;
    summary.broken_pipe = report.broken_pipe;
    summary.complete = !report.interrupted && !report.broken_pipe;
    let summary_file = match (records.summary_json.as_deref(), outputs.summary) {
        (Some(path), Some(sink)) => Some(io::write_summary_json(sink, path, &summary)?),
        _ => None,
    };
    let done = if report.broken_pipe {
        Exit::Ok
    } else {
        Exit::Ok.or_invalid(ending.failed || report.totals.count(Status::Invalid) > 0)
    };
    io::keep_all(rows, parts, summary_file, &mut report.interrupted, done)?;
    if !run.quiet && !report.broken_pipe {
        match line.filter(|_| !report.interrupted) {
            Some(line) => say(format_args!("{line}")),
            None => say(format_args!("{summary}")),
        }
        if let Some(note) = ending.note.filter(|_| !report.interrupted) {
            say(format_args!("{note}"));
        }
    }
    Ok(if report.interrupted {
        interrupt::exit()
    } else {
        done
    })
}
