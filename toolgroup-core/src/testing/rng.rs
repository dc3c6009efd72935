//! The exercise's pseudo-random numbers: SplitMix64, written here so the `testing` feature
//! adds no dependency.

/// A small seeded pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014, the
/// generator `java.util.SplittableRandom` uses and the one that seeds the xoshiro family).
///
/// Not for cryptography or statistics: it exists so that the same seed gives the same
/// arguments on every machine and every release of this crate's `testing` module, without a
/// dependency. Its state is one `u64`; each [`next_u64`](Self::next_u64) adds a constant and
/// mixes the result.
///
/// ```
/// use toolgroup::testing::Rng;
///
/// let (mut a, mut b) = (Rng::new(7), Rng::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
/// ```
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The next number of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`0` when `n` is `0`), by multiply-and-shift: the bias is below
    /// `n / 2^64`, nothing a test can see.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An index into a slice of `len` items (`len > 0`).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// One of `items` (not empty).
    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// `true` once in `n` draws, on average.
    pub(crate) fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// A number in `lo..=hi` (`lo <= hi`).
    pub(crate) fn between(&mut self, lo: i128, hi: i128) -> i128 {
        let span = (hi - lo) as u128;
        if span >= u128::from(u64::MAX) {
            // Wider than 64 bits (only when both `u64` and `i64` limits are allowed): two draws.
            let wide = (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64());
            return lo + (wide % (span + 1)) as i128;
        }
        lo + i128::from(self.below(span as u64 + 1))
    }

    /// A number in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The generator of one tool: the run's seed mixed with the tool's name, so a tool's
    /// arguments do not change when another tool is added or removed.
    pub(crate) fn for_tool(seed: u64, tool: &str) -> Self {
        // FNV-1a of the name, then one SplitMix64 step over it and the seed.
        let mut hash = 0xCBF2_9CE4_8422_2325_u64;
        for byte in tool.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
        }
        let mut mix = Rng::new(seed ^ hash);
        Rng::new(mix.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // The first outputs for seed 1234567 of the reference C implementation
        // (prng.di.unimi.it/splitmix64.c).
        let mut rng = Rng::new(1234567);
        assert_eq!(rng.next_u64(), 6457827717110365317);
        assert_eq!(rng.next_u64(), 3203168211198807973);
    }

    #[test]
    fn between_stays_in_its_bounds() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let v = rng.between(-3, 5);
            assert!((-3..=5).contains(&v));
        }
        let wide = rng.between(i128::from(i64::MIN), i128::from(u64::MAX));
        assert!((i128::from(i64::MIN)..=i128::from(u64::MAX)).contains(&wide));
        assert_eq!(rng.between(4, 4), 4);
    }
}
