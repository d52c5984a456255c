//! Running a command: open every input, build the job and the pipeline
//! settings, run, print the summary and choose the exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use tempfile::NamedTempFile;

use batchdoku::jobs::{
    CanonJob, ClassMap, DedupeJob, Equivalence, OverlapJob, Pass, ScoreJob, SolveJob, Split,
};
use batchdoku::output::{
    Column, OutputFormat, Status, CANON_COLUMNS, DEDUPE_COLUMNS, OVERLAP_COLUMNS, SCORE_COLUMNS,
    SOLVE_COLUMNS,
};
use batchdoku::parse::ReadOptions;
use batchdoku::pipeline::{self, Config, Input, Job, Report, Sink};
use batchdoku::score::{ScoreOptions, Weights};
use batchdoku::stats::Summary;

use crate::cli::{Cli, Command, CommonArgs, DedupeArgs, OverlapArgs, ReportArgs, SolverArg};

/// Every record processed, none invalid.
pub const EXIT_OK: u8 = 0;
/// Processed, some records invalid.
pub const EXIT_INVALID: u8 = 1;
/// Usage, unreadable input, unwritable output.
pub const EXIT_FATAL: u8 = 2;
/// Interrupted (Ctrl-C).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Raised by the first Ctrl-C; the pipeline stops at the next batch.
static QUIT: AtomicBool = AtomicBool::new(false);
/// The temporary output file, removed by a second Ctrl-C that exits at once.
static TEMP_OUTPUT: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Installs the Ctrl-C handler: the first press asks the pipeline to stop
/// (it removes its temporary file and exits 130); a second press exits at
/// once, removing the temporary file itself.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if QUIT.swap(true, Ordering::SeqCst) {
            if let Ok(guard) = TEMP_OUTPUT.lock() {
                if let Some(path) = guard.as_ref() {
                    let _ = std::fs::remove_file(path);
                }
            }
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
    });
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => {
            if args.rate && matches!(args.solver, SolverArg::Dlx) {
                anyhow::bail!(
                    "solve: --rate counts the mrv search; it cannot be used with --solver dlx"
                );
            }
            let job = SolveJob {
                count_limit: args.count_limit,
                engine: args.solver.into(),
                rate: args.rate,
            };
            let mut sink = open_sink(&args.common)?;
            let inputs = open_inputs(&args.inputs.paths(), None, &args.common)?;
            let mut columns = SOLVE_COLUMNS.to_vec();
            if args.rate {
                let at = columns
                    .iter()
                    .position(|&c| c == Column::Guesses)
                    .map_or(0, |i| i + 1);
                columns.splice(at..at, [Column::Backtracks, Column::Singles]);
            }
            if inputs.0.iter().any(|i| i.records.has_expected()) {
                columns.push(Column::Expected);
            }
            let config = settings(&args.common, columns, Column::Solution, &[&inputs.0])?;
            let report = pass(&job, inputs, &mut sink, &config)?;
            conclude("solve", report, sink, &args.common)
        }
        Command::Score(args) => {
            if let SolverArg::Dlx = args.solver {
                anyhow::bail!(
                    "score: the dlx engine does not support scored search; use --solver mrv"
                );
            }
            let weights = load_weights(&args.weights)?;
            let job = ScoreJob {
                weights,
                options: ScoreOptions {
                    node_limit: args.node_limit,
                    count_solutions: args.count,
                    prune: true,
                },
            };
            let mut columns = SCORE_COLUMNS.to_vec();
            if args.count {
                columns.push(Column::Solutions);
            }
            let mut sink = open_sink(&args.common)?;
            let inputs = open_inputs(&args.inputs.paths(), None, &args.common)?;
            let config = settings(&args.common, columns, Column::Solution, &[&inputs.0])?;
            let report = pass(&job, inputs, &mut sink, &config)?;
            conclude("score", report, sink, &args.common)
        }
        Command::Canon(args) => {
            let mut sink = open_sink(&args.common)?;
            let inputs = open_inputs(&args.inputs.paths(), None, &args.common)?;
            let columns = CANON_COLUMNS.to_vec();
            let config = settings(&args.common, columns, Column::Canonical, &[&inputs.0])?;
            let report = pass(&CanonJob, inputs, &mut sink, &config)?;
            conclude("canon", report, sink, &args.common)
        }
        Command::Dedupe(args) => dedupe(&args),
        Command::Overlap(args) => overlap(&args),
        Command::Bench(args) => {
            crate::bench_cmd::run(&args)?;
            Ok(ExitCode::from(EXIT_OK))
        }
        Command::Generate(args) => crate::generate_cmd::run(&args, &QUIT),
        Command::Report(args) => report(&args),
    }
}

