import Foundation

/// A deterministic pseudo-random generator: xoshiro256** seeded through SplitMix64 (the fault-injection
/// scenarios' draws, whose long period the per-call draws want).
///
/// The same seed gives the same sequence on every run and machine (no system entropy, and
/// the conversions to `Double` are the engine's own, not the standard library's, whose
/// algorithm may change). Normal variates come from the Box–Muller transform.
///
///     var random = SeededGenerator(seed: 42)
///     let coin = random.nextUnit() < 0.3
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    public init(seed: UInt64) {
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    /// A uniform value in [0, 1) with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal variate (Box–Muller; one value per two uniform draws).
    public mutating func nextNormal() -> Double {
        let u1 = 1 - nextUnit()  // (0, 1]: log(u1) is finite
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
