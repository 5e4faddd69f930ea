import SeededRandom

/// SplitMix64 finalizer over a seed and a few integers: the one source of "random" choices
/// in a generated country, so that the same seed gives the same bytes on every run and machine.
enum SeededHash {
    static func mix(_ value: UInt64) -> UInt64 { SplitMix64.mix(value) }

    static func value(_ seed: UInt64, _ parts: Int64...) -> UInt64 {
        var h = mix(seed)
        for part in parts { h = mix(h ^ UInt64(bitPattern: part)) }
        return h
    }

    /// A value in [0, 1).
    static func unit(_ seed: UInt64, _ parts: Int64...) -> Double {
        var h = mix(seed)
        for part in parts { h = mix(h ^ UInt64(bitPattern: part)) }
        return Double(h >> 11) / Double(1 << 53)
    }
}
