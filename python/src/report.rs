//! `report`, with the CLI's figures: the library's [`ReportJob`] over a
//! file through the same streaming pass as `batchdoku report` (the same
//! reader, columns and audit), or over puzzles in memory through the
//! package's [`run_job`]; the figures come back as the CLI's JSON report,
//! and the page (HTML, Markdown or JSON) is written where asked.

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Instant;

use batchdoku_batch::plumbing::{self, Config, Input, Sink};
use batchdoku_batch::report::{
    render, utc, Format, InputInfo, OptionInEffect, OptionValue, RatingSource, ReportJob,
    ReportOptions, RunFacts, RunOptions,
};
use batchdoku_batch::{Job, OutputFormat, RateJob};
use batchdoku_core::{InputFormat, ReadOptions};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;

use crate::input::Puzzles;
use crate::run::{interruptible, run_job, CHUNK};
use crate::split::{is_path, path_text};
use crate::{at_least_one, file_error, threads_arg, weights_arg};

/// Records per batch of a file's pass, as the CLI's (`--batch-size`): 2048,
/// 16 when rating (a few keep every thread busy).
fn batch_size(rate: bool) -> usize {
    if rate {
        16
    } else {
        2048
    }
}

/// A file's pass, as `batchdoku report`'s: its columns read when it may
/// hold ratings (an `er` column) and the report does not rate; the audit
/// when it has a solution column. Returns the job, once the pass is over,
/// and what the report says of the input.
fn report_file(
    py: Python<'_>,
    path: &str,
    read: ReadOptions,
    mut options: ReportOptions,
    threads: usize,
) -> PyResult<(ReportJob, Vec<InputInfo>, std::time::Duration)> {
    let counter = Arc::new(AtomicU64::new(0));
    // As the CLI: a CSV or JSON lines input, or a regular file whose format
    // is detected, is opened for its columns; a file without columns is
    // opened again without.
    let keyed = matches!(read.format, InputFormat::Csv | InputFormat::Jsonl);
    let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let detectable = read.format == InputFormat::Auto && regular;
    let open = |keep_columns: bool| {
        let read = ReadOptions {
            keep_columns,
            ..read.clone()
        };
        Input::open(path, &read, counter.clone())
    };
    let rated = options.ratings.is_some();
    let input = match (!rated && (keyed || detectable)).then(|| open(true)) {
        Some(Ok(input)) => input,
        Some(Err(e)) if keyed => return Err(file_error(path, &e)),
        _ => open(false).map_err(|e| file_error(path, &e))?,
    };
    options.audit = input.has_expected();
    if !rated {
        options.ratings = RatingSource::from_columns(input.kept_names().unwrap_or_default());
    }
    let tally = input.tally();
    let name = input.name.to_string();
    let config = Config {
        threads,
        batch_size: batch_size(rated),
        format: OutputFormat::Csv,
        columns: Vec::new(),
        kept_names: input.kept_names().unwrap_or_default().to_vec(),
        header: false,
        as_written: None,
    };
    let job = ReportJob::new(options, threads);
    let stop = AtomicBool::new(false);
    let ran = interruptible(py, &stop, || {
        // A report writes no rows: its sink takes none.
        let mut sink = Sink::writer(Box::new(std::io::sink()));
        plumbing::run(&job, vec![input], &mut sink, &config, &stop, &counter, &())
    })?;
    let ran = ran.map_err(|e| PyRuntimeError::new_err(format!("report: {e}")))?;
    let inputs = vec![InputInfo {
        name,
        bytes: tally.bytes(),
        xxh3_64: tally.xxh3_64(),
    }];
    Ok((job, inputs, ran.elapsed))
}

/// The page format: `format` when given, else the one `output`'s
/// extension names (as the CLI's `report -o`), else JSON.
fn page_format(format: Option<&str>, output: Option<&std::path::Path>) -> PyResult<Format> {
    let named = |name: &str| match name {
        "html" => Ok(Format::Html),
        "json" => Ok(Format::Json),
        "markdown" => Ok(Format::Markdown),
        other => Err(PyValueError::new_err(format!(
            "format must be 'html', 'json' or 'markdown', got {other:?}"
        ))),
    };
    match (format, output) {
        (Some(name), _) => named(name),
        (None, Some(path)) => Format::from_path(path).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{}: cannot tell the format from the extension; give format='html', 'json' or \
                 'markdown'",
                path.display()
            ))
        }),
        (None, None) => Ok(Format::Json),
    }
}

