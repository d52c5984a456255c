//! `batchdoku analyze`: the puzzle forum's measures of each puzzle with
//! one solution, in the columns `--columns` names.

use batchdoku_batch::{AnalyzeJob, Column};
use batchdoku_core::AnalyzeOptions;

use super::{one_pass, Resumable};
use crate::cli::args::AnalyzeArgs;
use crate::cli::exit::Exit;

/// Runs `analyze`.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<Exit> {
    let job = AnalyzeJob {
        options: AnalyzeOptions {
            max_te: args.max_te,
            max_backdoor: args.max_backdoor,
            ..AnalyzeOptions::of(&args.columns)
        },
    };
    // The measures in the order given, each once.
    let mut measures = Vec::new();
    for column in args.columns.iter().filter_map(|&m| Column::of_measure(m)) {
        if !measures.contains(&column) {
            measures.push(column);
        }
    }
    let columns = |_: &[_]| {
        let mut columns = job.columns_asked();
        let head = columns.len() - measures.len() - 1;
        columns.splice(head..head + measures.len(), measures.iter().copied());
        columns
    };
    let names: Vec<&str> = args.columns.iter().map(|m| m.as_str()).collect();
    let resumable = Resumable {
        checkpoint: args.resume.checkpoint,
        options: vec![
            ("--columns", names.join(",")),
            ("--max-te", args.max_te.to_string()),
            ("--max-backdoor", args.max_backdoor.to_string()),
        ],
    };
    one_pass(
        "analyze",
        &job,
        &args.common,
        resumable,
        false,
        columns,
        Column::Solution,
    )
}
