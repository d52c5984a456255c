//! Parquet output and what `-o` infers from a file name: a Parquet file
//! read back (with the `parquet` crate's reader) holds the CSV's rows, row
//! for row, typed as documented; `-o x.parquet`, `x.csv.gz` and
//! `x.jsonl.zst` pick the format and the compression; an explicit
//! `--format` wins; an interrupted run leaves no file; Parquet goes to a
//! pipe but not to a terminal.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use parquet::basic::{LogicalType, Repetition, Type as Physical};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::Field;

use crate::util::*;

/// A Parquet file's column names and rows, every cell written as the CSV
/// writes it (null as empty), and each column's type.
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    types: Vec<(Physical, Repetition, Option<LogicalType>)>,
}

fn read_parquet(path: &Path) -> Table {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let header = schema
        .columns()
        .iter()
        .map(|c| c.name().to_string())
        .collect();
    let types = schema
        .columns()
        .iter()
        .map(|c| {
            let t = c.self_type();
            (
                c.physical_type(),
                t.get_basic_info().repetition(),
                c.logical_type_ref().cloned(),
            )
        })
        .collect();
    let rows = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| {
            row.unwrap()
                .get_column_iter()
                .map(|(name, field)| match field {
                    Field::Null => String::new(),
                    // As the CSV writes them: ratings with one decimal,
                    // means with three.
                    Field::Double(x) if name.starts_with("mean_") => format!("{x:.3}"),
                    Field::Double(x) => format!("{x:.1}"),
                    Field::Long(n) => n.to_string(),
                    Field::Bool(b) => b.to_string(),
                    Field::Str(s) => s.clone(),
                    other => panic!("unexpected cell {other:?}"),
                })
                .collect()
        })
        .collect();
    Table {
        header,
        rows,
        types,
    }
}

/// Runs `args` once with `-o out.csv` and once with `-o out.parquet`
/// (the format inferred) and checks the two hold the same rows; returns
/// the Parquet table.
fn same_as_csv(args: &[&str], inputs: &[&Path]) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for name in ["out.csv", "out.parquet"] {
        let out = dir.path().join(name);
        let mut all = args.to_vec();
        all.extend(["-q", "-o", arg(&out)]);
        let r = run_paths(&all, inputs);
        assert!(
            r.code == 0 || r.code == 1,
            "{args:?} -o {name}: {}",
            r.stderr
        );
        assert!(r.stdout.is_empty());
        outputs.push((r.code, out));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "{args:?}: same exit code");
    let (header, rows) = parse_csv(&std::fs::read(&outputs[0].1).unwrap());
    let table = read_parquet(&outputs[1].1);
    assert_eq!(table.header, header, "{args:?}");
    assert!(!rows.is_empty(), "{args:?}: rows to compare");
    assert_eq!(table.rows.len(), rows.len(), "{args:?}");
    for (i, (got, want)) in table.rows.iter().zip(&rows).enumerate() {
        assert_eq!(got, want, "{args:?}: row {}", i + 1);
    }
    assert_eq!(
        names(dir.path()),
        ["out.csv", "out.parquet"],
        "no temporary file left"
    );
    table
}

#[test]
fn parquet_holds_the_csv_rows_of_every_command() {
    let statuses = fixture("statuses.txt");
    let sample = data("sample.txt");
    let kaggle = fixture("formats/kaggle.csv");
    // Invalid, unsolvable, unique and multiple rows; counted to 2; rated.
    let solve = same_as_csv(&["solve", "-k", "2"], &[&statuses]);
    assert!(solve.rows.iter().any(|r| r[3] == "invalid"));
    assert!(solve.rows.iter().any(|r| r[3] == "unsolvable"));
    assert!(solve.rows.iter().any(|r| r[3] == "multiple"));
    same_as_csv(&["solve"], &[&statuses, &sample]);
    let rated = same_as_csv(&["solve", "--difficulty"], &[&statuses]);
    assert!(rated.header.contains(&"singles".to_string()));
    same_as_csv(&["solve", "--keep-trailing"], &[&statuses]);
    let kept = same_as_csv(&["solve", "--keep-columns"], &[&kaggle]);
    assert_eq!(kept.header.last().unwrap(), "input_solutions");
    same_as_csv(&["score"], &[&statuses]);
    let rate = same_as_csv(&["rate", "--invariant", "2"], &[&statuses]);
    let er = rate.header.iter().position(|c| c == "er").unwrap();
    assert_eq!(rate.types[er].0, Physical::DOUBLE);
    assert!(rate
        .rows
        .iter()
        .any(|r| r[3] == "rated" && !r[er].is_empty()));
    same_as_csv(&["canon"], &[&statuses]);
    let dir = tempfile::tempdir().unwrap();
    let twice = write(
        dir.path(),
        "twice.txt",
        [std::fs::read(&statuses).unwrap(), crate::util::sample()]
            .concat()
            .repeat(2),
    );
    same_as_csv(&["dedupe"], &[&twice]);
    same_as_csv(&["overlap"], &[&twice, &statuses]);
    same_as_csv(&["generate", "-n", "20", "--seed", "3"], &[]);
}