/// `--weights` / `--score`: `target` or a weights file.
fn load_weights(spec: &str) -> anyhow::Result<Weights> {
    if spec == "target" {
        return Ok(Weights::target());
    }
    let file = std::fs::File::open(spec).with_context(|| spec.to_string())?;
    Weights::from_reader(std::io::BufReader::new(file))
        .with_context(|| format!("{spec}: bad weights file"))
}

/// `report`: one pass that writes no rows, then the report into the
/// output (kept only when the pass completed).
fn report(args: &ReportArgs) -> anyhow::Result<ExitCode> {
    use batchdoku::report::{self, Format, InputInfo, ReportJob, ReportOptions};
    let common = args.common();
    let format = match (args.format, &common.output) {
        (Some(f), _) => f.into(),
        (None, None) => Format::Markdown,
        (None, Some(path)) => Format::from_path(path).with_context(|| {
            format!(
                "{}: cannot tell the format from the extension; give --format html|json|markdown",
                path.display()
            )
        })?,
    };
    let score = match &args.score {
        Some(spec) => Some((spec.clone(), load_weights(spec)?)),
        None => None,
    };
    let mut sink = open_sink(&common)?;
    let inputs = open_inputs(&args.inputs.paths(), None, &common)?;
    let info = inputs
        .0
        .iter()
        .map(|i| InputInfo {
            name: i.name.to_string(),
            bytes: i.size,
        })
        .collect();
    let config = settings(&common, Vec::new(), Column::Solution, &[&inputs.0])?;
    let options = ReportOptions {
        classes: args.classes,
        score,
    };
    let job = ReportJob::new(options, config.threads);
    let mut run = pass(&job, inputs, &mut sink, &config)?;
    if !(run.interrupted || run.broken_pipe) {
        let page = report::render(&job.finish(info, run.elapsed, config.threads), format);
        match sink.write_all(page.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => run.broken_pipe = true,
            other => other.context("writing the report")?,
        }
    }
    conclude("report", run, sink, &common)
}

/// `dedupe`: a counting pass, then a pass that writes each class's first
/// record. Standard input is spooled to a temporary file so that it can be
/// read twice.
fn dedupe(args: &DedupeArgs) -> anyhow::Result<ExitCode> {
    let mut sink = open_sink(&args.common)?;
    let paths = args.inputs.paths();
    let spool = spool_stdin(&paths)?;
    let equivalence = if args.exact {
        Equivalence::Exact
    } else {
        Equivalence::Class
    };
    let mut columns = DEDUPE_COLUMNS.to_vec();
    if args.exact {
        columns.retain(|&c| c != Column::Canonical);
    }
    let classes = ClassMap::new();
    let mut job = DedupeJob {
        equivalence,
        pass: Pass::Count,
        classes: &classes,
    };
    let inputs = open_inputs(&paths, spool.as_ref(), &args.common)?;
    let config = settings(&args.common, columns, Column::Puzzle, &[&inputs.0])?;
    let counting = pass(&job, inputs, &mut sink, &config.without_header())?;
    if counting.interrupted || counting.broken_pipe {
        return conclude("dedupe", counting, sink, &args.common);
    }
    job.pass = Pass::Emit;
    let inputs = open_inputs(&paths, spool.as_ref(), &args.common)?;
    let mut report = pass(&job, inputs, &mut sink, &config)?;
    report.elapsed += counting.elapsed;
    let kept = report.totals.count(Status::Ok);
    let dropped = report.totals.count(Status::Duplicate);
    let code = conclude("dedupe", report, sink, &args.common)?;
    if !args.common.quiet {
        eprintln!("batchdoku dedupe: {kept} classes kept, {dropped} duplicates dropped");
    }
    Ok(code)
}

