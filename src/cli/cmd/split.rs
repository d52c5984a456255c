//! `batchdoku split`: a pass that learns the classes, the choice of each
//! class's part, then a pass that writes every row with its part (and,
//! with `--output-dir`, one more pass per part file, which writes the
//! part's records as the input wrote them: see [`AsWritten`]). Inputs that
//! cannot be reopened (stdin, pipes) are spooled, as for `dedupe`.

use std::path::{Path, PathBuf};

use anyhow::Context;

use batchdoku_batch::plumbing::Input;
use batchdoku_batch::{AsWritten, Column, Report, SplitJob, Stratify};
use batchdoku_core::InputLayout;

use super::{conclude, counting_pass, open_outputs_at, pass, settings, Ending};
use crate::cli::args::SplitArgs;
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `split`.
pub fn run(args: &SplitArgs) -> anyhow::Result<Exit> {
    if let (Some(format), Some(_), None) = (
        args.common.rows.format,
        &args.output_dir,
        &args.common.run.output,
    ) {
        anyhow::bail!(
            "--format {}: sets the format of the rows of -o, and --output-dir without -o writes \
             none (part files keep the input's layout): leave --format out, or give -o",
            format.as_str()
        );
    }
    let names = part_names(args)?;
    // The plan (ratios, names) is checked before anything is created; the
    // stratifying column is known once the inputs are open.
    let job = SplitJob::new(&args.ratios, &names, args.seed, args.by, Stratify::None)
        .map_err(|e| anyhow::anyhow!("--ratios/--names: {e}"))?;
    let mut made = io::MadeDir::default();
    let ran = split(args, job, &mut made);
    if ran.is_err() {
        made.remove();
    }
    ran
}