/// Integers are INT64, text is STRING, ratings and means are DOUBLE, and a column is nullable exactly
/// where its CSV cell can be empty.
#[test]
fn parquet_columns_have_the_documented_types() {
    let table = same_as_csv(&["solve", "--difficulty"], &[&fixture("statuses.txt")]);
    let string = Some(LogicalType::String);
    let expect = [
        ("index", Physical::INT64, Repetition::REQUIRED, None),
        ("line", Physical::INT64, Repetition::REQUIRED, None),
        (
            "puzzle",
            Physical::BYTE_ARRAY,
            Repetition::OPTIONAL,
            string.clone(),
        ),
        (
            "status",
            Physical::BYTE_ARRAY,
            Repetition::REQUIRED,
            string.clone(),
        ),
        ("solutions", Physical::INT64, Repetition::OPTIONAL, None),
        (
            "solution",
            Physical::BYTE_ARRAY,
            Repetition::OPTIONAL,
            string.clone(),
        ),
        ("guesses", Physical::INT64, Repetition::REQUIRED, None),
        ("backtracks", Physical::INT64, Repetition::REQUIRED, None),
        ("singles", Physical::BOOLEAN, Repetition::OPTIONAL, None),
        ("error", Physical::BYTE_ARRAY, Repetition::OPTIONAL, string),
    ];
    assert_eq!(table.header, expect.iter().map(|e| e.0).collect::<Vec<_>>());
    for ((name, physical, repetition, logical), got) in expect.iter().zip(&table.types) {
        assert_eq!(&(*physical, *repetition, logical.clone()), got, "{name}");
    }
}

/// More rows than one row group holds: several groups, every row in order.
#[test]
fn large_outputs_are_cut_into_row_groups() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.parquet");
    // 80 000 generated puzzles at 1 attempt each take a few seconds.
    let r = run(
        &[
            "generate",
            "-q",
            "-n",
            "70000",
            "--seed",
            "1",
            "--min-clues",
            "30",
            "-o",
            arg(&out),
        ],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let meta = reader.metadata();
    assert_eq!(meta.file_metadata().num_rows(), 70_000);
    assert_eq!(meta.num_row_groups(), 2);
    assert_eq!(meta.row_group(0).num_rows(), 65_536);
}

