//! The hot loop never allocates: a counting global allocator checks that,
//! once a worker's solver and encoder exist, solving, counting, scoring,
//! rating, encoding rows and canonical forms perform zero heap
//! allocations, and that reading records (lines, CSV, JSON lines with
//! kept columns) allocates nothing per record once the reader's buffers
//! have grown. (Its own test binary, because it replaces the global
//! allocator.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use std::sync::Arc;

use batchdoku_batch::{
    fill_row, Column, EngineKind, Job, OutputFormat, Position, RateJob, Row, RowEncoder, SolveJob,
};
use batchdoku_core::{
    parse_line, Canonicalizer, Engine, Grid, InputFormat, ReadOptions, Record, RecordReader,
    ScoreOptions, Solver, Weights,
};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded to `System` unchanged; counting touches
// only an atomic and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract
        // (`layout` has a non-zero size), which is `System.alloc`'s own.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: every block this allocator hands out comes from `System`
        // unchanged, so `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` came from `System` with `layout` (every block here
        // does), and the caller upholds `realloc`'s contract on `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const PUZZLES: &str = include_str!("../data/sample.txt");

fn puzzles() -> Vec<Grid> {
    PUZZLES
        .lines()
        .map(|l| parse_line(l.as_bytes()).unwrap())
        .collect()
}

