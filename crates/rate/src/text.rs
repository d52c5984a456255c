//! The words of a solution path: the players' notation for a step's
//! placements and eliminations (`r4c6=7`, `r5c4<>3`: rows and columns
//! from 1) and a short sentence naming the cells, units and digits of the
//! step's pattern. Both are written from the step's record (its
//! [`Pattern`]) only when a path is written out, straight into a byte
//! buffer: keeping a path costs no text.
//!
//! The sentences never contain `|`, `;`, `"` or a line break, so that a
//! path fits one CSV cell split on `;` (steps) and `|` (fields).

use super::bits::digits;
use super::cells::{CellSet, CELL_UNITS};
use super::step::{Pattern, Premise, Step};
use super::technique::{Technique, FULL_HOUSE_RATING};

/// A placement (`r4c6=7`) or an elimination (`r5c4<>3`) in the players'
/// notation, on the stack (what a chain's sentence names as its
/// conclusion; the path's columns are written by the batch crate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Notation {
    bytes: [u8; 7],
    len: u8,
}

impl Notation {
    /// `digit` (1..=9) placed in `cell` (0..81, row by row).
    pub(crate) fn placement(cell: usize, digit: u8) -> Notation {
        let mut n = Notation::cell(cell);
        n.push(b'=');
        n.push(b'0' + digit);
        n
    }

    /// `digit` (1..=9) removed from `cell` (0..81, row by row).
    pub(crate) fn elimination(cell: usize, digit: u8) -> Notation {
        let mut n = Notation::cell(cell);
        n.push(b'<');
        n.push(b'>');
        n.push(b'0' + digit);
        n
    }

    /// The text.
    #[cfg(test)]
    pub(crate) fn as_str(&self) -> &str {
        // ASCII by construction.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }

    /// The text, as bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    fn cell(cell: usize) -> Notation {
        let name = cell_name(cell);
        Notation {
            bytes: [name[0], name[1], name[2], name[3], 0, 0, 0],
            len: 4,
        }
    }

    fn push(&mut self, b: u8) {
        self.bytes[usize::from(self.len)] = b;
        self.len += 1;
    }
}

/// `r4c6` for cell 32.
fn cell_name(cell: usize) -> [u8; 4] {
    [b'r', b'1' + (cell / 9) as u8, b'c', b'1' + (cell % 9) as u8]
}

