//! Fuzz target `parse_records`: arbitrary bytes through the streaming
//! record reader in every input format (the first byte picks it). The
//! invariants live in `tests/fuzz_equiv/invariants.rs`, shared with the
//! proptest harness run in CI.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/fuzz_equiv/invariants.rs"]
#[allow(dead_code)]
mod invariants;

fuzz_target!(|data: &[u8]| {
    invariants::check_records(data);
});
