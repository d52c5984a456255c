//! `batchdoku report`: one pass that solves every puzzle counting to two
//! (with `--score`, also scores it) and writes no rows, then the corpus
//! report (HTML, JSON or Markdown) into the output, kept only when the pass
//! completed.

use anyhow::Context;

use crate::cli::report::{self, Format, InputInfo, ReportJob, ReportOptions};
use batchdoku::batch::Column;

use super::{conclude, open_outputs, pass, settings, Ending};
use crate::cli::args::{ReportArgs, RowArgs};
use crate::cli::exit::Exit;
use crate::cli::io;

/// Runs `report`.
pub fn run(args: &ReportArgs) -> anyhow::Result<Exit> {
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
    let inputs = io::open_inputs(&paths, None, &args.records)?;
    let info = inputs
        .0
        .iter()
        .map(|i| InputInfo {
            name: i.name.to_string(),
            bytes: i.size,
        })
        .collect();
    // The pass writes no rows: no header, no columns.
    let rows = RowArgs {
        format: Some(batchdoku::batch::OutputFormat::Csv),
        no_header: true,
    };
    let config = settings(
        &args.run,
        &rows,
        &args.records,
        Vec::new(),
        Column::Solution,
        &[&inputs.0],
    )?;
    let options = ReportOptions {
        classes: args.classes,
        score,
    };
    let job = ReportJob::new(options, config.threads);
    let mut ran = pass(&job, inputs, &mut outputs.rows, &config, &args.run)?;
    if !(ran.interrupted || ran.broken_pipe) {
        let page = report::render(&job.finish(info, ran.elapsed, config.threads), format);
        match outputs.rows.write_all(page.as_bytes()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ran.broken_pipe = true,
            other => other.context("writing the report")?,
        }
    }
    conclude(
        "report",
        ran,
        outputs,
        &args.run,
        &args.records,
        Ending::default(),
    )
}
