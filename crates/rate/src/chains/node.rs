//! Potentials (Sudoku Explainer's word for a candidate assumed true,
//! "on", or false, "off") as small indices, so that chains keep them in
//! flat arrays: on potentials first (cell * 9 + digit - 1), then off.

/// The number of potentials: 81 cells, 9 digits, on and off.
pub(super) const NODES: usize = 2 * CANDIDATES;
/// The number of candidates (cell, digit) of a grid.
pub(super) const CANDIDATES: usize = 81 * 9;

/// The potential "`digit` (1..=9) is in `cell`".
#[inline(always)]
pub(super) const fn on(cell: usize, digit: u8) -> usize {
    cell * 9 + digit as usize - 1
}

/// The potential "`digit` (1..=9) is not in `cell`".
#[inline(always)]
pub(super) const fn off(cell: usize, digit: u8) -> usize {
    CANDIDATES + on(cell, digit)
}

/// Whether potential `node` is an "on" one.
#[inline(always)]
pub(super) const fn is_on(node: usize) -> bool {
    node < CANDIDATES
}

/// The cell of potential `node`.
#[inline(always)]
pub(super) fn cell(node: usize) -> usize {
    usize::from(PARTS[node][0])
}

/// The digit (1..=9) of potential `node`.
#[inline(always)]
pub(super) fn digit(node: usize) -> u8 {
    PARTS[node][1]
}

/// The cell and digit of each potential: a table, since the chains ask
/// for them at every potential they meet and the arithmetic (a remainder
/// by the number of candidates, then a division by 9) costs more.
static PARTS: [[u8; 2]; NODES] = build_parts();

const fn build_parts() -> [[u8; 2]; NODES] {
    let mut t = [[0u8; 2]; NODES];
    let mut n = 0;
    while n < NODES {
        t[n] = [
            ((n % CANDIDATES) / 9) as u8,
            ((n % CANDIDATES) % 9) as u8 + 1,
        ];
        n += 1;
    }
    t
}

/// The cell and digit (1..=9) of "on" potential `node` (what [`cell`]
/// and [`digit`] give, without reducing an "off" potential first).
#[inline(always)]
pub(super) const fn on_cell_digit(node: usize) -> (usize, u8) {
    debug_assert!(is_on(node));
    (node / 9, (node % 9) as u8 + 1)
}

/// The potential with the same candidate and the other state.
#[inline(always)]
pub(super) const fn conjugate(node: usize) -> usize {
    if is_on(node) {
        node + CANDIDATES
    } else {
        node - CANDIDATES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip() {
        for c in 0..81 {
            for d in 1..=9u8 {
                let (n, f) = (on(c, d), off(c, d));
                assert!(is_on(n) && !is_on(f));
                assert_eq!((cell(n), digit(n), cell(f), digit(f)), (c, d, c, d));
                assert_eq!((conjugate(n), conjugate(f)), (f, n));
                assert_eq!(on_cell_digit(n), (c, d));
                assert!(n < NODES && f < NODES);
            }
        }
    }
}