/// `overlap`: remember the training classes, then report the test records
/// in them. Exit code 1 when any test record leaks (or any is invalid).
fn overlap(args: &OverlapArgs) -> anyhow::Result<ExitCode> {
    if args.train == "-" && args.test == "-" {
        anyhow::bail!("overlap: TRAIN and TEST cannot both be stdin");
    }
    let mut sink = open_sink(&args.common)?;
    let train = open_inputs(std::slice::from_ref(&args.train), None, &args.common)?;
    let test = open_inputs(std::slice::from_ref(&args.test), None, &args.common)?;
    let columns = OVERLAP_COLUMNS.to_vec();
    let config = settings(&args.common, columns, Column::Puzzle, &[&train.0, &test.0])?;
    let classes = ClassMap::new();
    let mut job = OverlapJob {
        split: Split::Train,
        classes: &classes,
    };
    let mut report = pass(&job, train, &mut sink, &config)?;
    if !(report.interrupted || report.broken_pipe) {
        job.split = Split::Test;
        let testing = pass(&job, test, &mut sink, &config.without_header())?;
        report.totals += testing.totals;
        report.elapsed += testing.elapsed;
        report.interrupted = testing.interrupted;
        report.broken_pipe = testing.broken_pipe;
    }
    let leaks = report.totals.count(Status::Leak);
    let code = conclude("overlap", report, sink, &args.common)?;
    if !args.common.quiet {
        eprintln!(
            "batchdoku overlap: {leaks} test record{} equivalent to a training record ({} training classes)",
            if leaks == 1 { "" } else { "s" },
            classes.len()
        );
    }
    Ok(if code == ExitCode::from(EXIT_OK) && leaks > 0 {
        ExitCode::from(EXIT_INVALID)
    } else {
        code
    })
}

/// Copies stdin to a temporary file when it is among `paths`, so that a
/// command can read it twice (the file is removed when dropped).
fn spool_stdin(paths: &[String]) -> anyhow::Result<Option<NamedTempFile>> {
    if !paths.iter().any(|p| p == "-") {
        return Ok(None);
    }
    let mut spool = NamedTempFile::new().context("creating a temporary file for stdin")?;
    std::io::copy(&mut std::io::stdin().lock(), spool.as_file_mut())
        .context("copying stdin to a temporary file")?;
    Ok(Some(spool))
}

