//! Value parsers for the flags whose values are a library vocabulary
//! (formats, engines, class keys, symmetries): the names and their help
//! are the library's lists, the values its `FromStr` ([`one_of`]).

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