/// `split` with its job, whose plan is known good.
fn split(args: &SplitArgs, job: SplitJob, made: &mut io::MadeDir) -> anyhow::Result<Exit> {
    let names = job.names().to_vec();
    let paths = args.common.inputs.paths();
    // A stratifying column is read from the kept columns.
    let mut records = args.common.records.clone();
    let column = args.stratify.as_deref().filter(|s| *s != "guesses");
    if let Some(name) = column {
        records.want_columns(format!(
            "--stratify {name}: needs a CSV or JSON lines input with that column"
        ));
    }
    // With --output-dir and no -o the rows go to the part files only: the
    // main output is discarded (Parquet would write an empty file there).
    let rows_to = match (&args.output_dir, args.common.run.output.as_deref()) {
        (Some(_), None) => Some(Path::new("/dev/null")),
        (_, output) => output,
    };
    let mut outputs = open_outputs_at(rows_to, &records, &paths)?;
    if let Some(dir) = &args.output_dir {
        *made = io::MadeDir::create(dir, "--output-dir")?;
    }
    let reopenable = io::reopenable(&paths)?;
    let inputs = io::open_inputs(&paths, Some(&reopenable), &records)?;
    // The part files' layout is the inputs' own, known once they are open.
    let as_written = match &args.output_dir {
        Some(_) => Some(part_layout(&inputs.0, !args.no_split_column)?),
        None => None,
    };
    let part_paths = part_paths(args, &names, as_written.as_ref());
    for path in &part_paths {
        outputs.parts.push(io::open_file(path, "--output-dir")?);
    }
    // Every output against every other: a part file named by -o or
    // --summary-json would be written over.
    let mut named = vec![("-o".to_string(), &outputs.rows)];
    named.extend(
        outputs
            .summary
            .iter()
            .map(|s| ("--summary-json".to_string(), s)),
    );
    named.extend(
        part_paths
            .iter()
            .zip(&outputs.parts)
            .map(|(path, part)| (format!("--output-dir's {}", path.display()), part)),
    );
    io::refuse_same_place(&named)?;
    io::refuse_inputs_as_outputs(&paths, &outputs.parts)?;
    let config = settings(
        &args.common.run,
        &args.common.rows,
        &records,
        SplitJob::COLUMNS.to_vec(),
        Column::Puzzle,
        &[&inputs.0],
    )?;
    let stratify = match (args.stratify.as_deref(), column) {
        (None, _) => Stratify::None,
        (Some(_), None) => Stratify::Guesses,
        (Some(_), Some(name)) => {
            let found = config
                .kept_names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(name));
            let Some(i) = found else {
                anyhow::bail!(
                    "--stratify {name}: no such input column (the input's other columns: {})",
                    config.kept_names.join(", ")
                );
            };
            Stratify::Kept(u16::try_from(i).context("--stratify: too many columns")?)
        }
    };
    let mut job = job.stratified(stratify);
    let counted = counting_pass(
        "split",
        &job,
        inputs,
        outputs,
        &config,
        &args.common.run,
        &records,
    )?;
    let (counting, mut outputs) = match counted {
        Ok(counted) => counted,
        Err(exit) => return Ok(exit),
    };
    let per_part = job.assign();
    let mut elapsed = counting.elapsed;
    let mut ended: Option<Report> = None;
    // Where each pass wrote its rows, and how many: for the summary.
    let mut written: Vec<(String, u64)> = Vec::new();
    // The rows with their parts, then each part's file: one pass each.
    let main = args.output_dir.is_none() || args.common.run.output.is_some();
    let targets = main
        .then_some(None)
        .into_iter()
        .chain((0..part_paths.len()).map(Some));
    // The part files' passes read each record's text as written.
    let part_records = crate::cli::args::RecordArgs {
        keep_written: true,
        ..records.clone()
    };
    let part_config = batchdoku_batch::plumbing::Config {
        as_written,
        ..config.clone()
    };
    for target in targets {
        job.only(target);
        let (sink, records, config) = match target {
            None => (&mut outputs.rows, &records, &config),
            Some(k) => (&mut outputs.parts[k], &part_records, &part_config),
        };
        let inputs = io::open_inputs(&paths, Some(&reopenable), records)?;
        let report = pass(&job, inputs, sink, config, &args.common.run)?;
        let place = match target {
            None => match args.common.run.output.as_deref() {
                Some(path) if path != Path::new("-") => path.display().to_string(),
                _ => "stdout".to_string(),
            },
            Some(k) => part_paths[k].display().to_string(),
        };
        written.push((place, report.totals.rows));
        elapsed += report.elapsed;
        let stop = report.interrupted || report.broken_pipe;
        ended = Some(match ended {
            None => report,
            // One input's records, every file's rows.
            Some(mut first) => {
                first.totals.rows += report.totals.rows;
                first.interrupted = report.interrupted;
                first.broken_pipe = report.broken_pipe;
                first
            }
        });
        if stop {
            break;
        }
    }
    let mut report = ended.unwrap_or(counting);
    report.elapsed = elapsed;
    io::check_unchanged(&reopenable)?;
    let mut note = note(&job, &per_part);
    if !part_paths.is_empty() {
        note.push('\n');
        note.push_str(&where_written(&written));
    }
    conclude(
        "split",
        report,
        outputs,
        &args.common.run,
        &records,
        Ending {
            note: Some(note),
            failed: false,
        },
    )
}

/// The part names: `--names`, or the default for two or three ratios.
/// Leaked, once per run: rows name their part by a `&'static str`.
fn part_names(args: &SplitArgs) -> anyhow::Result<Vec<&'static str>> {
    let n = args.ratios.len();
    let given: Vec<String> = match (&args.names, SplitJob::default_names(n)) {
        (Some(names), _) => names.clone(),
        (None, Some(names)) => names.iter().map(|&n| n.to_owned()).collect(),
        (None, None) => anyhow::bail!("--names: {n} ratios need {n} names (A,B,...)"),
    };
    for name in &given {
        // Names become file names with --output-dir.
        let plain = !name.is_empty()
            && name != "."
            && name != ".."
            && !name.contains(['/', '\\', '\0', ',', '\n', '"']);
        if !plain {
            anyhow::bail!("--names: {name:?} is not a plain name (no '/', '\\', quotes or commas)");
        }
    }
    Ok(given
        .into_iter()
        .map(|n| &*Box::leak(n.into_boxed_str()))
        .collect())
}

