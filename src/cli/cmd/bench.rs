//! `batchdoku bench`: load puzzle files into memory, measure solver
//! throughput at each thread count, print a table (Markdown, or CSV
//! written by the `csv` crate so that any file name is one field). A
//! failure writing the table is fatal (exit 2); a closed stdout (`| head`)
//! is not, as for every command.

use std::io::Write;
use std::time::Duration;

use anyhow::Context;

use crate::cli::throughput::{self, Measurement};
use batchdoku_batch as batch;
use batchdoku_batch::EngineKind;
use batchdoku_core::{Grid, SimdPath};
use batchdoku_core::{InputFormat, Record, RecordReader};

use crate::cli::args::{BenchArgs, TableFormat};
use crate::cli::exit::Exit;

/// The bundled sample, used when no file is given.
const SAMPLE: &str = include_str!("../../../data/sample.txt");

/// Runs the benchmark and prints the table on stdout.
pub fn run(args: &BenchArgs) -> anyhow::Result<Exit> {
    let engine: EngineKind = args.solver;
    let simd = args.simd.0.unwrap_or_else(SimdPath::detect);
    let min_time = Duration::from_secs_f64(args.min_time);
    let sets: Vec<(String, Vec<Grid>)> = if args.files.is_empty() {
        vec![("data/sample.txt".to_string(), {
            let mut rdr = RecordReader::new(SAMPLE.as_bytes(), InputFormat::Line)?;
            read_all(|rec| rdr.read_record(rec))?
        })]
    } else {
        args.files
            .iter()
            .map(|f| {
                let mut input =
                    batch::plumbing::Input::open(f, &Default::default(), Default::default())
                        .with_context(|| f.clone())?;
                Ok((
                    f.clone(),
                    read_all(|rec| input.read_record(rec)).with_context(|| f.clone())?,
                ))
            })
            .collect::<anyhow::Result<_>>()?
    };
    let mode = if args.count_limit == 1 {
        "first".to_string()
    } else {
        format!("count{}", args.count_limit)
    };
    let header = [
        "file",
        "puzzles",
        "solver",
        "mode",
        "threads",
        "puzzles/s",
        "us/puzzle",
        "no-guess %",
        "guesses/puzzle",
        "speed-up",
        "simd",
    ];
    let mut table = Table::new(args.format, &header);
    for (name, puzzles) in &sets {
        if puzzles.is_empty() {
            super::say(format_args!("batchdoku: {name}: no valid puzzles, skipped"));
            continue;
        }
        let set = throughput::working_set(puzzles, args.permute);
        let mut base: Option<f64> = None;
        for &threads in &args.threads {
            let m: Measurement = throughput::measure(
                &set,
                threads as usize,
                args.count_limit,
                engine,
                simd,
                min_time,
            );
            let base_rate = *base.get_or_insert(m.puzzles_per_second / m.threads as f64);
            table.row(&[
                name.clone(),
                puzzles.len().to_string(),
                engine.as_str().to_string(),
                mode.clone(),
                m.threads.to_string(),
                format!("{:.0}", m.puzzles_per_second),
                format!("{:.2}", m.micros_per_puzzle),
                format!("{:.1}", m.no_guess_percent),
                format!("{:.2}", m.guesses_per_puzzle),
                format!("{:.2}", m.puzzles_per_second / base_rate),
                // Only the mrv solver has SIMD paths.
                if engine == EngineKind::Mrv {
                    simd.to_string()
                } else {
                    "-".to_string()
                },
            ]);
        }
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(&table.text).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(Exit::Ok),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Exit::Ok),
        Err(e) => Err(e).context("writing the table"),
    }
}

/// Reads every well-formed puzzle of an input, record by record through
/// `next_record`.
fn read_all(
    mut next_record: impl FnMut(&mut Record) -> std::io::Result<bool>,
) -> std::io::Result<Vec<Grid>> {
    let mut rec = Record::default();
    let mut out = Vec::new();
    while next_record(&mut rec)? {
        if let Ok(g) = rec.puzzle {
            out.push(g);
        }
    }
    Ok(out)
}

/// A table written as Markdown or CSV.
struct Table {
    format: TableFormat,
    text: Vec<u8>,
}

impl Table {
    fn new(format: TableFormat, header: &[&str]) -> Table {
        let mut t = Table {
            format,
            text: Vec::new(),
        };
        t.row(&header.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        if format == TableFormat::Markdown {
            let rule: Vec<String> = header
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 { "---".into() } else { "---:".into() })
                .collect();
            t.row(&rule);
        }
        t
    }

    fn row(&mut self, cells: &[String]) {
        match self.format {
            TableFormat::Markdown => {
                self.text.extend_from_slice(b"| ");
                let escaped: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
                self.text.extend_from_slice(escaped.join(" | ").as_bytes());
                self.text.extend_from_slice(b" |\n");
            }
            TableFormat::Csv => {
                let mut wtr = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::Any(b'\n'))
                    .from_writer(&mut self.text);
                // Writing to a Vec cannot fail.
                let _ = wtr.write_record(cells);
                let _ = wtr.flush();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file name with a comma, a quote and a newline stays one field,
    /// read back by the `csv` crate.
    #[test]
    fn csv_cells_are_quoted() {
        let name = "a,b \"c\"\nd.txt";
        let mut table = Table::new(TableFormat::Csv, &["file", "n"]);
        table.row(&[name.to_string(), "1".to_string()]);
        let mut rdr = csv::Reader::from_reader(table.text.as_slice());
        let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(&rows[0][0], name);
        assert_eq!(rows[0].len(), 2);
    }
}
