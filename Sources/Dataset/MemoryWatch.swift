import Foundation

/// Watches how much memory the machine (or the container's memory limit) has left while a long
/// job runs, and calls `onLow` once — on a background thread — when it falls below a floor: an
/// import that would otherwise run the machine out of memory (and be killed, or make it swap
/// for minutes) stops with a clear error instead. Linux only (`/proc/meminfo`, a cgroup's
/// memory limit, v2 or v1); elsewhere it never fires.
public final class MemoryWatch: @unchecked Sendable {
    /// What the machine had left when the watch fired, and what the process held.
    public struct Reading: Sendable {
        public let availableBytes: Int
        public let processBytes: Int
    }

    private let timer: DispatchSourceTimer

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

    /// Bytes the machine can still give (`MemAvailable`), or the container's limit minus its use
    /// when that is less; `nil` where neither can be read.
    public static func availableBytes() -> Int? {
        let machine = meminfo("MemAvailable:")
        guard let (limit, used) = cgroupLimit(), limit < 1 << 60 else { return machine }
        return min(machine ?? .max, max(0, limit - used))
    }

    /// The machine's memory (`MemTotal`).
    public static func totalBytes() -> Int? { meminfo("MemTotal:") }

    /// Hands the heap's free pages back to the system (glibc's `malloc_trim`; elsewhere nothing):
    /// called between an import's steps, so that the memory a finished step freed leaves the
    /// resident size (and the next step's large blocks are not placed after the freed ones).
    public static func returnFreedMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// This process's resident bytes (`VmRSS`).
    public static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return kibibytes(in: text, key: "VmRSS:")
    }

    private static func meminfo(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) else { return nil }
        return kibibytes(in: text, key: key)
    }

    private static func kibibytes(in text: String, key: String) -> Int? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }),
              let value = line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap({ Int($0) })
        else { return nil }
        return value * 1024
    }

    /// This process's cgroup memory limit and use: v2 (`memory.max`, `memory.current`) or v1
    /// (`memory.limit_in_bytes`, `memory.usage_in_bytes`), the use without the page cache the
    /// kernel can drop (`inactive_file` of `memory.stat`); `nil` without a limit.
    private static func cgroupLimit() -> (limit: Int, used: Int)? {
        guard let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        func number(_ path: String) -> Int? {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        func reclaimable(_ folder: String, _ key: String) -> Int {
            guard let text = try? String(contentsOfFile: folder + "/memory.stat", encoding: .utf8),
                  let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key + " ") }) else { return 0 }
            return Int(line.dropFirst(key.count + 1)) ?? 0
        }
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let v2 = "/sys/fs/cgroup\(fields[2])"
            if fields[0] == "0", fields[1].isEmpty, let limit = number(v2 + "/memory.max"), let used = number(v2 + "/memory.current") {
                return (limit, used - reclaimable(v2, "inactive_file"))
            }
            if fields[1].split(separator: ",").contains("memory") {
                // Inside a container the cgroup's own folder is mounted at the root.
                for folder in ["/sys/fs/cgroup/memory\(fields[2])", "/sys/fs/cgroup/memory"] {
                    if let limit = number(folder + "/memory.limit_in_bytes"), let used = number(folder + "/memory.usage_in_bytes") {
                        return (limit, used - reclaimable(folder, "total_inactive_file"))
                    }
                }
            }
        }
        return nil
    }
}
