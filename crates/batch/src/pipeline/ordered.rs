//! The one bounded, ordered pipeline under every streaming command. A
//! [`Feed`] (records read from the inputs, or a range of puzzle indices to
//! generate) is cut into numbered batches on a feed thread; a rayon pool of
//! workers runs a [`Work`] over each batch, every worker with its own
//! scratch; the writer (the calling thread) puts batches back in order,
//! writes them, reports progress and recycles them.
//!
//! ```text
//! feed ──work (bounded)──▶ workers ──done (bounded)──▶ writer ──▶ sink
//!   ▲                                                    │
//!   └─────────────── free batches (recycled) ◀───────────┘
//! ```
//!
//! Memory is bounded: at most `in_flight` batches exist (the feed must take
//! a free one before filling it), so batch `seq` is always within
//! `in_flight` of the next one to write, and the reorder buffer is a fixed
//! ring of `in_flight` slots. Warm batches are reused, so the pipeline
//! does not allocate per batch.
//!
//! Stopping. The writer polls the quit flag (Ctrl-C) and the failure flag
//! every [`POLL`] even when no batch arrives, and workers poll both before
//! each item. Any failure (an unreadable input, a failed check, a panic in
//! a worker or the feed) is kept in one slot, first one wins, and raises
//! the failure flag; a panic is caught per batch, so its batch is never
//! lost and the writer never waits for it. When the writer returns, the
//! flag is raised and the channels close, which unblocks every worker and
//! the feed. The feed runs on its own thread and is not waited for if it
//! is stuck in a read (a terminal, a stalled pipe): a run never hangs on
//! its input once it has stopped.

use std::any::Any;
use std::io;
use std::ops::AddAssign;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, select, Receiver, RecvTimeoutError, Sender};

use super::{build_pool, Fatal, PanicSite, Progress, Sink};

/// How often the writer looks at the quit and failure flags while no
/// batch arrives.
const POLL: Duration = Duration::from_millis(50);

/// How long a stopped run waits for the feed thread to end before leaving
/// it behind (it may be blocked reading a terminal or a stalled pipe).
const FEED_GRACE: Duration = Duration::from_millis(200);

/// Where the work comes from. Runs on the feed thread, which owns it.
pub(crate) trait Feed: Send + 'static {
    /// A batch's items (records, or a range of indices); reused.
    type Items: Default + Send + 'static;

    /// Fills `items` with the next batch, replacing what they held.
    /// Returns `false`, with nothing to process, once the work is done.
    fn fill(&mut self, items: &mut Self::Items) -> Result<bool, Fatal>;

    /// The progress position after the last batch filled (input bytes
    /// read, or puzzles handed out).
    fn position(&self) -> u64;

    /// The position at which the run is complete, when known.
    fn total(&self) -> Option<u64>;

    /// A digest of everything fed so far, for a run that records what it
    /// has done (see [`Written`]); 0 for a feed that keeps none.
    fn digest(&self) -> u64 {
        0
    }

    /// Where the feed is, to name it when it panics.
    fn site(&self) -> PanicSite;
}

/// What the workers do with each item of a batch.
pub(crate) trait Work: Sync {
    /// A batch's items, as the [`Feed`] fills them.
    type Items: Send;
    /// Per-worker state (a solver, an encoder), made once per worker.
    type Scratch;
    /// Counts summed over the batches written.
    type Totals: Copy + Default + AddAssign + Send + 'static;

    /// Makes one worker's scratch.
    fn scratch(&self) -> Self::Scratch;

    /// Number of items in `items`.
    fn len(&self, items: &Self::Items) -> usize;

    /// Processes item `k` of `items`, appending its output to `out` and
    /// counting it in `totals`. `stop` may be polled during a slow item.
    fn process(
        &self,
        scratch: &mut Self::Scratch,
        items: &Self::Items,
        k: usize,
        out: &mut Vec<u8>,
        totals: &mut Self::Totals,
        stop: &Stop<'_>,
    ) -> Result<(), Halt>;

    /// Names item `k`, for the message when processing it panics.
    fn site(&self, items: &Self::Items, k: usize) -> PanicSite;
}

