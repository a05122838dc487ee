//! The crate's one random generator: a small seeded splitmix64, so every random choice
//! (Zobrist keys, self-play openings, the random player, random test positions) is
//! reproducible from its seed and needs no dependency.
//!
//! A leaf: it imports nothing from the crate, and every layer may use it.

/// A seeded splitmix64 generator: the same seed gives the same numbers on every run.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with a chance of `percent` in 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outputs are pinned: seeded data sets and the Zobrist keys depend on them.
    #[test]
    fn outputs_are_splitmix64() {
        let mut r = Rng::new(5);
        assert_eq!(
            [r.next_u64(), r.next_u64(), r.next_u64()],
            [
                0x6303_3b0c_a389_c35a,
                0xc097_314d_9397_36f8,
                0x3b92_d3f0_106b_c147
            ]
        );
        assert_eq!(
            Rng::new(0x9E37_79B9_7F4A_7C15).next_u64(),
            0x6e78_9e6a_a1b9_65f4
        );
    }

    #[test]
    fn is_seeded_and_in_range() {
        let mut a = Rng::new(5);
        let mut b = Rng::new(5);
        let xs: Vec<usize> = (0..100).map(|_| a.below(7)).collect();
        let ys: Vec<usize> = (0..100).map(|_| b.below(7)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|&x| x < 7));
        assert!((0..7).all(|v| xs.contains(&v)), "every value turns up");
    }

    #[test]
    fn chance_follows_the_percent() {
        let mut r = Rng::new(1);
        assert!((0..1000).all(|_| !r.chance(0)));
        assert!((0..1000).all(|_| r.chance(100)));
        let hits = (0..10_000).filter(|_| r.chance(30)).count();
        assert!((2_700..3_300).contains(&hits), "{hits}");
    }
}
