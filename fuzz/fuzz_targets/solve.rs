//! Fuzz target `solve`: 81 arbitrary bytes as a grid (81 more, when
//! present, as score weights) through both engines and the scored search.
//! The invariants live in `tests/fuzz_equiv/invariants.rs`, shared with the
//! proptest harness run in CI.
#![no_main]

use std::cell::RefCell;

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_equiv/invariants.rs"]
#[allow(dead_code)]
mod invariants;

thread_local! {
    /// One set of engines for the whole run, reused as a worker reuses its
    /// solver: state leaking between puzzles would show up.
    static ENGINES: RefCell<invariants::Engines> = RefCell::new(invariants::Engines::default());
}

fuzz_target!(|data: &[u8]| {
    ENGINES.with(|e| invariants::check_solve(data, &mut e.borrow_mut()));
});
