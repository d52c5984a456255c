//! Reading the CSV format: the header record and the layout it names (or
//! the first records show), the delimiter, and one record at a time.

use std::io::{self, BufRead};

use super::{bad_options, InputLayout, Mode, ReadOptions, Record, RecordReader};
use crate::parse::csv_input::{
    header_puzzle, is_puzzle_header, parse_puzzle_field, parse_solution_field, ColumnStats,
    CsvLayout, CsvRecord, ExpectedColumn,
};
use crate::parse::detect::{SAMPLE_LINES, SAMPLE_MAX_LINES};
use crate::parse::lines::MAX_LINE_BYTES;
use crate::parse::{ParseError, ParseErrorKind};

impl<R: BufRead> RecordReader<R> {
    /// Reads the CSV header record (skipping blank and comment lines; its
    /// first line read whole, however long), its fields split by
    /// `delimiter` (the one named, else the one the sampled lines say),
    /// and sets the layout. No single
    /// line decides: a first record that holds a grid in some field is
    /// data, not a header (unless a `column` was named, which means there
    /// is a header), and is kept for the first read; when no header names
    /// the puzzle column, it is the column that holds puzzles in the first
    /// records ([`SAMPLE_LINES`] of them, read ahead and replayed).
    pub(super) fn read_csv_header(
        &mut self,
        options: &ReadOptions,
        delimiter: u8,
    ) -> io::Result<()> {
        self.lines.set_cap(usize::MAX);
        self.csv.set_delimiter(delimiter);
        self.csv_rows.set_delimiter(delimiter);
        let found = self
            .csv_rows
            .read(&mut self.lines, &mut self.csv, usize::MAX, None)?;
        self.lines.set_cap(MAX_LINE_BYTES);
        let longest = self.csv_rows.longest();
        if found {
            let named = options.column.is_some()
                || matches!(options.expected, ExpectedColumn::Named(_))
                || (0..self.csv.len())
                    .any(|i| self.csv.field(i).is_some_and(|(f, _)| is_puzzle_header(f)));
            let mut stats = ColumnStats::default();
            let headerless = !named && self.csv.holds_grid();
            if headerless {
                stats.add(&self.csv);
            }
            // The records after the first say which columns hold puzzles
            // and grids: the puzzle column when no header names it, the
            // expected solutions always.
            // Records are sampled as they will be read: a quoted field
            // goes on past a line holding a grid in any column only while
            // the header names no puzzle column.
            let named_puzzle = match headerless {
                true => None,
                false => header_puzzle(&self.csv.names(), options.column.as_deref())
                    .map_err(bad_options)?,
            };
            let mut sample = Box::<CsvRecord>::default();
            sample.set_delimiter(delimiter);
            self.csv_rows.sample(
                &mut self.lines,
                &mut sample,
                &mut stats,
                named_puzzle,
                (SAMPLE_LINES, SAMPLE_MAX_LINES),
            )?;
            let headerless_layout = headerless
                .then(|| CsvLayout::headerless(&stats, &options.expected))
                .flatten();
            let layout = match headerless_layout {
                Some(layout) => layout,
                None => CsvLayout::from_header(
                    &self.csv,
                    options.column.as_deref(),
                    &options.expected,
                    &stats,
                )
                .map_err(bad_options)?,
            };
            if options.keep_columns {
                let names = (0..self.csv.len())
                    .filter(|&i| i != layout.puzzle)
                    .map(|i| {
                        if headerless {
                            format!("field_{}", i + 1)
                        } else {
                            let name = self.csv.field(i).map_or(&[][..], |f| f.0);
                            String::from_utf8_lossy(name).into_owned()
                        }
                    })
                    .collect();
                self.kept_names = Some(names);
            }
            if !headerless {
                let mut header = Vec::new();
                self.csv.write_as_read(&mut header, &mut Vec::new());
                let names = self.csv.names();
                self.layout = InputLayout::Csv {
                    delimiter,
                    header: Some(header),
                    names: names
                        .iter()
                        .map(|n| String::from_utf8_lossy(n).into_owned())
                        .collect(),
                };
            }
            if headerless {
                // Read without the cap: held to it now, as any record.
                if longest > MAX_LINE_BYTES || self.csv.len() > MAX_LINE_BYTES {
                    self.csv.set_too_long();
                }
                self.csv_pending = true;
            }
            self.mode = Mode::Csv { layout };
        }
        if options.keep_columns && self.kept_names.is_none() {
            self.kept_names = Some(Vec::new()); // an empty file
        }
        Ok(())
    }

    pub(super) fn read_csv_record(
        &mut self,
        layout: CsvLayout,
        rec: &mut Record,
    ) -> io::Result<bool> {
        if !std::mem::take(&mut self.csv_pending)
            && !self.csv_rows.read(
                &mut self.lines,
                &mut self.csv,
                MAX_LINE_BYTES,
                Some(layout.puzzle),
            )?
        {
            return Ok(false);
        }
        let csv = &*self.csv;
        let broken = if csv.too_long() {
            let limit = MAX_LINE_BYTES as u32;
            Some(ParseError::new(ParseErrorKind::LineTooLong { limit }, 0))
        } else {
            csv.unclosed()
                .map(|col| ParseError::new(ParseErrorKind::UnclosedQuote, col))
        };
        if let Some(err) = broken {
            rec.set(csv.line(), Err(err));
            rec.expected = layout.expected.map(|_| Err(err));
            return Ok(true);
        }
        rec.set(csv.line(), parse_puzzle_field(csv, layout.puzzle));
        if self.keep_written {
            csv.write_as_read(&mut rec.written, &mut rec.written_ends);
        }
        // An empty solution cell means no expected solution.
        rec.expected = layout.expected.and_then(|i| match csv.field(i) {
            Some((&[], _)) => None,
            _ => Some(parse_solution_field(csv, i)),
        });
        if let Some(names) = &self.kept_names {
            let kept = (0..csv.len()).filter(|&i| i != layout.puzzle);
            for i in kept.take(names.len()) {
                if let Some(field) = csv.kept(i) {
                    rec.kept.extend_from_slice(field);
                }
                rec.kept_ends.push(rec.kept.len() as u32);
            }
        }
        Ok(true)
    }
}