impl Step {
    /// Appends the step's sentence to `out`: the cells, units and digits
    /// of its pattern (for example `3 in box 1 only in row 2` for a
    /// pointing step, `5 in rows 2, 7 only in columns 4, 8` for an
    /// X-wing, `r1c1=5 leads to a contradiction (12 links)` for a chain).
    /// A chain is named by what it assumes, what it concludes and its
    /// length in implications (what its rating counts), not link by link.
    /// The text has no `|`, `;`, `"` or line break.
    ///
    /// # Example
    /// ```
    /// use batchdoku_core::parse_line;
    /// use batchdoku_rate::{Budget, Rater};
    ///
    /// let puzzle = parse_line(
    ///     b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    /// )
    /// .unwrap();
    /// let mut rater = Rater::with_path();
    /// rater.rate(&puzzle, Budget::new(100_000_000)).unwrap();
    /// let mut text = Vec::new();
    /// rater.path()[0].write_text(&mut text);
    /// assert_eq!(text, b"4 in box 4 only at r6c2");
    /// assert_eq!(rater.path()[3].text(), "2 in box 5 only in column 6");
    /// ```
    pub fn write_text(&self, out: &mut Vec<u8>) {
        let placed = self.placement.map(|(c, d)| (usize::from(c), d));
        match self.pattern {
            Pattern::Plain => {
                if let Some((cell, digit)) = placed {
                    write_cell(out, cell);
                    out.extend_from_slice(b" can only be ");
                    write_digit(out, digit);
                }
            }
            Pattern::Single { unit } => {
                let Some((cell, digit)) = placed else { return };
                if self.rating == FULL_HOUSE_RATING {
                    write_digit(out, digit);
                    out.extend_from_slice(b" in ");
                    write_cell(out, cell);
                    out.extend_from_slice(b", the last empty cell of ");
                    write_unit(out, unit);
                } else {
                    write_digit(out, digit);
                    out.extend_from_slice(b" in ");
                    write_unit(out, unit);
                    out.extend_from_slice(b" only at ");
                    write_cell(out, cell);
                }
            }
            Pattern::Locking {
                digit,
                first,
                second,
            } => {
                write_digit(out, digit);
                out.extend_from_slice(b" in ");
                write_unit(out, first);
                out.extend_from_slice(b" only in ");
                write_unit(out, second);
                if let Some((cell, digit)) = placed {
                    // The single follows in the unit of `first`'s kind
                    // holding the placement.
                    let unit = CELL_UNITS[cell][unit_kind(first)];
                    write_leaving(out, digit, unit, cell);
                }
            }
            Pattern::Subset {
                unit,
                digits: set,
                cells,
            } => {
                let naked = matches!(
                    self.technique,
                    Technique::NakedPair | Technique::NakedTriplet | Technique::NakedQuad
                );
                if naked {
                    write_cells(out, cells);
                    out.extend_from_slice(b" of ");
                    write_unit(out, unit);
                    out.extend_from_slice(b" hold only ");
                    write_digits(out, set);
                } else {
                    write_digits(out, set);
                    out.extend_from_slice(b" in ");
                    write_unit(out, unit);
                    out.extend_from_slice(b" only at ");
                    write_cells(out, cells);
                }
                if let Some((cell, digit)) = placed {
                    write_leaving(out, digit, unit, cell);
                }
            }
            Pattern::Fish { digit, rows, cells } => {
                let (mut row_mask, mut column_mask) = (0u16, 0u16);
                for cell in cells.iter() {
                    row_mask |= 1 << (cell / 9);
                    column_mask |= 1 << (cell % 9);
                }
                let (base, cover, base_name, cover_name): (u16, u16, &[u8], &[u8]) = if rows {
                    (row_mask, column_mask, b"rows ", b"columns ")
                } else {
                    (column_mask, row_mask, b"columns ", b"rows ")
                };
                write_digit(out, digit);
                out.extend_from_slice(b" in ");
                out.extend_from_slice(base_name);
                write_digits(out, base);
                out.extend_from_slice(b" only in ");
                out.extend_from_slice(cover_name);
                write_digits(out, cover);
            }
            Pattern::Wing { pivot, pincers } => {
                out.extend_from_slice(b"pivot ");
                write_cell(out, usize::from(pivot));
                out.extend_from_slice(b", pincers ");
                write_cell(out, usize::from(pincers[0]));
                out.extend_from_slice(b" and ");
                write_cell(out, usize::from(pincers[1]));
            }
            Pattern::Loop {
                kind,
                digits: pair,
                cells,
            } => {
                out.extend_from_slice(if cells.len() == 4 {
                    b"rectangle "
                } else {
                    b"loop "
                });
                write_cells(out, cells);
                out.extend_from_slice(b" on ");
                write_digits(out, pair);
                out.extend_from_slice(b", type ");
                write_digit(out, kind);
            }
            Pattern::Bug {
                kind,
                digits: values,
                cells,
            } => {
                out.extend_from_slice(b"extra candidates ");
                write_digits(out, values);
                out.extend_from_slice(b" in ");
                write_cells(out, cells);
                out.extend_from_slice(b", type ");
                write_digit(out, kind);
            }
            Pattern::Aligned { cells } => {
                out.extend_from_slice(b"no combination of ");
                write_cells(out, cells);
                out.extend_from_slice(b" allows the candidates removed");
            }
            Pattern::Cycle {
                digits: on,
                cells,
                links,
            } => {
                out.extend_from_slice(b"on ");
                write_digits(out, on);
                out.extend_from_slice(b" through ");
                write_cells(out, cells);
                write_links(out, links);
            }
            Pattern::Chain { premise, links } => {
                match premise {
                    Premise::Contradiction { cell, digit, on } => {
                        write_candidate(out, usize::from(cell), digit, on);
                        out.extend_from_slice(b" leads to a contradiction");
                    }
                    Premise::Double { cell, digit } => {
                        write_candidate(out, usize::from(cell), digit, true);
                        out.extend_from_slice(b" and ");
                        write_candidate(out, usize::from(cell), digit, false);
                        out.extend_from_slice(b" both lead to ");
                        self.write_conclusion(out);
                    }
                    Premise::Cell { cell } => {
                        out.extend_from_slice(b"each candidate of ");
                        write_cell(out, usize::from(cell));
                        out.extend_from_slice(b" leads to ");
                        self.write_conclusion(out);
                    }
                    Premise::Region { unit, digit } => {
                        out.extend_from_slice(b"each place of ");
                        write_digit(out, digit);
                        out.extend_from_slice(b" in ");
                        write_unit(out, unit);
                        out.extend_from_slice(b" leads to ");
                        self.write_conclusion(out);
                    }
                }
                write_links(out, links);
            }
        }
    }