/// Why an item was not finished.
#[derive(Debug)]
pub(crate) enum Halt {
    /// [`Stop::raised`] asked to stop: the batch is abandoned.
    Stopped,
    /// A fatal error: the run ends with it.
    Failed(Fatal),
}

/// Whether the workers should stop: the quit flag (Ctrl-C) or the run's
/// own flag (a failure, or the writer has stopped).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop<'a> {
    quit: &'a AtomicBool,
    halt: &'a AtomicBool,
}

impl Stop<'_> {
    /// Whether to stop now.
    #[inline]
    pub(crate) fn raised(&self) -> bool {
        self.quit.load(Ordering::Relaxed) || self.halt.load(Ordering::Relaxed)
    }
}

/// The shape of a run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Worker threads.
    pub threads: usize,
    /// Most batches in existence at once.
    pub in_flight: usize,
}

/// Hears of each batch the writer has written, in order: the sink, the
/// totals and items written so far, and the feed's
/// [`digest`](Feed::digest) after that batch. An error ends the run.
pub(crate) type Written<'a, T> = &'a mut dyn FnMut(&mut Sink, &Ended<T>, u64) -> Result<(), Fatal>;

/// How the writer ended, when it did not fail.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ended<T> {
    /// Totals over the batches written.
    pub totals: T,
    /// Items written.
    pub items: u64,
    /// The output was closed by its reader (`| head`).
    pub broken_pipe: bool,
    /// Every batch was written: the feed ran out and no batch was lost.
    pub complete: bool,
}

/// What a batch became in a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Every item processed.
    Done,
    /// Abandoned because the run is stopping.
    Stopped,
    /// A failure, kept in [`Shared::failure`].
    Failed,
}

/// One batch: its items and, once processed, their output.
struct Batch<I, T> {
    seq: u64,
    items: I,
    out: Vec<u8>,
    totals: T,
    position: u64,
    digest: u64,
    state: State,
}

/// What every thread of a run shares.
struct Shared {
    /// Raised on a failure and when the writer returns.
    halt: AtomicBool,
    /// The first failure.
    failure: Mutex<Option<Fatal>>,
}

impl Shared {
    /// Keeps `fatal` unless a failure is already kept, and stops the run.
    fn fail(&self, fatal: Fatal) {
        let mut slot = self.failure.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(fatal);
        self.halt.store(true, Ordering::SeqCst);
    }

    fn take_failure(&self) -> Option<Fatal> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }
}

/// Runs `work` over everything `feed` yields, writing `header` and then
/// each batch's output to `sink` in order (telling `written`, when given,
/// after each batch). Returns when the feed is done and everything is
/// written, when `quit` is raised, when the sink's reader goes away, or
/// with the first failure.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<F, W>(
    feed: F,
    work: &W,
    sink: &mut Sink,
    header: &[u8],
    shape: Shape,
    quit: &AtomicBool,
    progress: &dyn Progress,
    written: Option<Written<'_, W::Totals>>,
) -> Result<Ended<W::Totals>, Fatal>
where
    F: Feed,
    W: Work<Items = F::Items>,
{
    progress.start(feed.total());
    let result = run_started(feed, work, sink, header, shape, quit, progress, written);
    progress.finish();
    result
}

