//! Stopping on a signal, and never leaving a temporary file behind
//! however the process ends.
//!
//! Every signal whose default action ends the process and that can be
//! caught ([`TERMINATING`]: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1,
//! SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, ...) is handled alike,
//! by a dedicated thread (`signal-hook`), so that stopping never depends
//! on the rest of the process making progress:
//!
//! 1. the first signal raises the quit flag the pipeline polls; a run that
//!    notices it stops, drops its output and exits 128 + the signal's
//!    number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP) on its own;
//! 2. a run that has not ended after a short grace period (a reader
//!    blocked on an idle terminal or a stalled pipe, stdin being spooled,
//!    one slow record), or a second signal, ends the process from the
//!    signal thread: every registered temporary file (the `-o` temporary
//!    file, a stdin spool) is removed, then the process exits with the
//!    same code.
//!
//! Keeping a finished output ([`commit`]) and that exit exclude each other,
//! so a signal never leaves a half-renamed output nor removes a kept one.
//! Once the output is kept the run has completed: a signal that ends the
//! process after that (say while the summary waits on a blocked stderr)
//! exits with the completed run's code, not the signal's.
//!
//! Two more ways to die are turned into an ordinary ending:
//!
//! - SIGXFSZ (a write past `ulimit -f`) is ignored, so the write fails
//!   with EFBIG and the run ends as with any unwritable output (exit 2);
//! - running out of memory: a failed allocation ([`Allocator`]) or a
//!   thread that could not get the memory to start (a panic saying so)
//!   removes the registered temporary files (async-signal-safe `unlink`)
//!   and exits 2 at once, without Rust's own report, which would need
//!   memory and a lock a panicking thread may hold; SIGABRT (`kill -ABRT`)
//!   removes them too and exits 134 (128 + SIGABRT).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ffi::{c_char, CStr};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use signal_hook::consts::signal::*;
use signal_hook::iterator::Signals;

use super::exit::Exit;

/// The signals handled as a request to stop: every signal whose default
/// action ends the process, except those that report a fault in the
/// process itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS: not
/// caught), SIGKILL (cannot be), SIGPIPE (ignored: a closed stdout is a
/// write error), SIGXFSZ (ignored: a write error) and SIGABRT (its own
/// handler, see the module docs).
pub const TERMINATING: &[i32] = &[
    SIGHUP,
    SIGINT,
    SIGQUIT,
    SIGTERM,
    SIGUSR1,
    SIGUSR2,
    SIGALRM,
    SIGVTALRM,
    SIGPROF,
    SIGXCPU,
    SIGIO,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGPWR,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGSTKFLT,
];

/// How long a run may take to stop by itself after the first signal.
const GRACE: Duration = Duration::from_millis(400);

/// Raised by the first signal; the pipeline stops at the next batch.
static QUIT: AtomicBool = AtomicBool::new(false);
/// The first signal received (0: none yet).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The exit code of a run whose output was kept (-1: not yet).
static DONE: AtomicI32 = AtomicI32::new(-1);
/// Temporary files to remove when a signal ends the process. Its lock is
/// also held while an output is committed.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The registered temporary files again, as NUL-terminated paths in
/// static buffers, which [`register`] fills without allocating (a failed
/// allocation right after a file is created still finds it registered) and
/// the abort handler reads without a lock.
static SLOTS: [Slot; SLOT_COUNT] = [const { Slot::free() }; SLOT_COUNT];
/// More temporary files than any run registers (the `-o` file, the
/// summary, a stdin spool).
const SLOT_COUNT: usize = 16;
/// The longest path a slot holds, with its NUL.
const SLOT_BYTES: usize = 4096;

/// One registered path: `state` is [`EMPTY`], [`FILLING`] or [`READY`].
struct Slot {
    state: AtomicU8,
    path: UnsafeCell<[u8; SLOT_BYTES]>,
}

/// A free slot.
const EMPTY: u8 = 0;
/// A slot being written by [`register`].
const FILLING: u8 = 1;
/// A slot holding a path.
const READY: u8 = 2;

// SAFETY: `path` is written only by the thread that moved `state` from
// EMPTY to FILLING, and read only while `state` is READY.
unsafe impl Sync for Slot {}

