//! The one parser of the crate's vocabularies (output and input formats,
//! engines, symmetries, SIMD paths, statuses, measures): each enum lists its values
//! in `ALL` and names them with `as_str`, and its `FromStr` calls
//! [`parse_name`]. The command line and the Python package parse through
//! those `FromStr`s, so a name is spelled in one place.

/// The value of `all` named `text` (ASCII case-insensitive, surrounding
/// blanks ignored); the error names what was wanted (`kind`) and lists
/// the names.
pub fn parse_name<T: Copy>(
    kind: &str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
    text: &str,
) -> Result<T, String> {
    let wanted = text.trim();
    all.iter()
        .copied()
        .find(|&v| name(v).eq_ignore_ascii_case(wanted))
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            format!(
                "unknown {kind} '{text}' (expected one of: {})",
                names.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::testdata::round_trip;
    use crate::{InputFormat, Measure, SimdPath, Symmetry};

    #[test]
    fn every_vocabulary_parses_its_own_names() {
        round_trip(&InputFormat::ALL, InputFormat::as_str);
        round_trip(&Symmetry::ALL, Symmetry::as_str);
        round_trip(&SimdPath::ALL, SimdPath::as_str);
        round_trip(&Measure::ALL, Measure::as_str);
    }
}