/// Allocations made while `f` runs (this binary has a single test, so no
/// other test thread allocates meanwhile).
fn allocations_during(f: impl FnOnce()) -> u64 {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

#[test]
fn solving_and_encoding_do_not_allocate() {
    // One test function so no other test thread allocates meanwhile.
    let probe = allocations_during(|| {
        std::hint::black_box(vec![1u8; 10]);
    });
    assert!(probe >= 1, "the counting allocator does not count");
    let puzzles = puzzles();
    let mut solver = Solver::new();
    // Every column a row can have, rating and canonical ones included.
    let mut columns = SolveJob::COLUMNS.to_vec();
    columns.extend([
        Column::Backtracks,
        Column::Singles,
        Column::Canonical,
        Column::Transform,
        Column::Dropped,
        Column::Kept(0),
    ]);
    let kept_names = ["rating".to_string()];
    let mut record = Record::default();
    record.kept.extend_from_slice(b"9,5");
    record.kept_ends.push(3);
    let mut csv = RowEncoder::new(OutputFormat::Csv, &columns, &kept_names);
    let mut jsonl = RowEncoder::new(OutputFormat::Jsonl, &columns, &kept_names);
    let mut row = Row::default();
    let mut out = Vec::with_capacity(1 << 20);
    // The job of `solve -k 10 --rate`, on its worker's scratch, as the
    // pipeline runs it; a malformed record between the puzzles writes its
    // error with its position.
    let job = SolveJob {
        count_limit: 10,
        engine: EngineKind::Mrv,
        difficulty: true,
    };
    let mut scratch = job.scratch();
    let source: Arc<str> = Arc::from("input.txt");
    let malformed = parse_line(b"12x");
    let mut each = |i: usize, p: &Grid, out: &mut Vec<u8>| {
        let first = solver.solve_first(p).unwrap();
        let only = solver.count_solutions_only(p, 2).unwrap();
        let at = Position {
            source: &source,
            line: i as u64 + 1,
            index: i as u64 + 1,
        };
        fill_row(&job, &mut scratch, Ok(p), &record, &at, &mut row);
        row.canonical = row.solution;
        row.transform = Some(Default::default());
        row.dropped = Some(i as u64);
        csv.encode(&row, &record, out).unwrap();
        jsonl.encode(&row, &record, out).unwrap();
        let counted = row.solutions;
        fill_row(
            &job,
            &mut scratch,
            malformed.as_ref(),
            &record,
            &at,
            &mut row,
        );
        csv.encode(&row, &record, out).unwrap();
        jsonl.encode(&row, &record, out).unwrap();
        first.solutions + only.solutions + counted
    };
    // Warm-up: buffers reach their working size.
    for (i, p) in puzzles.iter().enumerate() {
        each(i, p, &mut out);
    }
    out.clear();
    let mut found = 0;
    let n = allocations_during(|| {
        for (i, p) in puzzles.iter().enumerate() {
            found += each(i, p, &mut out);
        }
    });
    assert!(found > puzzles.len() as u64);
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains(",input.txt:2: bad character 'x' at column 3"),
        "{text}"
    );

    // Scored search (branch-and-bound): everything lives in the visitor.
    let weights = Weights::target();
    let opts = ScoreOptions::default();
    let mut best_sum = 0;
    let n_score = allocations_during(|| {
        for p in &puzzles {
            let out = batchdoku_core::score(&mut solver, p, &weights, &opts).unwrap();
            best_sum += out.best.map_or(0, |b| b.0);
        }
    });
    assert!(best_sum > 0);
    assert_eq!(n_score, 0, "{n_score} heap allocations in scored search");

    // Canonical forms: buffers grow on the first pass only. The puzzles'
    // solutions take the complete-grid path.
    let mut grids = puzzles.clone();
    grids.extend(
        puzzles
            .iter()
            .filter_map(|p| solver.solve_first(p).ok()?.solution),
    );
    assert!(grids.len() > puzzles.len());
    let mut canon = Canonicalizer::new();
    for p in &grids {
        canon.canonical(p);
    }
    let mut forms = 0;
    let n_canon = allocations_during(|| {
        for p in &grids {
            forms += canon.canonical(p).0.given_count();
        }
    });
    assert!(forms > 0);
    assert_eq!(n_canon, 0, "{n_canon} heap allocations in canonical forms");
    assert!(out.len() < 1 << 20, "output buffer outgrew its capacity");
    assert_eq!(n, 0, "{n} heap allocations in the hot loop");

    // Rating (`rate --path`): the ladder up to nested forcing chains (the
    // last puzzle, ER 10.4, needs them) keeps its working memory per
    // worker, the row its path buffer, and the path is written in every
    // format with each step's sentence.
    let rate = RateJob {
        path: true,
        ..RateJob::default()
    };
    let mut rate_scratch = rate.scratch();
    let mut rate_columns = RateJob::COLUMNS.to_vec();
    rate_columns.push(Column::Path);
    let mut rate_encoders = [
        OutputFormat::Csv,
        OutputFormat::Jsonl,
        OutputFormat::Parquet,
    ]
    .map(|format| RowEncoder::new(format, &rate_columns, &[]));
    let mut rated: Vec<Grid> = puzzles.iter().skip(10).take(30).cloned().collect();
    rated.push(
        parse_line(
            b"...4......5..8.2.6.....71..2...4....3......1...5.3.8.25...6.3.8..6....9...8......",
        )
        .unwrap(),
    );
    let mut rate_each = |i: usize, p: &Grid| {
        let at = Position {
            source: &source,
            line: i as u64 + 1,
            index: i as u64 + 1,
        };
        fill_row(&rate, &mut rate_scratch, Ok(p), &record, &at, &mut row);
        out.clear();
        for encoder in &mut rate_encoders {
            encoder.encode(&row, &record, &mut out).unwrap();
        }
        assert_eq!(Some(row.path.len() as u32), row.ratings.map(|r| r.steps));
        row.ratings.map_or(0, |r| u32::from(r.er))
    };
    for (i, p) in rated.iter().enumerate() {
        rate_each(i, p);
    }
    let mut ers = Vec::with_capacity(rated.len());
    let n_rate = allocations_during(|| {
        for (i, p) in rated.iter().enumerate() {
            ers.push(rate_each(i, p));
        }
    });
    assert_eq!(ers.last(), Some(&104), "the nested puzzle is rated 10.4");
    assert!(
        ers.iter().all(|&er| er > 0),
        "every puzzle is rated: {ers:?}"
    );
    assert_eq!(n_rate, 0, "{n_rate} heap allocations in rating");
    // Reading: the same 211 puzzles four times over, in each layout; the
    // first half warms the reader's buffers, the second half is counted.
    let lines: Vec<&str> = PUZZLES.lines().collect();
    let repeat = || lines.iter().cycle().take(4 * lines.len()).enumerate();
    let line_text: String = repeat().map(|(_, l)| format!("{l}\n")).collect();
    let csv_text: String = std::iter::once("id,quizzes,note\n".to_string())
        .chain(repeat().map(|(i, l)| format!("{i},{l},\"a, b\"\n")))
        .collect();
    let json_text: String = repeat()
        .map(|(i, l)| format!("{{\"id\":{i},\"puzzle\":\"{l}\",\"tags\":[[1],{{\"x\":null}}],\"note\":\"plain\"}}\n"))
        .collect();
    for (name, text, format) in [
        ("lines", &line_text, InputFormat::Line),
        ("CSV", &csv_text, InputFormat::Csv),
        ("JSON lines", &json_text, InputFormat::Jsonl),
    ] {
        let options = ReadOptions {
            format,
            keep_columns: format != InputFormat::Line,
            ..ReadOptions::default()
        };
        let mut reader =
            RecordReader::with_options(std::io::Cursor::new(text.as_bytes()), &options).unwrap();
        let mut record = Record::default();
        let half = 2 * lines.len();
        for _ in 0..half {
            assert!(reader.read_record(&mut record).unwrap());
        }
        // Kept fields written back as CSV cells: JSON strings as their text.
        let names = reader
            .kept_names()
            .map(<[String]>::to_vec)
            .unwrap_or_default();
        let kept: Vec<Column> = (0..names.len() as u16).map(Column::Kept).collect();
        let mut cells = RowEncoder::new(OutputFormat::Csv, &kept, &names);
        out.clear();
        let mut valid = 0;
        let n_read = allocations_during(|| {
            while reader.read_record(&mut record).unwrap() {
                valid += usize::from(record.puzzle.is_ok());
                cells.encode(&row, &record, &mut out).unwrap();
            }
        });
        if format == InputFormat::Jsonl {
            let first =
                String::from_utf8_lossy(&out[..out.iter().position(|&b| b == b'\n').unwrap()]);
            assert_eq!(first, r#"422,"[[1],{""x"":null}]",plain"#);
        }
        assert_eq!(valid, half, "{name}");
        assert_eq!(n_read, 0, "{n_read} heap allocations reading {name}");
    }
}