/// `--no-header` is CSV's: a Parquet file still has its schema.
#[test]
fn no_header_leaves_parquet_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let statuses = fixture("statuses.txt");
    let with = dir.path().join("with.parquet");
    let without = dir.path().join("without.parquet");
    for (out, extra) in [(&with, None), (&without, Some("--no-header"))] {
        let mut args = vec!["solve", "-q", "-o", arg(out)];
        args.extend(extra);
        args.push(arg(&statuses));
        assert_eq!(run(&args, None).code, 1);
    }
    let (a, b) = (read_parquet(&with), read_parquet(&without));
    assert_eq!((a.header, a.rows), (b.header, b.rows));
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn o_infers_the_format_and_the_compression_from_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = fixture("statuses.txt");
    let plain = |format: &str| run_paths(&["solve", "-q", "--format", format], &[&input]).stdout;
    let to = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = vec!["solve", "-q", "-o", arg(&out)];
        args.extend_from_slice(extra);
        let r = run_paths(&args, &[&input]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        std::fs::read(out).unwrap()
    };
    let csv = plain("csv");
    let jsonl = plain("jsonl");
    assert!(jsonl.starts_with(b"{\"index\":1,"));
    assert_eq!(gunzip(&to("out.csv.gz", &[])), csv);
    assert_eq!(
        zstd::decode_all(&to("out.jsonl.zst", &[])[..]).unwrap(),
        jsonl
    );
    assert_eq!(to("out.jsonl", &[]), jsonl);
    assert_eq!(to("out.CSV", &[]), csv);
    assert_eq!(to("out.txt", &[]), csv, "an unknown extension: the default");
    // An explicit --format wins over the extension.
    assert_eq!(to("explicit.csv", &["--format", "jsonl"]), jsonl);
    assert_eq!(
        gunzip(&to("explicit.parquet.gz", &["--format", "csv"])),
        csv
    );
    // Parquet, compressed again: a gzip of the same file.
    let parquet = to("out.parquet", &[]);
    assert!(parquet.starts_with(b"PAR1") && parquet.ends_with(b"PAR1"));
    let gz = gunzip(&to("out.parquet.gz", &[]));
    assert!(gz.starts_with(b"PAR1") && gz.ends_with(b"PAR1"));
    // generate infers too (its default is line).
    let g = dir.path().join("g.csv");
    let r = run(
        &["generate", "-q", "-n", "3", "--seed", "1", "-o", arg(&g)],
        None,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::read_to_string(&g)
        .unwrap()
        .starts_with("puzzle,solution\n"));
    let files = names(dir.path());
    assert!(files.iter().all(|n| !n.ends_with(".tmp")), "{files:?}");
}

/// A compressed output is still refused when it is one of the inputs.
#[test]
fn a_compressed_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, EASY.as_bytes()).unwrap();
    std::fs::write(&input, gz.finish().unwrap()).unwrap();
    let before = std::fs::read(&input).unwrap();
    let r = run(&["solve", "-q", arg(&input), "-o", arg(&input)], None);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("both an input and an output"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// Parquet goes to a pipe (a whole file), but not to a terminal.
#[test]
fn parquet_to_stdout_only_when_not_a_terminal() {
    let piped = run_paths(
        &["solve", "-q", "--format", "parquet"],
        &[&fixture("statuses.txt")],
    );
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    assert!(piped.stdout.starts_with(b"PAR1") && piped.stdout.ends_with(b"PAR1"));

    let (_master, terminal) = pseudo_terminal();
    let out = command(&[
        "solve",
        "-q",
        "--format",
        "parquet",
        arg(&fixture("statuses.txt")),
    ])
    .stdout(terminal)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("will not write a binary file to a terminal"),
        "{stderr}"
    );
}

/// A pseudo-terminal: (its master, its slave opened for writing).
fn pseudo_terminal() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    // SAFETY: plain libc calls on a descriptor we own; ptsname's buffer is
    // copied before any other call.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let name = std::ffi::CStr::from_ptr(libc::ptsname(master))
            .to_string_lossy()
            .into_owned();
        let master = std::fs::File::from_raw_fd(master);
        let slave = std::fs::OpenOptions::new().write(true).open(name).unwrap();
        (master, slave)
    }
}

