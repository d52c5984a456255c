//! Streaming record reader (temporary: line format only; replaced by the
//! full multi-format reader).

use std::io::{self, BufRead};

use super::{parse_line, ParseError, ParseErrorKind};
use crate::grid::Grid;

/// Which input format to read. `Auto` detects from the first lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// Detect from the first lines.
    Auto,
    /// One puzzle per line.
    Line,
    /// Kaggle-style CSV.
    Csv,
    /// Block grids.
    Block,
    /// Luogu P10481.
    Luogu,
    /// POJ 3074.
    Poj,
}

impl InputFormat {
    /// The format's name.
    pub fn as_str(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Line => "line",
            InputFormat::Csv => "csv",
            InputFormat::Block => "block",
            InputFormat::Luogu => "luogu",
            InputFormat::Poj => "poj",
        }
    }
}

impl std::str::FromStr for InputFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "auto" => InputFormat::Auto,
            "line" => InputFormat::Line,
            "csv" => InputFormat::Csv,
            "block" => InputFormat::Block,
            "luogu" => InputFormat::Luogu,
            "poj" => InputFormat::Poj,
            _ => return Err(format!("unknown input format '{s}'")),
        })
    }
}

/// One input record, reused across reads.
#[derive(Debug)]
pub struct Record {
    /// 1-based line where the record starts.
    pub line: u64,
    /// The puzzle or what is wrong with it.
    pub puzzle: Result<Grid, ParseError>,
    /// The expected solution, when the input has one.
    pub expected: Option<Result<Grid, ParseError>>,
    /// Text after the cells.
    pub trailing: Vec<u8>,
}

impl Default for Record {
    fn default() -> Self {
        Record {
            line: 0,
            puzzle: Err(ParseError {
                kind: ParseErrorKind::Empty,
                col: 0,
            }),
            expected: None,
            trailing: Vec::new(),
        }
    }
}

/// Reads records one at a time.
#[derive(Debug)]
pub struct RecordReader<R> {
    rdr: R,
    buf: Vec<u8>,
    line: u64,
}

impl<R: BufRead> RecordReader<R> {
    /// A reader over `rdr`.
    pub fn new(rdr: R, _format: InputFormat) -> io::Result<Self> {
        Ok(RecordReader {
            rdr,
            buf: Vec::new(),
            line: 0,
        })
    }

    /// The resolved format.
    pub fn format(&self) -> InputFormat {
        InputFormat::Line
    }

    /// Whether records carry an expected solution.
    pub fn has_expected(&self) -> bool {
        false
    }

    /// Reads the next record; false at end of input.
    pub fn read_record(&mut self, rec: &mut Record) -> io::Result<bool> {
        loop {
            self.buf.clear();
            if self.rdr.read_until(b'\n', &mut self.buf)? == 0 {
                return Ok(false);
            }
            self.line += 1;
            let l = self.buf.strip_suffix(b"\n").unwrap_or(&self.buf);
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            if l.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            rec.line = self.line;
            rec.puzzle = parse_line(l);
            rec.expected = None;
            rec.trailing.clear();
            return Ok(true);
        }
    }
}
