//! Where a report comes from: the date (UTC), the command line as a shell
//! would take it, and each input's size and checksum, so that a page can
//! be traced back to its data and made again.

use std::io::Read;
use std::time::{SystemTime, UNIX_EPOCH};

use xxhash_rust::xxh3::Xxh3;

use super::summary::InputInfo;

/// `time` as RFC 3339 UTC to the second (`2026-11-25T16:54:45Z`); times
/// before 1970 are shown as the epoch.
pub fn utc(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// The command line, each argument quoted for a POSIX shell when it needs
/// it, joined by spaces.
pub fn shell_line(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            let plain = !a.is_empty()
                && a.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
            if plain {
                a.clone()
            } else {
                format!("'{}'", a.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// XXH3-64 of a file's bytes as 16 hex digits; `None` when it cannot be
/// read again.
pub fn xxh3_file(path: &str) -> Option<String> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = Xxh3::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(format!("{:016x}", hasher.digest()))
}

/// Completes the inputs after the pass: a regular file (one with a size)
/// gets its checksum, read again by `path`; the one input without a size
/// (stdin, a pipe) gets the bytes read, the run's byte count less the
/// others' sizes (unknown when several inputs have no size).
pub fn complete(inputs: &mut [InputInfo], paths: &[String], bytes_read_total: u64) {
    let without_size = inputs.iter().filter(|i| i.bytes.is_none()).count();
    let sized: u64 = inputs.iter().filter_map(|i| i.bytes).sum();
    for (input, path) in inputs.iter_mut().zip(paths) {
        match input.bytes {
            Some(_) => input.xxh3_64 = xxh3_file(path),
            None if without_size == 1 => {
                input.bytes_read = Some(bytes_read_total.saturating_sub(sized))
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_utc_rfc3339() {
        let at = |s: u64| utc(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(at(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn command_lines_quote_what_a_shell_would_split() {
        let args = ["batchdoku", "report", "a b.txt", "it's", "-o", "r.html", ""].map(String::from);
        assert_eq!(
            shell_line(&args),
            "batchdoku report 'a b.txt' 'it'\\''s' -o r.html ''"
        );
    }

    #[test]
    fn inputs_get_checksums_or_bytes_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.txt");
        std::fs::write(&path, b"hello").unwrap();
        let path = path.to_str().unwrap().to_string();
        let info = |bytes| InputInfo {
            name: "x".into(),
            bytes,
            bytes_read: None,
            xxh3_64: None,
        };
        let mut inputs = vec![info(Some(5)), info(None)];
        complete(&mut inputs, &[path, "-".into()], 12);
        assert_eq!(
            inputs[0].xxh3_64.as_deref(),
            Some(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(b"hello")).as_str())
        );
        assert_eq!(
            (inputs[0].bytes_read, inputs[1].bytes_read),
            (None, Some(7))
        );
        assert_eq!(inputs[1].xxh3_64, None);
        let mut two = vec![info(None), info(None)];
        complete(&mut two, &["-".into(), "/dev/null".into()], 12);
        assert!(two.iter().all(|i| i.bytes_read.is_none()));
    }
}
