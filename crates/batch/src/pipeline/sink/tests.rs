//! Unit tests of sinks: atomic files, devices, FIFOs and links written
//! in place or followed, compression, and what `Flushed` keeps.

use super::*;

#[test]
fn file_appears_only_when_finished() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let mut sink = Sink::file(&path).unwrap();
    sink.write_all(b"a,b\n").unwrap();
    assert!(!path.exists());
    sink.finish().unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"a,b\n");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "temp file left behind"
    );
}

#[test]
fn dropped_sink_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let mut sink = Sink::file(&path).unwrap();
    sink.write_all(b"partial").unwrap();
    drop(sink);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `-o /dev/null` must write to the device, never rename a file over
/// it (which, run as root, replaces /dev/null with a regular file).
/// Only the choice is checked here, without finishing, so a regression
/// cannot damage the machine running the tests.
#[cfg(unix)]
#[test]
fn devices_are_written_in_place() {
    let sink = Sink::file(Path::new("/dev/null")).unwrap();
    assert!(
        matches!(sink.target(), Some(Target::Special(_))),
        "{sink:?}"
    );
}

/// A FIFO stays a FIFO and its reader gets the rows.
#[cfg(unix)]
#[test]
fn fifos_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("rows");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    let mut sink = Sink::file(&fifo).unwrap();
    sink.write_all(b"a,b\n").unwrap();
    sink.finish().unwrap();
    assert_eq!(reader.join().unwrap(), b"a,b\n");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
}

/// A symbolic link keeps pointing at the file, which gets the rows.
#[cfg(unix)]
#[test]
fn symlinks_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.csv");
    let link = dir.path().join("link.csv");
    fs::write(&target, b"old").unwrap();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut sink = Sink::file(&link).unwrap();
    sink.write_all(b"new").unwrap();
    sink.finish().unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(&target).unwrap(), b"new");
}

/// A dangling link creates its target, relative to the link's
/// directory, and stays a link.
#[cfg(unix)]
#[test]
fn dangling_symlinks_create_their_target() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("sub/real.csv", &link).unwrap();
    let mut sink = Sink::file(&link).unwrap();
    sink.write_all(b"rows").unwrap();
    sink.finish().unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(dir.path().join("sub/real.csv")).unwrap(), b"rows");
}

/// Flushed but not persisted: nothing under the final name, nothing
/// left when dropped.
#[test]
fn flushed_is_kept_only_when_persisted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv");
    let mut sink = Sink::file(&path).unwrap();
    sink.write_all(b"a").unwrap();
    let flushed = sink.flush_all().unwrap();
    assert!(!path.exists());
    drop(flushed);
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// `.zst` output works with the `zstd` feature and is a clear error
/// without it; gzip always works.
#[test]
fn zstd_output_needs_its_feature() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.csv.zst");
    let sink = Sink::file(&path).unwrap().compress(Compression::Zstd);
    #[cfg(feature = "zstd")]
    {
        let mut sink = sink.unwrap();
        sink.write_all(b"a,b\n").unwrap();
        sink.finish().unwrap();
        assert_eq!(
            zstd::decode_all(fs::File::open(&path).unwrap()).unwrap(),
            b"a,b\n"
        );
    }
    #[cfg(not(feature = "zstd"))]
    assert!(sink.unwrap_err().to_string().contains("`zstd` feature"));
    let gz = dir.path().join("out.csv.gz");
    let mut sink = Sink::file(&gz)
        .unwrap()
        .compress(Compression::Gzip)
        .unwrap();
    sink.write_all(b"a,b\n").unwrap();
    sink.finish().unwrap();
    let mut text = Vec::new();
    io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(fs::File::open(&gz).unwrap()),
        &mut text,
    )
    .unwrap();
    assert_eq!(text, b"a,b\n");
}

/// Parquet needs the `parquet` feature; with it, a sink told twice
/// (two passes) stays one Parquet file.
#[test]
fn parquet_needs_its_feature() {
    let dir = tempfile::tempdir().unwrap();
    let mut sink = Sink::file(&dir.path().join("out.parquet")).unwrap();
    let first = sink.set_format(OutputFormat::Parquet);
    #[cfg(feature = "parquet")]
    {
        first.unwrap();
        sink.set_format(OutputFormat::Parquet).unwrap();
        // No schema was written: finishing says so, and keeps nothing.
        let err = sink.flush_all().unwrap_err();
        assert!(err.to_string().contains("no schema"), "{err}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    }
    #[cfg(not(feature = "parquet"))]
    assert!(first.unwrap_err().to_string().contains("`parquet` feature"));
    // The text formats need nothing.
    let mut csv = Sink::file(&dir.path().join("out.csv")).unwrap();
    csv.set_format(OutputFormat::Csv).unwrap();
}

#[test]
fn missing_directory_fails_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no/such/dir/out.csv");
    assert!(Sink::file(&path).is_err());
}