/// An interrupted Parquet or compressed run leaves no file: the footer
/// and the compressed stream's end are written only when the run
/// completes, then the file is renamed.
#[test]
fn interrupted_parquet_and_compressed_runs_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "big.txt", sample().repeat(300));
    for name in ["out.parquet", "out.csv.gz"] {
        let out_dir = tempfile::tempdir().unwrap();
        let out = out_dir.path().join(name);
        let mut child = command(&[
            "solve",
            "-q",
            "-j",
            "1",
            "-k",
            "2",
            "-o",
            arg(&out),
            arg(&input),
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
        wait_until(Duration::from_secs(30), "the output opened", || {
            assert!(child.try_wait().unwrap().is_none(), "the run ended early");
            !temp_files(out_dir.path()).is_empty()
        });
        std::thread::sleep(Duration::from_millis(200));
        signal(&child, libc::SIGINT);
        let status = exits_within(&mut child, Duration::from_secs(20));
        assert_eq!(status.code(), Some(130), "{name}");
        assert_eq!(
            names(out_dir.path()),
            Vec::<String>::new(),
            "{name} left a file"
        );
    }
}

/// `split --format parquet` writes the rows of `-o` in Parquet; the part
/// files of `--output-dir` keep the input's layout (lines here), so
/// `--format` without `-o` is refused, and nothing reaches stdout.
#[test]
fn split_rows_in_parquet_go_to_o_and_parts_keep_the_input_layout() {
    let dir = tempfile::tempdir().unwrap();
    let sample = data("sample.txt");
    let all = dir.path().join("all.csv");
    let r = run_paths(&["split", "-q", "-o", arg(&all)], &[&sample]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (h, rows) = parse_csv(&std::fs::read(&all).unwrap());
    let parts = dir.path().join("parts");
    let mut args = vec![
        "split",
        "-q",
        "--format",
        "parquet",
        "--output-dir",
        arg(&parts),
    ];
    let r = run_paths(&args, &[&sample]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--format parquet"), "{}", r.stderr);
    assert!(r.stdout.is_empty() && !parts.exists());
    let rows_parquet = dir.path().join("all.parquet");
    args.extend(["-o", arg(&rows_parquet)]);
    let r = run_paths(&args, &[&sample]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "nothing on stdout");
    let written = read_parquet(&rows_parquet);
    assert_eq!((written.header, written.rows), (h.clone(), rows.clone()));
    let lines = std::fs::read_to_string(&sample).unwrap();
    let lines: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#')).collect();
    for name in ["train", "valid", "test"] {
        let part = std::fs::read_to_string(parts.join(format!("{name}.txt"))).unwrap();
        let wanted: Vec<&str> = rows
            .iter()
            .filter(|row| row[col(&h, "split")] == name)
            .map(|row| lines[row[col(&h, "index")].parse::<usize>().unwrap() - 1])
            .collect();
        assert!(!wanted.is_empty(), "{name}");
        assert_eq!(part.lines().collect::<Vec<_>>(), wanted, "{name}");
    }
}

/// A complete grid's `hardest` and `techniques` are null in Parquet, as in
/// JSON lines (empty in CSV): it takes no step, so no technique.
#[test]
fn a_complete_grid_has_null_technique_cells() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "in.txt", format!("{SOLVED}\n{EASY}\n"));
    let out = dir.path().join("r.parquet");
    let r = run_paths(&["rate", "-q", "-o", arg(&out)], &[&input]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let rows: Vec<_> = reader
        .get_row_iter(None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let cell = |row: usize, name: &str| {
        rows[row]
            .get_column_iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, f)| f.clone())
            .unwrap()
    };
    assert_eq!(cell(0, "hardest"), Field::Null);
    assert_eq!(cell(0, "techniques"), Field::Null);
    assert_eq!(cell(0, "steps"), Field::Long(0));
    assert_eq!(cell(0, "er"), Field::Double(0.0));
    assert_eq!(cell(1, "hardest"), Field::Str("hidden single".into()));
}

/// `rows` with its line-number columns (`line`, `train_line`...; not the
/// kept `input_` ones) one less: a CSV input's header is its line 1, a
/// Parquet input's line is its row number.
fn lines_as_rows(header: &[String], rows: &mut [Vec<String>]) {
    for (i, name) in header.iter().enumerate() {
        if (name == "line" || name.ends_with("_line")) && !name.starts_with("input_") {
            for row in rows.iter_mut() {
                if let Ok(n) = row[i].parse::<u64>() {
                    row[i] = (n - 1).to_string();
                }
            }
        }
    }
}

/// An error cell of the CSV's as it reads for the Parquet: `d.csv:213:`
/// is `d.parquet:212:`.
fn renamed(cell: &str, csv: &Path, pq: &Path) -> String {
    let from = format!("{}:", arg(csv));
    match cell.split_once(&from) {
        Some((before, after)) => {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let line: u64 = after[..digits].parse().unwrap();
            format!("{before}{}:{}{}", arg(pq), line - 1, &after[digits..])
        }
        None => cell.to_owned(),
    }
}

/// Runs `args` (`DATA` standing for the input) on `csv` and on each of
/// `parquets`, and checks every one gives the CSV's rows (line numbers
/// as row numbers) and exit code.
fn reads_as_csv(args: &[&str], csv: &Path, parquets: &[&Path]) {
    let with = |data: &Path| -> Vec<String> {
        args.iter()
            .map(|a| if *a == "DATA" { arg(data) } else { a }.to_owned())
            .collect()
    };
    let go = |data: &Path| {
        let all = with(data);
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let r = run(&all, None);
        assert!(r.code == 0 || r.code == 1, "{all:?}: {}", r.stderr);
        r
    };
    let want = go(csv);
    let (header, mut rows) = want.csv();
    lines_as_rows(&header, &mut rows);
    assert!(!rows.is_empty(), "{args:?}: rows to compare");
    for pq in parquets {
        let got = go(pq);
        assert_eq!(got.code, want.code, "{args:?} on {pq:?}: {}", got.stderr);
        let (h, r) = got.csv();
        assert_eq!(h, header, "{args:?} on {pq:?}");
        assert_eq!(r.len(), rows.len(), "{args:?} on {pq:?}");
        for (i, (got, want)) in r.iter().zip(&rows).enumerate() {
            let want: Vec<String> = want.iter().map(|c| renamed(c, csv, pq)).collect();
            assert_eq!(got, &want, "{args:?} on {pq:?}: row {}", i + 1);
        }
    }
}

/// Parquet is an input format: what `solve -o x.parquet` writes, read
/// back (as it is, gzipped, or on stdin) by every command, gives the rows
/// the same data gives as CSV (a record's line is its row number), its
/// puzzle and expected-solution columns found as in CSV, named columns
/// and kept columns as in CSV.
#[test]
fn parquet_input_reads_as_the_same_data_in_csv() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let mut input = sample();
    input.extend_from_slice(b"not a puzzle\n");
    let src = write(dir.path(), "in.txt", input);
    let csv = dir.path().join("d.csv");
    let pq = dir.path().join("d.parquet");
    for (out, format) in [(&csv, "csv"), (&pq, "parquet")] {
        let r = run_paths(
            &["solve", "-q", "--format", format, "-o", arg(out)],
            &[&src],
        );
        assert_eq!(r.code, 1, "{}", r.stderr); // the invalid record
    }
    let bytes = std::fs::read(&pq).unwrap();
    assert!(bytes.starts_with(b"PAR1"));
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&bytes).unwrap();
    let gz = write(dir.path(), "d.parquet.gz", enc.finish().unwrap());
    let both = [pq.as_path(), gz.as_path()];
    let commands: [&[&str]; 9] = [
        &["solve", "-q", "DATA"],
        &["solve", "-q", "--keep-columns", "DATA"],
        &[
            "solve",
            "-q",
            "--column",
            "puzzle",
            "--expected-column",
            "solution",
            "DATA",
        ],
        &["score", "-q", "DATA"],
        &["canon", "-q", "DATA"],
        &["dedupe", "-q", "DATA"],
        &["overlap", "-q", "DATA", "DATA"],
        &["split", "-q", "DATA"],
        &["split", "-q", "--by", "grid", "--keep-columns", "DATA"],
    ];
    for args in &commands {
        reads_as_csv(args, &csv, &both);
    }
    // The same rows through a pipe, and Parquet written from Parquet.
    let piped = run(&["solve", "-q", "-"], Some(&bytes));
    let from_file = run(&["solve", "-q", arg(&pq)], None);
    assert_eq!(piped.code, 1, "{}", piped.stderr);
    let named = piped.stdout_str().replace("<stdin>", arg(&pq));
    assert!(
        named == from_file.stdout_str(),
        "piped Parquet reads as the file"
    );
    let again = run(
        &["solve", "-q", "--format", "parquet", "-o", "-", arg(&pq)],
        None,
    );
    assert_eq!(again.code, 1, "{}", again.stderr);
    let reread = run(&["solve", "-q", "-"], Some(&again.stdout));
    assert!(reread.stdout == piped.stdout, "Parquet from Parquet");
    // report: the same page, but for the input's name, size and timings.
    let page = |data: &Path| {
        let out = dir.path().join("page.md");
        let r = run(&["report", "-q", "-o", arg(&out), arg(data)], None);
        assert_eq!(r.code, 1, "the invalid record: {}", r.stderr);
        let text = std::fs::read_to_string(&out).unwrap();
        let name = data.file_name().unwrap().to_str().unwrap().to_owned();
        text.lines()
            .filter(|l| {
                !l.contains(&name) && !l.contains(" records/s") && !l.contains("command line")
            })
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(page(&pq), page(&csv));
    let r = run(&["bench", "--min-time", "0.01", arg(&pq)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A Kaggle-layout Parquet file as another tool writes it (`quizzes` and
/// `solutions` as strings with `0` blanks, an integer id, a nullable
/// double): read as the same table in CSV is, its columns found by name,
/// the corrupted answer a mismatch, the other columns kept.
#[test]
fn parquet_from_other_writers_reads_as_its_csv() {
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    let dir = tempfile::tempdir().unwrap();
    let kaggle = std::fs::read_to_string(fixture("formats/kaggle.csv")).unwrap();
    let mut quizzes = Vec::new();
    let mut solutions = Vec::new();
    for line in kaggle.lines().skip(1) {
        let (q, s) = line.split_once(',').unwrap();
        quizzes.push(q.to_owned());
        solutions.push(s.to_owned());
    }
    // One answer corrupted on purpose.
    let s0 = &mut solutions[0];
    let swapped = if s0.starts_with('1') { "2" } else { "1" };
    s0.replace_range(0..1, swapped);
    let n = quizzes.len();
    let ids: Vec<i64> = (0..n as i64).map(|i| 1000 + i).collect();
    let scores: Vec<f64> = (0..n)
        .filter(|i| i % 2 == 0)
        .map(|i| i as f64 + 0.5)
        .collect();
    let def_levels: Vec<i16> = (0..n).map(|i| i16::from(i % 2 == 0)).collect();
    let mut csv = String::from("id,quizzes,solutions,score\n");
    for i in 0..n {
        let score = if i % 2 == 0 {
            format!("{}.5", i)
        } else {
            String::new()
        };
        csv.push_str(&format!(
            "{},{},{},{score}\n",
            ids[i], quizzes[i], solutions[i]
        ));
    }
    let csv = write(dir.path(), "k.csv", csv);
    let schema = Arc::new(
        parse_message_type(
            "message schema { REQUIRED INT64 id; REQUIRED BYTE_ARRAY quizzes (UTF8); \
             REQUIRED BYTE_ARRAY solutions (UTF8); OPTIONAL DOUBLE score; }",
        )
        .unwrap(),
    );
    let pq = dir.path().join("k.parquet");
    let file = std::fs::File::create(&pq).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, schema, Arc::new(WriterProperties::builder().build()))
            .unwrap();
    let mut group = writer.next_row_group().unwrap();
    let strings = |v: &[String]| {
        v.iter()
            .map(|s| ByteArray::from(s.as_str()))
            .collect::<Vec<_>>()
    };
    let mut col = group.next_column().unwrap().unwrap();
    col.typed::<Int64Type>()
        .write_batch(&ids, None, None)
        .unwrap();
    col.close().unwrap();
    for values in [strings(&quizzes), strings(&solutions)] {
        let mut col = group.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>()
            .write_batch(&values, None, None)
            .unwrap();
        col.close().unwrap();
    }
    let mut col = group.next_column().unwrap().unwrap();
    col.typed::<DoubleType>()
        .write_batch(&scores, Some(&def_levels), None)
        .unwrap();
    col.close().unwrap();
    group.close().unwrap();
    writer.close().unwrap();

    let pq = pq.as_path();
    reads_as_csv(&["solve", "-q", "DATA"], &csv, &[pq]);
    reads_as_csv(&["solve", "-q", "--keep-columns", "DATA"], &csv, &[pq]);
    reads_as_csv(&["solve", "-q", "--column", "QUIZZES", "DATA"], &csv, &[pq]);
    reads_as_csv(&["split", "-q", "--keep-columns", "DATA"], &csv, &[pq]);
    let r = run(&["solve", "-q", "--keep-columns", arg(pq)], None);
    let (h, rows) = r.csv();
    let expected = column(&h, &rows, "expected");
    // Ours, and the fixture's own corrupted answer (its third row).
    assert_eq!(expected, ["mismatch", "match", "mismatch", "match"]);
    assert_eq!(column(&h, &rows, "status"), vec!["solved"; n]);
    assert_eq!(column(&h, &rows, "id")[1], "1001");
    assert_eq!(column(&h, &rows, "score")[..2], ["0.5", ""]);
    // In JSON lines, kept values keep their Parquet types.
    let r = run(
        &[
            "solve",
            "-q",
            "--format",
            "jsonl",
            "--keep-columns",
            arg(pq),
        ],
        None,
    );
    let first: Vec<serde_json::Value> = r
        .stdout_str()
        .lines()
        .take(2)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(first[0]["id"], 1000);
    assert_eq!(first[0]["score"], 0.5);
    assert_eq!(first[1]["score"], serde_json::Value::Null);
    assert_eq!(first[1]["line"], 2);
}

/// `rate --path` to Parquet: the path is an optional list of structs
/// `{technique, rating, placements, eliminations, text}` (the moves lists
/// of strings), holding what JSON lines write, row for row: serate's steps
/// with their sentences, an empty list for a complete grid, null for a
/// row that is not rated.
#[test]
fn the_path_is_a_list_of_step_structs() {
    let text =
        std::fs::read_to_string(root().join("crates/rate/tests/fixtures/rate/paths.tsv")).unwrap();
    let mut puzzles: Vec<&str> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let puzzle = line.split('\t').next().unwrap();
        if puzzles.last() != Some(&puzzle) {
            puzzles.push(puzzle);
        }
    }
    // Puzzles with chains and uniqueness steps among the first ones, quick
    // to rate; an invalid record and a complete grid.
    let mut input: String = puzzles[..6].iter().map(|p| format!("{p}\n")).collect();
    input.push_str(&format!("not a puzzle\n{SOLVED}\n"));
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "in.txt", &input);
    let out = dir.path().join("out.parquet");
    let r = run_paths(&["rate", "-q", "--path", "-o", arg(&out)], &[&path]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let json = run_paths(&["rate", "-q", "--path", "--format", "jsonl"], &[&path]);
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let schema = reader.metadata().file_metadata().schema();
    let field = schema
        .get_fields()
        .iter()
        .find(|f| f.name() == "path")
        .unwrap();
    let info = field.get_basic_info();
    assert_eq!(
        (info.repetition(), info.logical_type_ref()),
        (Repetition::OPTIONAL, Some(&LogicalType::List))
    );
    let leaves: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .filter(|c| c.path().parts()[0] == "path")
        .map(|c| c.path().string())
        .collect();
    assert_eq!(
        leaves,
        [
            "path.list.element.technique",
            "path.list.element.rating",
            "path.list.element.placements.list.element",
            "path.list.element.eliminations.list.element",
            "path.list.element.text",
        ]
    );
    let rows: Vec<serde_json::Value> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|row| row_json(&row.unwrap()))
        .collect();
    let lines: Vec<serde_json::Value> = json
        .stdout_str()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len());
    for (got, want) in rows.iter().zip(&lines) {
        assert_eq!(got["path"], want["path"], "{}", want["puzzle"]);
    }
    let steps: usize = rows
        .iter()
        .filter_map(|r| r["path"].as_array())
        .map(Vec::len)
        .sum();
    assert!(steps > 300, "{steps} steps");
    assert!(rows[6]["path"].is_null(), "not rated");
    assert_eq!(rows[7]["path"], serde_json::json!([]), "no step");
}

/// A Parquet row as JSON: groups as objects, lists as arrays.
fn row_json(row: &parquet::record::Row) -> serde_json::Value {
    serde_json::Value::Object(
        row.get_column_iter()
            .map(|(name, field)| (name.clone(), field_json(field)))
            .collect(),
    )
}

fn field_json(field: &Field) -> serde_json::Value {
    match field {
        Field::Null => serde_json::Value::Null,
        Field::Str(s) => s.as_str().into(),
        Field::Double(x) => (*x).into(),
        Field::Long(n) => (*n).into(),
        Field::Bool(b) => (*b).into(),
        Field::Group(row) => row_json(row),
        Field::ListInternal(list) => list.elements().iter().map(field_json).collect(),
        other => panic!("unexpected cell {other:?}"),
    }
}