/// Opens every input before any work starts (a missing file is fatal
/// before a row is written); returns them with the shared byte counter.
/// `-` is stdin, or its copy in `spool` when stdin was spooled.
fn open_inputs(
    paths: &[String],
    spool: Option<&NamedTempFile>,
    common: &CommonArgs,
) -> anyhow::Result<(Vec<Input>, Arc<AtomicU64>)> {
    let counter = Arc::new(AtomicU64::new(0));
    let options = ReadOptions {
        format: common.input_format.into(),
        column: common.column.clone(),
        keep_columns: common.keep_columns,
    };
    if paths.iter().filter(|p| *p == "-").count() > 1 {
        anyhow::bail!("stdin ('-') given more than once");
    }
    let inputs = paths
        .iter()
        .map(|p| match spool {
            Some(spool) if p == "-" => {
                pipeline::open_as(spool.path(), "<stdin>", &options, counter.clone())
                    .context("<stdin> (spooled copy)")
            }
            _ => pipeline::open(p, &options, counter.clone()).with_context(|| p.clone()),
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((inputs, counter))
}

/// The output: stdout, or a temporary file beside `-o PATH`, created before
/// any input is read so that an unwritable destination fails at once.
fn open_sink(common: &CommonArgs) -> anyhow::Result<Sink> {
    open_output(common.output.as_deref())
}

/// [`open_sink`] for a command without [`CommonArgs`]: stdout for `None`.
pub fn open_output(output: Option<&Path>) -> anyhow::Result<Sink> {
    Ok(match output {
        None => Sink::stdout(),
        Some(path) => {
            let sink =
                Sink::file(path).with_context(|| format!("{}: cannot write", path.display()))?;
            if let Sink::File { tmp, .. } = &sink {
                if let Ok(mut guard) = TEMP_OUTPUT.lock() {
                    *guard = Some(tmp.get_ref().path().to_path_buf());
                }
            }
            sink
        }
    })
}

/// The pipeline settings of a command: its `columns` (plus `trailing` and
/// the input's kept CSV columns when asked), or for `--format line` only
/// `line_column`, the one grid written. Kept columns must have the same
/// names in every input.
fn settings(
    common: &CommonArgs,
    mut columns: Vec<Column>,
    line_column: Column,
    inputs: &[&[Input]],
) -> anyhow::Result<Config> {
    let format: OutputFormat = common.format.into();
    let mut kept_names: Vec<String> = Vec::new();
    let mut named_by: Option<&str> = None;
    for input in inputs.iter().flat_map(|i| i.iter()) {
        let Some(names) = input.records.kept_names() else {
            continue;
        };
        match named_by {
            None => {
                kept_names = names.to_vec();
                named_by = Some(&input.name);
            }
            Some(first) if names != kept_names.as_slice() => anyhow::bail!(
                "--keep-columns: {} has columns ({}) unlike {first} ({})",
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
        if common.keep_trailing {
            columns.push(Column::Trailing);
        }
        let kept = u16::try_from(kept_names.len()).context("--keep-columns: too many columns")?;
        columns.extend((0..kept).map(Column::Kept));
    }
    Ok(Config {
        threads: common.thread_count(),
        batch_size: common.batch_size as usize,
        format,
        columns,
        kept_names,
        header: !common.no_header,
        progress: common.progress_mode(),
    })
}

/// Runs one pass of a job through the pipeline into `sink`.
fn pass<J: Job>(
    job: &J,
    (inputs, counter): (Vec<Input>, Arc<AtomicU64>),
    sink: &mut Sink,
    config: &Config,
) -> anyhow::Result<Report> {
    Ok(pipeline::run(job, inputs, sink, config, &QUIT, &counter)?)
}

/// Ends a run: keeps the output when the run completed, prints the
/// summary, and chooses the exit code.
fn conclude(
    command: &'static str,
    mut report: Report,
    sink: Sink,
    common: &CommonArgs,
) -> anyhow::Result<ExitCode> {
    pipeline::finish(sink, &mut report)?;
    let mut summary = Summary::new(
        command,
        &report.totals,
        report.elapsed,
        common.thread_count(),
    );
    summary.interrupted = report.interrupted;
    if !common.quiet && !report.broken_pipe {
        eprintln!("{summary}");
    }
    if let Some(path) = &common.summary_json {
        write_summary_json(path, &summary)?;
    }
    Ok(ExitCode::from(if report.interrupted {
        EXIT_INTERRUPTED
    } else if report.totals.count(Status::Invalid) > 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    }))
}

fn write_summary_json(path: &Path, summary: &Summary) -> anyhow::Result<()> {
    let mut sink = Sink::file(path).with_context(|| format!("{}: cannot write", path.display()))?;
    let mut text = serde_json::to_vec_pretty(summary)?;
    text.push(b'\n');
    sink.write_all(&text)
        .and_then(|()| sink.finish())
        .with_context(|| format!("{}: cannot write", path.display()))
}