impl Slot {
    /// An empty slot.
    const fn free() -> Slot {
        Slot {
            state: AtomicU8::new(EMPTY),
            path: UnsafeCell::new([0; SLOT_BYTES]),
        }
    }

    /// The path, while the slot is READY.
    fn path(&self) -> Option<*const c_char> {
        (self.state.load(Ordering::SeqCst) == READY)
            .then(|| self.path.get().cast::<c_char>().cast_const())
    }
}

/// The binary's allocator: the system's, ending the process as out of
/// memory (exit 2, nothing kept) when an allocation fails.
pub struct Allocator;

// SAFETY: every call is forwarded to `System` unchanged.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract
        // (`layout` has a non-zero size), which is `System.alloc`'s own.
        noted(unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc_zeroed`'s contract
        // (`layout` has a non-zero size), which is `System.alloc_zeroed`'s own.
        noted(unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: every block this allocator hands out comes from `System`
        // unchanged, so `ptr` was allocated by `System` with `layout`, as
        // the caller of `dealloc` guarantees for this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout` (every block here
        // does), and the caller upholds `realloc`'s contract on `new_size`.
        noted(unsafe { System.realloc(ptr, layout, new_size) })
    }
}

/// Passes `ptr` on, or ends the process as out of memory when it is null
/// (a failed allocation). Ending here, rather than returning null to
/// `handle_alloc_error`, matters: Rust's default handler prints under the
/// lock that also guards panic messages and backtraces, so an allocation
/// that fails while a panic is being reported (a thread that could not
/// start, with `RUST_BACKTRACE` set) would wait on that lock forever. No
/// code of ours asks for memory it can do without (`try_reserve`), so every
/// failed allocation is fatal anyway.
fn noted(ptr: *mut u8) -> *mut u8 {
    if ptr.is_null() {
        out_of_memory();
    }
    ptr
}

/// Ends the process after running out of memory: removes every registered
/// temporary file, says so on stderr and exits 2. Only async-signal-safe
/// calls (`unlink`, `write`, `_exit`), no lock and no allocation, so that
/// it works from any thread in any state.
fn out_of_memory() -> ! {
    remove_temporaries();
    const LINE: &[u8] = b"batchdoku: out of memory: stopped, nothing kept\n";
    // SAFETY: writes a static buffer to stderr.
    let _ = unsafe { libc::write(2, LINE.as_ptr().cast(), LINE.len()) };
    // SAFETY: ends the process without running anything else.
    unsafe { libc::_exit(i32::from(Exit::Fatal.code())) }
}

/// Removes every registered temporary file (async-signal-safe: `unlink`
/// on the static slots, no lock).
fn remove_temporaries() {
    for slot in &SLOTS {
        if let Some(path) = slot.path() {
            // SAFETY: a READY slot holds a NUL-terminated path.
            unsafe { libc::unlink(path) };
        }
    }
}

/// Whether a panic reports memory the process could not get outside the
/// allocator: a thread whose start needs memory the kernel refused (Rust
/// asks for a signal stack with `mmap` as each thread starts, and panics
/// when it gets none).
fn is_out_of_memory(info: &std::panic::PanicHookInfo<'_>) -> bool {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("");
    message.contains("failed to allocate an alternative stack")
        || message.contains("Cannot allocate memory")
}

