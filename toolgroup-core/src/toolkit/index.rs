//! The tool-name index: a perfect hash built once per toolkit.
//!
//! Every call looks its tool up by name, so the lookup is on the hot path of the cheapest
//! call. A general hash map probes a group of control bytes and may compare several keys;
//! here the names are known when the toolkit is built, so [`NameIndex::new`] picks a table
//! size and a multiplier under which no two names share a slot. A lookup is then one hash
//! of the name, one table load and one comparison with the only name that can match.

use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

/// Marks an empty table slot.
const EMPTY: u32 = u32::MAX;

/// Name -> position, for a fixed set of distinct names.
#[derive(Debug, Clone)]
pub(crate) struct NameIndex {
    /// For each slot, the position of the name that hashes there, or [`EMPTY`].
    table: Box<[u32]>,
    /// The names, by position.
    names: Box<[&'static str]>,
    /// Odd multiplier that spreads the names over the table without collisions.
    multiplier: u64,
    /// `64 - log2(table.len())`: the top bits of the product pick the slot.
    shift: u32,
}

impl NameIndex {
    /// Index `names` (distinct; their positions are their indices).
    ///
    /// # Panics
    ///
    /// If two names are equal: a toolkit's tool names are unique by construction, checked
    /// at compile time.
    pub(crate) fn new(names: Vec<&'static str>) -> Self {
        let hashes: Vec<u64> = names.iter().map(|n| hash(n)).collect();
        // Start with a table at least twice the size of the name set (a collision-free
        // multiplier is then found within a few tries) and grow it if none is.
        let mut bits = (names.len().max(1) * 2)
            .next_power_of_two()
            .trailing_zeros();
        loop {
            let size = 1usize << bits;
            let shift = 64 - bits;
            let mut table = vec![EMPTY; size].into_boxed_slice();
            for attempt in 0..64u64 {
                // Odd multipliers from a fixed sequence: the layout is the same every run.
                let multiplier = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(2 * attempt + 1) | 1;
                table.fill(EMPTY);
                let placed = hashes.iter().enumerate().all(|(i, &h)| {
                    let at = slot(h, multiplier, shift);
                    if table[at] == EMPTY {
                        table[at] = i as u32;
                        true
                    } else {
                        assert!(
                            names[table[at] as usize] != names[i],
                            "toolgroup: duplicate tool name `{}`",
                            names[i]
                        );
                        false
                    }
                });
                if placed {
                    return NameIndex {
                        table,
                        names: names.into_boxed_slice(),
                        multiplier,
                        shift,
                    };
                }
            }
            bits += 1;
        }
    }

    /// The position of `name`, if it is one of the names.
    ///
    /// Invariant: `#[inline(always)]`, not `#[inline]`: in a large binary LLVM keeps a hinted
    /// `get` out of line, a call on every lookup.
    #[inline(always)]
    pub(crate) fn get(&self, name: &str) -> Option<u32> {
        let at = slot(hash(name), self.multiplier, self.shift);
        // `table.len()` is a power of two and `slot` < it: the bounds checks cannot fail.
        let i = self.table[at];
        if i != EMPTY && same(self.names[i as usize].as_bytes(), name.as_bytes()) {
            Some(i)
        } else {
            None
        }
    }
}

/// `a == b`, with the usual tool name (4 to 16 bytes) compared in two overlapping words
/// inline.
///
/// Invariant: don't compare with `==` on the slices: it calls `memcmp` out of line, a call on
/// every lookup of the cheapest calls.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        word::<8>(a, 0) == word::<8>(b, 0) && word::<8>(a, n - 8) == word::<8>(b, n - 8)
    } else if (4..8).contains(&n) {
        word::<4>(a, 0) == word::<4>(b, 0) && word::<4>(a, n - 4) == word::<4>(b, n - 4)
    } else {
        a == b
    }
}

/// The `N` bytes of `bytes` from `at`, as one number (`N` is 4 or 8).
#[inline(always)]
fn word<const N: usize>(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word[..N].copy_from_slice(&bytes[at..at + N]);
    u64::from_le_bytes(word)
}

#[inline]
fn hash(name: &str) -> u64 {
    FxBuildHasher.hash_one(name)
}

#[inline]
fn slot(hash: u64, multiplier: u64, shift: u32) -> usize {
    // `shift` is at most 63 for a table of two or more slots; a one-slot table cannot occur
    // (the table has at least two).
    (hash.wrapping_mul(multiplier) >> shift) as usize
}

#[cfg(test)]
mod tests {
    use super::NameIndex;

    #[test]
    fn finds_every_name_and_nothing_else() {
        for n in [0usize, 1, 2, 3, 20, 200, 1000] {
            let names: Vec<&'static str> = (0..n)
                .map(|i| &*Box::leak(format!("tool_{i}").into_boxed_str()))
                .collect();
            let index = NameIndex::new(names.clone());
            for (i, name) in names.iter().enumerate() {
                assert_eq!(index.get(name), Some(i as u32), "{name} of {n}");
            }
            for other in ["", "tool_", "tool_1000000", "reset_tools", "tool_0 "] {
                if !names.contains(&other) {
                    assert_eq!(index.get(other), None, "{other:?} of {n}");
                }
            }
        }
    }

    #[test]
    fn compares_names_of_every_length_byte_for_byte() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|b| b'a' + b % 26).collect();
            assert!(super::same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 1;
                assert!(!super::same(&a, &b), "{n} bytes, differing at {at}");
            }
            let mut longer = a.clone();
            longer.push(b'a');
            assert!(!super::same(&a, &longer), "{n}");
        }
    }

    #[test]
    #[should_panic(expected = "duplicate tool name `same`")]
    fn duplicate_names_are_a_bug_it_reports() {
        NameIndex::new(vec!["same", "other", "same"]);
    }
}
