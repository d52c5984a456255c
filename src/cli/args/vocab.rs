//! Value parsers for the flags whose values are a library vocabulary
//! (formats, engines, class keys, symmetries): the names and their help
//! are the library's lists, the values its `FromStr` ([`one_of`]).

use batchdoku_batch::plumbing::Range;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

use batchdoku_batch::{ClassBy, EngineKind, OutputFormat};
use batchdoku_core::{InputFormat, Symmetry};

/// A value parser for a library vocabulary: the names (with their help)
/// from the library's list, the value from the library's `FromStr`.
fn one_of<T>(
    all: &[T],
    name: fn(T) -> &'static str,
    help: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + std::str::FromStr<Err = String> + Send + Sync + 'static,
{
    let values = all
        .iter()
        .map(|&v| PossibleValue::new(name(v)).help(help(v)));
    // Only the names listed get here, and each is the library's own.
    PossibleValuesParser::new(values).try_map(|text| text.parse::<T>())
}

pub(super) fn output_formats() -> impl TypedValueParser<Value = OutputFormat> {
    one_of(
        &OutputFormat::ALL,
        OutputFormat::as_str,
        OutputFormat::description,
    )
}

pub(super) fn input_formats() -> impl TypedValueParser<Value = InputFormat> {
    one_of(&InputFormat::ALL, InputFormat::as_str, input_format_help)
}

/// `--input-format`'s help for a value: the library's description, but
/// for `jsonl`, which the command line names by the flag that writes it.
fn input_format_help(format: InputFormat) -> &'static str {
    match format {
        InputFormat::Jsonl => "one JSON object per line (what --format jsonl writes)",
        _ => format.description(),
    }
}

pub(super) fn engines() -> impl TypedValueParser<Value = EngineKind> {
    one_of(
        &EngineKind::ALL,
        EngineKind::as_str,
        EngineKind::description,
    )
}

pub(super) fn class_keys() -> impl TypedValueParser<Value = ClassBy> {
    one_of(&ClassBy::ALL, ClassBy::as_str, ClassBy::description)
}

pub(super) fn symmetries() -> impl TypedValueParser<Value = Symmetry> {
    one_of(&Symmetry::ALL, Symmetry::as_str, Symmetry::description)
}

// The numeric flags' ranges: the library's (`plumbing::Range`), which the
// Python package checks its arguments against too, with the same message.

/// `-j`: 1 to 1024 threads.
pub fn threads(text: &str) -> Result<u32, String> {
    Range::THREADS.parse(text).map(|v| v as u32)
}

/// `--batch-size`: 1 to 1,000,000 records.
pub fn batch_size(text: &str) -> Result<u32, String> {
    Range::BATCH_SIZE.parse(text).map(|v| v as u32)
}

/// A count or work limit of at least 1 (`-k`, `--node-limit`, `--limit`,
/// `--start`).
pub fn at_least_one(text: &str) -> Result<u64, String> {
    Range::AT_LEAST_ONE.parse(text)
}

/// `rate --invariant`: 0 to 1,000,000 equivalents.
pub fn invariant(text: &str) -> Result<u32, String> {
    Range::INVARIANT.parse(text).map(|v| v as u32)
}

/// `--seed`: any 64-bit value.
pub fn seed(text: &str) -> Result<u64, String> {
    Range::ANY.parse(text)
}

/// A rating with one decimal (`7.0`, `4.5`), in tenths: `generate --er`'s
/// bounds, `rate --max-er`, `--min-ed`, `--min-ep`.
pub fn rating(text: &str) -> Result<u8, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a rating (a number like 4.5)"))?;
    let scaled = (v * 10.0).round();
    if !(0.0..=255.0).contains(&scaled) || ((v * 10.0) - scaled).abs() > 1e-6 {
        return Err(format!(
            "{text:?}: a rating is 0.0 to 25.5 with one decimal"
        ));
    }
    Ok(scaled as u8)
}
