//! Running a command: open every input, build the job and the pipeline
//! settings, run, print the summary and choose the exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context;

use batchdoku::jobs::{ScoreJob, SolveJob};
use batchdoku::output::{Column, Status, SCORE_COLUMNS, SOLVE_COLUMNS};
use batchdoku::pipeline::{self, Config, Input, Job, Sink};
use batchdoku::score::{ScoreOptions, Weights};
use batchdoku::stats::Summary;

use crate::cli::{Cli, Command, CommonArgs, SolverArg};

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
            let job = SolveJob {
                count_limit: args.count_limit,
                engine: args.solver.into(),
            };
            let mut columns = SOLVE_COLUMNS.to_vec();
            let sink = open_sink(&args.common)?;
            let inputs = open_inputs(&args.common)?;
            if inputs.0.iter().any(|i| i.records.has_expected()) {
                columns.push(Column::Expected);
            }
            if args.common.keep_trailing {
                columns.push(Column::Trailing);
            }
            stream("solve", &job, inputs, sink, &args.common, columns)
        }
        Command::Score(args) => {
            if let SolverArg::Dlx = args.solver {
                anyhow::bail!(
                    "score: the dlx engine does not support scored search; use --solver mrv"
                );
            }
            let weights = if args.weights == "target" {
                Weights::target()
            } else {
                let file =
                    std::fs::File::open(&args.weights).with_context(|| args.weights.clone())?;
                Weights::from_reader(std::io::BufReader::new(file))
                    .with_context(|| format!("{}: bad weights file", args.weights))?
            };
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
            if args.common.keep_trailing {
                columns.push(Column::Trailing);
            }
            let sink = open_sink(&args.common)?;
            let inputs = open_inputs(&args.common)?;
            stream("score", &job, inputs, sink, &args.common, columns)
        }
        Command::Bench(args) => {
            crate::bench_cmd::run(&args)?;
            Ok(ExitCode::from(EXIT_OK))
        }
    }
}

/// Opens every input before any work starts (a missing file is fatal
/// before a row is written); returns them with the shared byte counter.
fn open_inputs(common: &CommonArgs) -> anyhow::Result<(Vec<Input>, Arc<AtomicU64>)> {
    let counter = Arc::new(AtomicU64::new(0));
    let format = common.input_format.into();
    let paths = common.input_paths();
    if paths.iter().filter(|p| *p == "-").count() > 1 {
        anyhow::bail!("stdin ('-') given more than once");
    }
    let inputs = paths
        .iter()
        .map(|p| pipeline::open(p, format, counter.clone()).with_context(|| p.clone()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok((inputs, counter))
}

/// The output: stdout, or a temporary file beside `-o PATH`, created before
/// any input is read so that an unwritable destination fails at once.
fn open_sink(common: &CommonArgs) -> anyhow::Result<Sink> {
    Ok(match &common.output {
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

/// Runs a job through the pipeline and reports.
fn stream<J: Job>(
    command: &'static str,
    job: &J,
    (inputs, counter): (Vec<Input>, Arc<AtomicU64>),
    sink: Sink,
    common: &CommonArgs,
    columns: Vec<Column>,
) -> anyhow::Result<ExitCode> {
    let config = Config {
        threads: common.thread_count(),
        batch_size: common.batch_size as usize,
        format: common.format.into(),
        columns,
        header: !common.no_header,
        progress: common.progress_mode(),
    };
    let report = pipeline::run(job, inputs, sink, &config, &QUIT, &counter)?;
    let mut summary = Summary::new(command, &report.totals, report.elapsed, config.threads);
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
