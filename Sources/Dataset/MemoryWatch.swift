import Foundation
import Platform

/// Watches how much memory the machine (or the container's memory limit) has left while a long
/// job runs, and calls `onLow` once — on a background thread — when it falls below a floor: an
/// import that would otherwise run the machine out of memory (and be killed, or make it swap
/// for minutes) stops with a clear error instead. The figures are ``ProcessMemory``'s: on Linux
/// `MemAvailable` and a cgroup's memory limit (v2 or v1), on Darwin the free, inactive and
/// purgeable pages; where none can be read it never fires.
public final class MemoryWatch: @unchecked Sendable {
    /// What the machine had left when the watch fired, and what the process held.
    public struct Reading: Sendable {
        public let availableBytes: Int
        public let processBytes: Int
    }

    private let timer: any DispatchSourceTimer

    /// Starts watching every `interval` seconds; `onLow` runs at most once, when the bytes left
    /// fall below `floorBytes`.
    public init(floorBytes: Int, interval: Double = 0.25, onLow: @escaping @Sendable (Reading) -> Void) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vietmap-sim.memory-watch"))
        nonisolated(unsafe) var fired = false
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            guard !fired, let left = Self.availableBytes(), left < floorBytes else { return }
            fired = true
            onLow(Reading(availableBytes: left, processBytes: Self.residentBytes() ?? 0))
        }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// The default floor: 3% of the machine's memory, at least 256 MiB.
    public static var defaultFloorBytes: Int {
        max(256 << 20, (totalBytes() ?? 0) * 3 / 100)
    }

    /// Bytes the machine can still give, or the container's limit minus its use when that is
    /// less (``ProcessMemory/availableBytes()``); `nil` where neither can be read.
    public static func availableBytes() -> Int? { ProcessMemory.availableBytes() }

    /// The machine's memory.
    public static func totalBytes() -> Int? { ProcessMemory.totalBytes() }

    /// Hands the heap's free pages back to the system (``ProcessMemory/returnFreedHeap()``):
    /// called between an import's steps, so that the memory a finished step freed leaves the
    /// resident size (and the next step's large blocks are not placed after the freed ones).
    public static func returnFreedMemory() { ProcessMemory.returnFreedHeap() }

    /// This process's resident bytes.
    public static func residentBytes() -> Int? { ProcessMemory.residentBytes() }
}