/// Starts the signal thread, ignores SIGXFSZ and installs the abort
/// handler. Without the thread (it or the handlers could not be set up)
/// signals keep their default action: the process dies at once with
/// nothing removed, as before this was installed.
pub fn install() {
    // A panic that says the process ran out of memory ends it as one, at
    // once: reporting it the default way (a backtrace) needs memory too.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if is_out_of_memory(info) {
            out_of_memory();
        }
        report(info);
    }));
    // SAFETY: setting a signal's disposition to SIG_IGN, and a handler
    // that calls only async-signal-safe functions (`on_abort`).
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_abort as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGABRT, &action, ptr::null_mut());
    }
    let Ok(mut signals) = Signals::new(TERMINATING) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("batchdoku-signals".into())
        .spawn(move || {
            let Some(first) = signals.forever().next() else {
                return;
            };
            SIGNAL.store(first, Ordering::SeqCst);
            QUIT.store(true, Ordering::SeqCst);
            let deadline = Instant::now() + GRACE;
            while Instant::now() < deadline {
                if signals.pending().next().is_some() {
                    break; // a second signal: stop waiting
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let paths = registry();
            for path in paths.iter() {
                let _ = std::fs::remove_file(path);
            }
            let code = match DONE.load(Ordering::SeqCst) {
                -1 => exit().into(),
                done => done,
            };
            std::process::exit(code);
        });
}

/// SIGABRT (`kill -ABRT`, or an `abort` of Rust's own): removes every
/// registered temporary file and exits 128 + SIGABRT. Only
/// async-signal-safe calls (`unlink`, `_exit`).
extern "C" fn on_abort(_: libc::c_int) {
    remove_temporaries();
    // SAFETY: ends the process without running anything else.
    unsafe { libc::_exit(i32::from(Exit::Signal(SIGABRT as u8).code())) }
}

/// The quit flag the pipeline polls.
pub fn flag() -> &'static AtomicBool {
    &QUIT
}

/// Whether a signal has asked the run to stop.
pub fn raised() -> bool {
    QUIT.load(Ordering::SeqCst)
}

/// The exit code of a run stopped by a signal: 128 + the signal's number
/// (130 for SIGINT, 143 for SIGTERM).
pub fn exit() -> Exit {
    match SIGNAL.load(Ordering::SeqCst) {
        SIGTERM => Exit::Terminated,
        0 | SIGINT => Exit::Interrupted,
        other => Exit::Signal(u8::try_from(other).unwrap_or(0)),
    }
}

/// Registers a temporary file, removed if a signal (or an abort) ends the
/// process. Its slot for the abort handler is filled first, without
/// allocating.
pub fn register(path: &Path) {
    let bytes = path.as_os_str().as_bytes();
    if bytes.len() < SLOT_BYTES && !bytes.contains(&0) {
        for slot in &SLOTS {
            if slot
                .state
                .compare_exchange(EMPTY, FILLING, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                // SAFETY: this thread moved the slot to FILLING: no one
                // else writes or reads its buffer until it is READY.
                let buffer = unsafe { &mut *slot.path.get() };
                buffer[..bytes.len()].copy_from_slice(bytes);
                buffer[bytes.len()] = 0;
                slot.state.store(READY, Ordering::SeqCst);
                break;
            }
        }
    }
    registry().push(path.to_path_buf());
}

/// Forgets a temporary file (renamed into place, or removed).
pub fn unregister(path: &Path) {
    registry().retain(|p| p != path);
    let bytes = path.as_os_str().as_bytes();
    for slot in &SLOTS {
        let Some(held) = slot.path() else {
            continue;
        };
        // SAFETY: a READY slot holds a NUL-terminated path.
        if unsafe { CStr::from_ptr(held) }.to_bytes() == bytes {
            slot.state.store(EMPTY, Ordering::SeqCst);
        }
    }
}

/// Runs `keep` (which renames a finished output into place) unless a
/// signal has already asked the run to stop; `None` when it did not run.
/// A signal's exit waits until `keep` has returned. When `keep` succeeds
/// the run has completed: a signal that ends the process from then on
/// exits with `done`, the completed run's code.
pub fn commit<T, E>(done: Exit, keep: impl FnOnce() -> Result<T, E>) -> Option<Result<T, E>> {
    let _exclusive = registry();
    if raised() {
        return None;
    }
    let kept = keep();
    if kept.is_ok() {
        DONE.store(done.into(), Ordering::SeqCst);
    }
    Some(kept)
}

/// Runs `keep` (which renames a file into place) whether or not a signal
/// has arrived (the summary of an interrupted run says so), but never
/// while a signal's exit removes the temporary files.
pub fn exclusive<T>(keep: impl FnOnce() -> T) -> T {
    let _exclusive = registry();
    keep()
}

/// The registry, usable even if a thread panicked while holding it.
fn registry() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARY.lock().unwrap_or_else(|e| e.into_inner())
}
