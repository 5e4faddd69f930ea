import Foundation
import SeededRandom

/// Added latency (`"delay"`), in milliseconds: `1000` or `{"fixed": 1000}`,
/// `{"uniform": {"min": 100, "max": 400}}`, or
/// `{"lognormal": {"median": 120, "p99": 900, "max": 3000}}` (`max` defaults to 2 × p99).
///
/// The delay holds no thread: the answer is sent from a timer of the engine's `ScenarioClock`.
enum DelaySpec: Sendable, Equatable {
    case fixed(Double)
    case uniform(min: Double, max: Double)
    case lognormal(median: Double, p99: Double, cap: Double)

    /// The 99th percentile of the standard normal distribution.
    static let z99 = 2.326_347_874_040_840_8

    /// A delay in whole milliseconds (rounded, so the value is the same on every platform's libm).
    func sample(_ random: inout SeededGenerator) -> Int {
        switch self {
        case .fixed(let ms):
            return Int(ms.rounded())
        case .uniform(let low, let high):
            return Int((low + (high - low) * random.nextUnit()).rounded())
        case .lognormal(let median, let p99, let cap):
            let sigma = log(p99 / median) / Self.z99
            let value = median * exp(sigma * random.nextNormal())
            return Int(min(cap, value).rounded())
        }
    }
}