/// The figures of a corpus report: the CLI's ``batchdoku report``, the same numbers as its
/// ``--format json`` for the same input.
///
/// ``data`` is puzzles (as :func:`solve` takes them) or the path of a file (``str`` or
/// ``os.PathLike``), read as the CLI reads it (``input_format``, ``column``): a file's solution
/// column is audited and its ``er`` column (and ``status``) gives the ER distribution, as the
/// CLI's. ``classes`` (``--classes``) counts equivalence classes and exact repeats; ``score``
/// (``--score``) scores each puzzle with weights (as :func:`score` takes them); ``rate``
/// (``--rate``) rates each puzzle (Sudoku Explainer's ER), ``limit`` (``--limit``) being the
/// work budget per puzzle. Returns the report as a dict (the JSON the CLI writes: ``records``,
/// ``givens``, ``guesses``, ``classes``, ``ratings``, ``run``, ...); with ``output`` (a path)
/// also writes the page there, in ``format`` (``"html"``, ``"markdown"`` or ``"json"``; by
/// default the one ``output``'s extension names, as the CLI's ``-o``). The ``run`` entry says
/// how it was made: the file's bytes and XXH3-64 (no inputs for puzzles in memory), the
/// threads, the time, the date, ``sys.argv`` and these arguments.
#[pyfunction]
#[pyo3(signature = (
    data, classes = false, score = None, rate = false, limit = None, threads = None,
    output = None, format = None, input_format = "auto", column = None
))]
#[allow(clippy::too_many_arguments)]
pub fn report<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    classes: bool,
    score: Option<&Bound<'py, PyAny>>,
    rate: bool,
    limit: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    output: Option<std::path::PathBuf>,
    format: Option<&str>,
    input_format: &str,
    column: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    if rate {
        RateJob::available().map_err(|why| PyRuntimeError::new_err(format!("report: {why}")))?;
    }
    let page = page_format(format, output.as_deref())?;
    let limit = limit
        .map(|k| at_least_one(k, "limit"))
        .transpose()?
        .unwrap_or(RateJob::DEFAULT_LIMIT);
    let threads = threads_arg(threads)?;
    let weights = match score {
        None => None,
        Some(w) => {
            let name = match w.is_instance_of::<PyString>() || w.hasattr("__fspath__")? {
                true => path_text(w)?,
                false => "custom".to_string(),
            };
            Some((name, weights_arg(Some(w))?))
        }
    };
    let input_format_arg: InputFormat = input_format.parse().map_err(PyValueError::new_err)?;
    let options = ReportOptions {
        classes,
        score: weights.clone(),
        ratings: rate.then(|| {
            RatingSource::Rate(RateJob {
                limit,
                ..RateJob::default()
            })
        }),
        audit: false,
    };
    let started = Instant::now();
    let (job, inputs, elapsed) = if is_path(data)? {
        let path = path_text(data)?;
        let read = ReadOptions {
            format: input_format_arg,
            column: column.clone(),
            ..ReadOptions::default()
        };
        report_file(py, &path, read, options, threads)?
    } else {
        let puzzles = Puzzles::extract(data)?;
        let view = puzzles.view()?;
        let job = ReportJob::new(options, threads);
        let mut status = vec![0u8; view.len()];
        // Every row is counted where the pipeline counts it: `writes`.
        run_job(
            py,
            &job,
            &view,
            threads,
            status.par_chunks_mut(CHUNK),
            |_, _, row, _| {
                job.writes(row);
            },
        )?;
        (job, Vec::new(), started.elapsed())
    };
    let text = |v: Option<String>| v.map_or(OptionValue::Unset, OptionValue::Text);
    let arguments = [
        ("classes", OptionValue::Switch(classes)),
        ("score", text(weights.map(|w| w.0))),
        ("rate", OptionValue::Switch(rate)),
        (
            "limit",
            match rate {
                true => OptionValue::Number(limit),
                false => OptionValue::Unset,
            },
        ),
        ("threads", OptionValue::Number(threads as u64)),
        ("batch_size", OptionValue::Number(batch_size(rate) as u64)),
        (
            "output",
            text(output.as_ref().map(|p| p.display().to_string())),
        ),
        ("format", OptionValue::Text(page.name().to_string())),
        ("input_format", OptionValue::Text(input_format.to_string())),
        ("column", text(column)),
    ];
    let argv: Vec<String> = py
        .import("sys")
        .and_then(|sys| sys.getattr("argv"))
        .and_then(|argv| argv.extract())
        .unwrap_or_default();
    let facts = RunFacts {
        inputs,
        elapsed,
        threads,
        date_utc: utc(std::time::SystemTime::now()),
        command_line: argv,
        options: RunOptions(
            arguments
                .into_iter()
                .map(|(key, value)| OptionInEffect {
                    key: key.to_string(),
                    flag: format!("{key}="),
                    value,
                })
                .collect(),
        ),
        version: env!("CARGO_PKG_VERSION"),
        commit: "unknown",
    };
    let figures = job.finish(facts);
    if let Some(path) = &output {
        std::fs::write(path, render(&figures, page))
            .map_err(|e| file_error(&path.display().to_string(), &e))?;
    }
    let json = render(&figures, Format::Json);
    py.import("json")?.call_method1("loads", (json,))
}
