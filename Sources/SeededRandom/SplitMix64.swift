import Foundation

/// SplitMix64 (Steele, Lea, Flood 2014): the one seeded 64-bit mixer. As a generator it draws a drive's
/// GPS noise and the tests' property and fuzz inputs; `mix` is its finalizer as a hash (a generated
/// country's choices); it seeds `SeededGenerator`. The same seed gives the same values on every run and
/// machine (the system generator does not).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.finalize(state)
    }

    /// The value a generator seeded with `value` draws first: SplitMix64's finalizer as a 64-bit hash.
    public static func mix(_ value: UInt64) -> UInt64 {
        finalize(value &+ 0x9E37_79B9_7F4A_7C15)
    }

    private static func finalize(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1) from the top 53 bits (exact, the same on every platform).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A standard normal deviate (Box–Muller; two draws per call, the sine half discarded so the
    /// stream of draws per fix is fixed).
    public mutating func nextGaussian() -> Double {
        let u1 = 1 - nextUnit()  // (0, 1]: log is finite
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