#[allow(clippy::too_many_arguments)]
fn run_started<F, W>(
    feed: F,
    work: &W,
    sink: &mut Sink,
    header: &[u8],
    shape: Shape,
    quit: &AtomicBool,
    progress: &dyn Progress,
    written: Option<Written<'_, W::Totals>>,
) -> Result<Ended<W::Totals>, Fatal>
where
    F: Feed,
    W: Work<Items = F::Items>,
{
    let threads = shape.threads.max(1);
    let in_flight = shape.in_flight.max(1);
    let pool = build_pool(threads).map_err(|e| Fatal::Threads(io::Error::other(e)))?;
    let shared = Arc::new(Shared {
        halt: AtomicBool::new(false),
        failure: Mutex::new(None),
    });
    let (work_tx, work_rx) = bounded::<Batch<F::Items, W::Totals>>(in_flight);
    let (done_tx, done_rx) = bounded::<Batch<F::Items, W::Totals>>(in_flight);
    let (free_tx, free_rx) = bounded::<Batch<F::Items, W::Totals>>(in_flight);
    // Never sent on: dropped when the writer returns, which wakes every
    // worker waiting for work.
    let (wake_tx, wake_rx) = bounded::<()>(0);

    let feeder = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("batchdoku-feed".into())
            .spawn(move || feed_batches(feed, work_tx, free_rx, in_flight, &shared))
            .map_err(Fatal::Threads)?
    };
    let stop = Stop {
        quit,
        halt: &shared.halt,
    };
    let result = pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let (work_rx, done_tx, wake_rx) = (work_rx.clone(), done_tx.clone(), wake_rx.clone());
            let shared = &shared;
            scope.spawn(move |_| work_batches(work, &work_rx, &done_tx, &wake_rx, stop, shared));
        }
        // Only the workers hold these now: the done channel closes when
        // the last worker ends, the work channel when no worker is left.
        drop((work_rx, done_tx, wake_rx));
        let writer = Writer {
            work,
            in_flight,
            quit,
            shared: &shared,
            progress,
        };
        let ended = writer.write_in_order(sink, header, done_rx, free_tx, written);
        shared.halt.store(true, Ordering::SeqCst);
        drop(wake_tx);
        ended
    });
    let failure = shared.take_failure();
    // After a complete run with no failure, every worker ended because the
    // work channel closed: the feed has returned.
    let fed = failure.is_none() && result.as_ref().is_ok_and(|e| e.complete);
    join_feeder(feeder, fed);
    match failure {
        Some(fatal) => Err(fatal),
        None => result,
    }
}

/// Waits for the feed thread: always when it has `fed` everything (it has
/// ended or is ending), else at most [`FEED_GRACE`], then leaves it behind.
fn join_feeder(feeder: JoinHandle<()>, fed: bool) {
    let deadline = Instant::now() + FEED_GRACE;
    while !fed && !feeder.is_finished() {
        if Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // The feed catches its own panics, so joining cannot fail.
    let _ = feeder.join();
}

/// The feed thread: fills free batches and sends them to the workers.
/// Failures (and panics) go to the shared slot.
fn feed_batches<F: Feed, T: Default>(
    mut feed: F,
    work_tx: Sender<Batch<F::Items, T>>,
    free_rx: Receiver<Batch<F::Items, T>>,
    in_flight: usize,
    shared: &Shared,
) {
    let fill = || -> Result<(), Fatal> {
        let mut created = 0;
        let mut seq = 0;
        loop {
            if shared.halt.load(Ordering::Relaxed) {
                return Ok(());
            }
            let mut batch = if created < in_flight {
                created += 1;
                Batch {
                    seq: 0,
                    items: F::Items::default(),
                    out: Vec::new(),
                    totals: T::default(),
                    position: 0,
                    digest: 0,
                    state: State::Done,
                }
            } else {
                match free_rx.recv() {
                    Ok(batch) => batch,
                    Err(_) => return Ok(()), // the writer stopped
                }
            };
            if !feed.fill(&mut batch.items)? {
                return Ok(());
            }
            batch.seq = seq;
            batch.position = feed.position();
            batch.digest = feed.digest();
            seq += 1;
            if work_tx.send(batch).is_err() {
                return Ok(()); // every worker is gone
            }
        }
    };
    match panic::catch_unwind(AssertUnwindSafe(fill)) {
        Ok(Ok(())) => {}
        Ok(Err(fatal)) => shared.fail(fatal),
        Err(payload) => shared.fail(Fatal::Panicked {
            site: feed.site(),
            message: panic_message(payload.as_ref()),
        }),
    }
}

/// A worker: processes batches until there are none or the run stops. A
/// panic while processing is caught; the batch goes back marked failed and
/// the worker ends (its scratch may be broken).
fn work_batches<W: Work>(
    work: &W,
    work_rx: &Receiver<Batch<W::Items, W::Totals>>,
    done_tx: &Sender<Batch<W::Items, W::Totals>>,
    wake_rx: &Receiver<()>,
    stop: Stop<'_>,
    shared: &Shared,
) {
    let mut scratch = match panic::catch_unwind(AssertUnwindSafe(|| work.scratch())) {
        Ok(scratch) => scratch,
        Err(payload) => {
            shared.fail(Fatal::Panicked {
                site: PanicSite::WorkerStart,
                message: panic_message(payload.as_ref()),
            });
            return;
        }
    };
    loop {
        let mut batch = select! {
            recv(work_rx) -> batch => match batch {
                Ok(batch) => batch,
                Err(_) => return,
            },
            recv(wake_rx) -> _ => return,
        };
        batch.out.clear();
        batch.totals = W::Totals::default();
        let mut at = 0;
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            for k in 0..work.len(&batch.items) {
                if stop.raised() {
                    return Err(Halt::Stopped);
                }
                at = k;
                work.process(
                    &mut scratch,
                    &batch.items,
                    k,
                    &mut batch.out,
                    &mut batch.totals,
                    &stop,
                )?;
            }
            Ok(())
        }));
        batch.state = match result {
            Ok(Ok(())) => State::Done,
            Ok(Err(Halt::Stopped)) => State::Stopped,
            Ok(Err(Halt::Failed(fatal))) => {
                shared.fail(fatal);
                State::Failed
            }
            Err(payload) => {
                shared.fail(Fatal::Panicked {
                    site: work.site(&batch.items, at),
                    message: panic_message(payload.as_ref()),
                });
                State::Failed
            }
        };
        let failed = batch.state == State::Failed;
        if done_tx.send(batch).is_err() || failed {
            return;
        }
    }
}