/// With `--output-dir`, the file of each part: DIR/NAME and the
/// extension of the inputs' layout (`.csv`, `.tsv` for tabs, `.jsonl`,
/// `.txt` for lines and blocks).
fn part_paths(args: &SplitArgs, names: &[&str], layout: Option<&AsWritten>) -> Vec<PathBuf> {
    let (Some(dir), Some(layout)) = (&args.output_dir, layout) else {
        return Vec::new();
    };
    names
        .iter()
        .map(|name| dir.join(format!("{name}.{}", layout.extension())))
        .collect()
}

/// The layout of the part files: the inputs' own, which must be one (the
/// same CSV header and delimiter; JSON lines, Parquet's rows among them;
/// lines; block grids). Empty files have none and fit any. With `split`,
/// the part is a column (or key) `split`, which no input may have already.
fn part_layout(inputs: &[Input], split: bool) -> anyhow::Result<AsWritten> {
    let mut laid = inputs.iter().filter(|i| i.size != Some(0));
    let first = laid.next().or(inputs.first());
    let Some(first) = first else {
        anyhow::bail!("--output-dir: no input");
    };
    for input in laid {
        let alike = match (first.layout(), input.layout()) {
            (InputLayout::Jsonl { .. }, InputLayout::Jsonl { .. }) => true,
            (a, b) => a == b,
        };
        if !alike {
            anyhow::bail!(
                "--output-dir: part files keep the input's layout, and {} ({}) is laid out unlike \
                 {} ({}): split them one at a time, or bring them to one layout first",
                input.name,
                describe(input.layout()),
                first.name,
                describe(first.layout())
            );
        }
    }
    let taken = inputs.iter().find(|i| {
        i.layout()
            .column_names()
            .iter()
            .any(|n| n.eq_ignore_ascii_case(AsWritten::SPLIT))
    });
    if let (true, Some(input)) = (split, taken) {
        anyhow::bail!(
            "--output-dir: {} already has a column `{}`, and part files would have two: give \
             --no-split-column (the part files then have the input's columns as they are), or \
             rename that column",
            input.name,
            AsWritten::SPLIT
        );
    }
    Ok(AsWritten {
        layout: first.layout().clone(),
        split,
    })
}

/// A layout in a few words, for messages.
fn describe(layout: &InputLayout) -> String {
    match layout {
        InputLayout::Csv {
            header: Some(header),
            delimiter,
            ..
        } => format!(
            "CSV with the header {:?}, delimiter {:?}",
            String::from_utf8_lossy(header),
            char::from(*delimiter)
        ),
        InputLayout::Csv { delimiter, .. } => {
            format!(
                "CSV without a header, delimiter {:?}",
                char::from(*delimiter)
            )
        }
        InputLayout::Jsonl { .. } => "JSON lines".to_string(),
        InputLayout::Blocks => "block grids".to_string(),
        _ => "one puzzle per line".to_string(),
    }
}

/// The summary's line saying where the rows went (with `--output-dir`,
/// where the rows written add up to more than the records), e.g.
/// `batchdoku split: rows written: 10 to out.csv, 5 to parts/train.csv, 5 to parts/test.csv`.
fn where_written(written: &[(String, u64)]) -> String {
    let places: Vec<String> = written
        .iter()
        .map(|(place, rows)| format!("{rows} to {place}"))
        .collect();
    format!("batchdoku split: rows written: {}", places.join(", "))
}

/// The summary's last line: classes and each part's records and share.
fn note(job: &SplitJob, per_part: &[u64]) -> String {
    let valid: u64 = per_part.iter().sum();
    let parts: Vec<String> = job
        .names()
        .iter()
        .zip(per_part)
        .map(|(name, &n)| {
            let share = if valid == 0 {
                0.0
            } else {
                100.0 * n as f64 / valid as f64
            };
            format!("{name} {n} ({share:.1}%)")
        })
        .collect();
    let classes = job.classes();
    format!(
        "batchdoku split: {valid} valid record{} in {classes} class{}: {}",
        if valid == 1 { "" } else { "s" },
        if classes == 1 { "" } else { "es" },
        parts.join(", ")
    )
}
