//! One rayon pool per thread count for the whole process, built by the
//! library (as for the CLI) on the first call that asks for that count and
//! reused by every later one: a call costs no thread start-up, and calls in
//! a loop (a Dask or Ray partition each) do not build and tear down a pool
//! each. Concurrent calls with the same count share its workers. Pools live
//! until the process exits; there is one per distinct `threads` value asked
//! for.
//!
//! A child made by `fork` (multiprocessing's default start method on Linux,
//! PySpark's workers) inherits the map but none of the worker threads: the
//! pools are keyed by process id too, so the child builds its own.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use batchdoku_batch as pipeline;
use rayon::{ThreadPool, ThreadPoolBuildError};

/// The pools of one process.
struct Pools {
    /// The process that built them (0 before the first call).
    pid: u32,
    /// The pool of each thread count.
    by_threads: BTreeMap<usize, Arc<ThreadPool>>,
}

static POOLS: Mutex<Pools> = Mutex::new(Pools {
    pid: 0,
    by_threads: BTreeMap::new(),
});

/// The process's pool of `threads` workers, built on first use.
pub fn pool(threads: usize) -> Result<Arc<ThreadPool>, ThreadPoolBuildError> {
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    let pid = std::process::id();
    if pools.pid != pid {
        // A forked child: the parent's workers do not exist here, so its
        // pools would never run a job. They are forgotten, not dropped
        // (dropping would signal threads that are gone).
        std::mem::forget(std::mem::take(&mut pools.by_threads));
        pools.pid = pid;
    }
    if let Some(pool) = pools.by_threads.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = Arc::new(pipeline::plumbing::build_pool(threads)?);
    pools.by_threads.insert(threads, Arc::clone(&pool));
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pool_per_thread_count_reused_by_every_call() {
        let first = pool(3).unwrap();
        assert!(Arc::ptr_eq(&first, &pool(3).unwrap()));
        let mut names = first.broadcast(|_| std::thread::current().name().map(str::to_owned));
        names.sort();
        let want = [
            "batchdoku-worker-0",
            "batchdoku-worker-1",
            "batchdoku-worker-2",
        ];
        assert_eq!(names, want.map(|n| Some(n.to_owned())));
        let other = pool(2).unwrap();
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(other.current_num_threads(), 2);
        assert!(Arc::ptr_eq(&other, &pool(2).unwrap()));
    }
}