/// The text of a panic's payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// The writer's fixed parts.
struct Writer<'a, W> {
    work: &'a W,
    in_flight: usize,
    quit: &'a AtomicBool,
    shared: &'a Shared,
    progress: &'a dyn Progress,
}

impl<W: Work> Writer<'_, W> {
    /// Puts finished batches back in order, writes them and recycles them.
    /// Returns at the end of the work, on Ctrl-C, on a failure elsewhere
    /// (kept in the shared slot), when the sink's reader has gone
    /// (`broken_pipe`), with the sink's write error, or with the error of
    /// `written` (told of each batch written).
    fn write_in_order(
        &self,
        sink: &mut Sink,
        header: &[u8],
        done_rx: Receiver<Batch<W::Items, W::Totals>>,
        free_tx: Sender<Batch<W::Items, W::Totals>>,
        mut written: Option<Written<'_, W::Totals>>,
    ) -> Result<Ended<W::Totals>, Fatal> {
        let mut ended = Ended::default();
        if !header.is_empty() && !write(sink, header)? {
            ended.broken_pipe = true;
            return Ok(ended);
        }
        // Batch `seq` waits in slot `seq % in_flight` (see the module
        // header for why two never share a slot).
        let mut pending: Vec<Option<Batch<W::Items, W::Totals>>> =
            (0..self.in_flight).map(|_| None).collect();
        let slot = |seq: u64| (seq % self.in_flight as u64) as usize;
        let mut next = 0u64;
        loop {
            if self.quit.load(Ordering::Relaxed) || self.shared.halt.load(Ordering::Relaxed) {
                return Ok(ended);
            }
            let batch = match done_rx.recv_timeout(POLL) {
                Ok(batch) => batch,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    ended.complete = pending.iter().all(Option::is_none);
                    return Ok(ended);
                }
            };
            if batch.state != State::Done {
                // Stopped (quit or failure, seen at the top of the loop)
                // or failed (kept in the shared slot).
                return Ok(ended);
            }
            let at = slot(batch.seq);
            debug_assert!(pending[at].is_none(), "two batches in one slot");
            pending[at] = Some(batch);
            while let Some(batch) = pending[slot(next)].take() {
                debug_assert_eq!(batch.seq, next);
                if !write(sink, &batch.out)? {
                    ended.broken_pipe = true;
                    return Ok(ended);
                }
                ended.totals += batch.totals;
                ended.items += self.work.len(&batch.items) as u64;
                next += 1;
                if let Some(written) = written.as_mut() {
                    written(sink, &ended, batch.digest)?;
                }
                self.progress.update(ended.items, batch.position);
                // The feed may have finished; a closed free list is fine.
                let _ = free_tx.send(batch);
            }
        }
    }
}

/// Writes `bytes`; `Ok(false)` when the sink's reader has gone.
fn write(sink: &mut Sink, bytes: &[u8]) -> Result<bool, Fatal> {
    match sink.write_all(bytes) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Fatal::Write(e)),
    }
}
