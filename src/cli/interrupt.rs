//! Interruption: Ctrl-C raises the quit flag the pipeline polls; the run
//! then stops, removes its temporary files and exits 130. A second Ctrl-C
//! exits at once, removing every registered temporary file itself.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::exit::Exit;

/// Raised by the first Ctrl-C; the pipeline stops at the next batch.
static QUIT: AtomicBool = AtomicBool::new(false);
/// Temporary files to remove when the process exits on a signal.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Installs the Ctrl-C handler.
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if QUIT.swap(true, Ordering::SeqCst) {
            remove_temporary();
            std::process::exit(i32::from(Exit::Interrupted));
        }
    });
}

/// The quit flag the pipeline polls.
pub fn flag() -> &'static AtomicBool {
    &QUIT
}

/// The exit code of a run that stopped on the quit flag.
pub fn exit() -> Exit {
    Exit::Interrupted
}

/// Registers a temporary file, removed if the process exits on a signal.
pub fn register(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        paths.push(path.to_path_buf());
    }
}

/// Removes every registered temporary file.
fn remove_temporary() {
    if let Ok(paths) = TEMPORARY.lock() {
        for path in paths.iter() {
            let _ = std::fs::remove_file(path);
        }
    }
}
