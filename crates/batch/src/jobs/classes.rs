//! Equivalence classes for the corpus commands: a 128-bit key per class
//! (a hash of the canonical form, or of the puzzle itself for exact
//! matching) and a concurrent map from keys to what a command remembers
//! about each class.
//!
//! The map is sharded: each of [`SHARDS`] mutex-guarded hash maps owns the
//! keys whose high bits select it, so workers rarely contend. Values are
//! merged with commutative updates (a minimum, a sum), which makes the
//! result independent of the order workers reach the map in, and so of the
//! thread count.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

use batchdoku_core::Grid;

/// Number of shards (a power of two).
pub const SHARDS: usize = 64;

/// The 128-bit key of a grid: XXH3-128 of its 81 cell values. Distinct
/// grids collide with probability about n² / 2¹²⁹ over n grids (below
/// 10⁻²² for ten million).
pub(crate) fn grid_key(grid: &Grid) -> u128 {
    xxhash_rust::xxh3::xxh3_128(grid.cells())
}

/// Hashes a key that is already a uniform hash: its low 64 bits.
#[derive(Debug, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u128 keys are hashed here; fold anything else in anyway.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, key: u128) {
        self.0 = key as u64;
    }
}

type Shard<V> = HashMap<u128, V, BuildHasherDefault<KeyHasher>>;

/// A concurrent map from grids (each class's representative: its canonical
/// form, or the puzzle itself) to values, shared by the workers. Only a
/// 128-bit hash of each grid is stored (see `grid_key`), so memory per class
/// is the key and the value.
///
/// # Example
/// ```
/// use batchdoku_batch::ClassMap;
/// use batchdoku_core::{parse_line, Canonicalizer, Rng, Transform};
/// let puzzle = parse_line(
///     b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
/// )
/// .unwrap();
/// let moved = Transform::random(&mut Rng::new(5)).apply(&puzzle);
/// let mut canonicalizer = Canonicalizer::new();
/// // Per class (its canonical form): the first index seen and a count,
/// // merged in any order by any number of threads.
/// let map = ClassMap::<(u64, u64)>::new();
/// for (index, p) in [(5, &puzzle), (2, &moved), (9, &puzzle)] {
///     let form = canonicalizer.canonical(p).0;
///     map.upsert(&form, (index, 1), |old, new| {
///         old.0 = old.0.min(new.0);
///         old.1 += new.1;
///     });
/// }
/// assert_eq!(map.get(&canonicalizer.canonical(&puzzle).0), Some((2, 3)));
/// assert_eq!(map.get(&puzzle), None); // the puzzle itself is not a key here
/// assert_eq!(map.len(), 1);
/// ```
pub struct ClassMap<V> {
    shards: Box<[Mutex<Shard<V>>]>,
}