    /// The step's sentence (see [`Step::write_text`]) as a string.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        self.write_text(&mut out);
        // ASCII by construction.
        String::from_utf8(out).unwrap_or_default()
    }

    /// The step's placement, else its eliminations, comma separated.
    fn write_conclusion(&self, out: &mut Vec<u8>) {
        if let Some((cell, digit)) = self.placement {
            out.extend_from_slice(Notation::placement(usize::from(cell), digit).as_bytes());
            return;
        }
        for (i, (cell, digit)) in self.eliminations().enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(Notation::elimination(cell, digit).as_bytes());
        }
    }
}

/// 0 for a row, 1 for a column, 2 for a box (the index into
/// [`CELL_UNITS`]).
fn unit_kind(unit: u8) -> usize {
    usize::from(unit / 9)
}

fn write_digit(out: &mut Vec<u8>, digit: u8) {
    out.push(b'0' + digit);
}

/// The digits of `mask` (bit `d - 1`), comma separated.
fn write_digits(out: &mut Vec<u8>, mask: u16) {
    for (i, d) in digits(mask).enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        write_digit(out, d);
    }
}

fn write_cell(out: &mut Vec<u8>, cell: usize) {
    out.extend_from_slice(&cell_name(cell));
}

/// The cells of `cells` in cell order, comma separated.
fn write_cells(out: &mut Vec<u8>, cells: CellSet) {
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        write_cell(out, cell);
    }
}

/// `row 4`, `column 6` or `box 5`.
fn write_unit(out: &mut Vec<u8>, unit: u8) {
    let name: &[u8] = match unit_kind(unit) {
        0 => b"row ",
        1 => b"column ",
        _ => b"box ",
    };
    out.extend_from_slice(name);
    write_digit(out, unit % 9 + 1);
}

/// `r4c6=7` (`on`) or `r4c6<>7`.
fn write_candidate(out: &mut Vec<u8>, cell: usize, digit: u8, on: bool) {
    let n = if on {
        Notation::placement(cell, digit)
    } else {
        Notation::elimination(cell, digit)
    };
    out.extend_from_slice(n.as_bytes());
}

/// `, leaving 7 in row 5 only at r5c9`: the single a direct step places.
fn write_leaving(out: &mut Vec<u8>, digit: u8, unit: u8, cell: usize) {
    out.extend_from_slice(b", leaving ");
    write_digit(out, digit);
    out.extend_from_slice(b" in ");
    write_unit(out, unit);
    out.extend_from_slice(b" only at ");
    write_cell(out, cell);
}

/// ` (12 links)`.
fn write_links(out: &mut Vec<u8>, links: u16) {
    out.extend_from_slice(b" (");
    let mut digits = [0u8; 5];
    let mut n = 0;
    let mut left = links;
    loop {
        digits[n] = b'0' + (left % 10) as u8;
        n += 1;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    out.extend(digits[..n].iter().rev());
    out.extend_from_slice(if links == 1 { b" link)" } else { b" links)" });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_counts_rows_and_columns_from_one() {
        assert_eq!(Notation::placement(32, 7).as_str(), "r4c6=7");
        assert_eq!(Notation::elimination(39, 3).as_str(), "r5c4<>3");
        assert_eq!(Notation::elimination(80, 9).as_bytes(), b"r9c9<>9");
    }
}
