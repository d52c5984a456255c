//! Reading the grid formats: block (nine lines of nine cells) and Luogu
//! (a count line, then that many block grids).

use std::io::{self, BufRead};

use super::{Luogu, Mode, Record, RecordReader};
use crate::parse::block::{classify_row, read_grid, RowClass};
use crate::parse::detect::parse_count;
use crate::parse::lines::{is_blank, is_comment};
use crate::parse::{ParseError, ParseErrorKind};

impl<R: BufRead> RecordReader<R> {
    pub(super) fn read_block_record(&mut self, rec: &mut Record) -> io::Result<bool> {
        // The grid's text is read into the record's own buffer, kept
        // across `set` (which clears it).
        let mut text = std::mem::take(&mut rec.written);
        text.clear();
        let read = read_grid(&mut self.lines, self.keep_written.then_some(&mut text))?;
        match read {
            Some((line, puzzle)) => {
                rec.set(line, puzzle);
                rec.written = text;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    pub(super) fn read_luogu_record(&mut self, state: Luogu, rec: &mut Record) -> io::Result<bool> {
        let state = match state {
            Luogu::NeedCount => match self.read_count(rec)? {
                CountLine::Count(state) => state,
                CountLine::Bad => return Ok(true),
                CountLine::Eof => return Ok(false),
            },
            s => s,
        };
        if self.read_block_record(rec)? {
            if let Luogu::Counting {
                promised,
                count_line,
                seen,
            } = state
            {
                let seen = seen + 1;
                self.mode = Mode::Block {
                    luogu: Some(Luogu::Counting {
                        promised,
                        count_line,
                        seen,
                    }),
                };
            }
            return Ok(true);
        }
        self.mode = Mode::Block {
            luogu: Some(Luogu::Done),
        };
        match state {
            Luogu::Counting {
                promised,
                count_line,
                seen,
            } if seen < promised => {
                let kind = ParseErrorKind::MissingGrids {
                    found: seen,
                    promised,
                };
                rec.set(count_line, Err(ParseError::new(kind, 0)));
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Reads the Luogu count line. On a bad one, fills `rec` with a
    /// `BadCount` record and switches to plain block reading (a line that
    /// looks like part of a grid is kept for it).
    fn read_count(&mut self, rec: &mut Record) -> io::Result<CountLine> {
        loop {
            if !self.lines.next_line()? {
                return Ok(CountLine::Eof);
            }
            let line = self.lines.line();
            if !self.lines.overlong() && (is_blank(line) || is_comment(line)) {
                continue;
            }
            let count = if self.lines.overlong() {
                None
            } else {
                parse_count(line)
            };
            if let Some(promised) = count {
                let state = Luogu::Counting {
                    promised,
                    count_line: self.lines.line_no(),
                    seen: 0,
                };
                self.mode = Mode::Block { luogu: Some(state) };
                return Ok(CountLine::Count(state));
            }
            rec.set(
                self.lines.line_no(),
                Err(ParseError::new(ParseErrorKind::BadCount, 0)),
            );
            if !self.lines.overlong()
                && matches!(classify_row(line), RowClass::Row(_) | RowClass::Separator)
            {
                self.lines.push_back();
            }
            self.mode = Mode::Block {
                luogu: Some(Luogu::Done),
            };
            return Ok(CountLine::Bad);
        }
    }
}

/// The outcome of looking for a Luogu count line.
enum CountLine {
    /// A count: the new state.
    Count(Luogu),
    /// Not a count: a `BadCount` record was produced.
    Bad,
    /// End of input before any meaningful line.
    Eof,
}