impl<V: Copy> Default for ClassMap<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Copy> ClassMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        ClassMap {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
        }
    }

    fn shard(&self, key: u128) -> MutexGuard<'_, Shard<V>> {
        let i = (key >> 122) as usize % SHARDS;
        // A worker that panicked while holding the lock left a valid map
        // (inserts are single calls), so a poisoned lock is still usable.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Inserts `value` for a new `grid`, or merges it into the present one.
    pub fn upsert(&self, grid: &Grid, value: V, merge: impl FnOnce(&mut V, V)) {
        self.upsert_key(grid_key(grid), value, merge);
    }

    /// [`upsert`](Self::upsert) by key.
    pub(super) fn upsert_key(&self, key: u128, value: V, merge: impl FnOnce(&mut V, V)) {
        let mut shard = self.shard(key);
        match shard.get_mut(&key) {
            Some(present) => merge(present, value),
            None => {
                shard.insert(key, value);
            }
        }
    }

    /// The value of `grid`, if present.
    pub fn get(&self, grid: &Grid) -> Option<V> {
        self.get_key(grid_key(grid))
    }

    /// [`get`](Self::get) by key.
    pub(super) fn get_key(&self, key: u128) -> Option<V> {
        self.shard(key).get(&key).copied()
    }

    /// Changes the value of `key` in place, if present.
    pub(super) fn update_key(&self, key: u128, change: impl FnOnce(&mut V)) {
        if let Some(value) = self.shard(key).get_mut(&key) {
            change(value);
        }
    }

    /// Calls `f` with every key and its value, shard by shard (in no
    /// particular order: callers that need one sort what they keep).
    pub(super) fn for_each_entry(&self, mut f: impl FnMut(u128, V)) {
        for shard in self.shards.iter() {
            let shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            for (&key, &value) in shard.iter() {
                f(key, value);
            }
        }
    }

    /// Number of keys (classes).
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// The bytes the map's tables hold: every shard's buckets, each a key,
    /// a value and a control byte. A shard's table grows by doubling and
    /// is at most seven eighths full, so this is 1.14 to 2.3 times the
    /// bytes of the entries themselves.
    pub fn table_bytes(&self) -> u64 {
        let entry = std::mem::size_of::<(u128, V)>() as u64 + 1;
        self.shards
            .iter()
            .map(|s| {
                let capacity = s.lock().unwrap_or_else(|e| e.into_inner()).capacity() as u64;
                buckets_of(capacity) * entry
            })
            .sum()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with every value, shard by shard (in no particular order:
    /// callers that need one sort what they keep).
    pub fn for_each(&self, mut f: impl FnMut(V)) {
        for shard in self.shards.iter() {
            let shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            for &value in shard.values() {
                f(value);
            }
        }
    }
}

/// The buckets behind a hash table of `capacity` (std's table: a power of
/// two, seven eighths of it usable from eight buckets on).
fn buckets_of(capacity: u64) -> u64 {
    match capacity {
        0 => 0,
        1..=7 => capacity + 1,
        _ => capacity / 7 * 8,
    }
}

impl<V> std::fmt::Debug for ClassMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClassMap")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batchdoku_core::testdata::{grid, EASY, HARD};

    #[test]
    fn table_bytes_follow_the_buckets() {
        let map = ClassMap::<(u64, u64)>::new();
        assert_eq!(map.table_bytes(), 0);
        for i in 0..100_000u128 {
            map.upsert_key(
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835),
                (0, 1),
                |_, _| {},
            );
        }
        // 32-byte entries plus a control byte, in tables at most 7/8 full
        // (and at least 7/16 full, give or take a shard's unevenness).
        let entry = std::mem::size_of::<(u128, (u64, u64))>() as u64 + 1;
        assert_eq!(entry, 33);
        let entries = 100_000 * entry;
        let bytes = map.table_bytes();
        assert!(
            bytes >= entries * 8 / 7 && bytes <= entries * 16 / 7 * 11 / 10,
            "{bytes}"
        );
        for shard in map.shards.iter() {
            let capacity = shard.lock().unwrap().capacity() as u64;
            assert!(buckets_of(capacity).is_power_of_two(), "{capacity}");
        }
    }

    #[test]
    fn keys_separate_grids_and_repeat_for_equal_ones() {
        assert_eq!(grid_key(&grid(EASY)), grid_key(&grid(EASY)));
        assert_ne!(grid_key(&grid(EASY)), grid_key(&grid(HARD)));
        assert_ne!(grid_key(&Grid::default()), grid_key(&grid(EASY)));
    }

    #[test]
    fn upsert_merges_and_is_order_independent() {
        use rayon::prelude::*;
        let keys: Vec<u128> = (0..10_000u64)
            .map(|i| u128::from(i % 777) << 100 | u128::from(i % 777))
            .collect();
        let build = |threads: usize| {
            let map = ClassMap::<(u64, u64)>::new();
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                keys.par_iter().enumerate().for_each(|(i, &k)| {
                    map.upsert_key(k, (i as u64, 1), |v, new| {
                        v.0 = v.0.min(new.0);
                        v.1 += new.1;
                    })
                })
            });
            map
        };
        let (one, two) = (build(1), build(2));
        assert_eq!(one.len(), 777);
        for k in 0..777u64 {
            let key = u128::from(k) << 100 | u128::from(k);
            let expected_count = (10_000 - k).div_ceil(777);
            assert_eq!(one.get_key(key), Some((k, expected_count)));
            assert_eq!(two.get_key(key), one.get_key(key));
        }
        assert_eq!(one.get_key(12345), None);
        assert_eq!(one.get(&grid(EASY)), None);
        let (mut keys_seen, mut records) = (0, 0);
        one.for_each(|(_, count)| {
            keys_seen += 1;
            records += count;
        });
        assert_eq!((keys_seen, records), (777, 10_000));
    }

    /// Bytes one class takes in a [`ClassMap`] with values of
    /// `value_size` bytes, before the hash table's spare capacity: the
    /// 16-byte key, the value padded to the key's alignment, and one
    /// control byte (the figure `dedupe --help` states).
    const fn entry_bytes(value_size: usize) -> usize {
        16 + value_size.div_ceil(16) * 16 + 1
    }

    #[test]
    fn entry_size_matches_the_layout() {
        assert_eq!(
            entry_bytes(std::mem::size_of::<(u64, u64)>()),
            std::mem::size_of::<(u128, (u64, u64))>() + 1
        );
        assert_eq!(
            entry_bytes(std::mem::size_of::<u64>()),
            std::mem::size_of::<(u128, u64)>() + 1
        );
    }
}
