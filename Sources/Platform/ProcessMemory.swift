import Foundation

/// Memory figures and the heap's behaviour, read the way each platform offers them: Linux from
/// `/proc` and the process' cgroup (v2 or v1), Darwin from Mach (`task_info`, `host_statistics64`).
public enum ProcessMemory {
    /// This process' resident bytes (Linux `VmRSS`; Darwin `mach_task_basic_info.resident_size`).
    public static func residentBytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return kibibytes(in: text, key: "VmRSS:")
        #elseif canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(machTask, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.resident_size) : nil
        #else
        return nil
        #endif
    }

    /// The machine's memory.
    public static func totalBytes() -> Int? {
        let bytes = ProcessInfo.processInfo.physicalMemory
        return bytes > 0 ? Int(clamping: bytes) : nil
    }

    /// Bytes the machine can still give: Linux `MemAvailable`, or the cgroup's limit minus its use
    /// when that is less; Darwin the free, inactive and purgeable pages. Nil where unknown.
    public static func availableBytes() -> Int? {
        #if os(Linux)
        let machine = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)).flatMap { kibibytes(in: $0, key: "MemAvailable:") }
        guard let (limit, used) = cgroupLimit(), limit < 1 << 60 else { return machine }
        return min(machine ?? .max, max(0, limit - used))
        #elseif canImport(Darwin)
        var statistics = vm_statistics64()
        var count = mach_msg_type_number_t(MemoryLayout<vm_statistics64>.size / MemoryLayout<integer_t>.size)
        let result = withUnsafeMutablePointer(to: &statistics) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                host_statistics64(machHost, HOST_VM_INFO64, $0, &count)
            }
        }
        guard result == KERN_SUCCESS else { return nil }
        let pages = Int(statistics.free_count) + Int(statistics.inactive_count) + Int(statistics.purgeable_count)
        return pages * Int(sysconf(_SC_PAGESIZE))
        #else
        return nil
        #endif
    }

    /// Hands the heap's free pages back to the system: glibc's `malloc_trim(0)`, Darwin's
    /// `malloc_zone_pressure_relief(nil, 0)` (both looked up at run time; elsewhere nothing).
    public static func returnFreedHeap() {
        #if os(Linux)
        _ = mallocTrim?(0)
        #elseif canImport(Darwin)
        _ = pressureRelief?(nil, 0)
        #endif
    }

    #if os(Linux)
    private static let mallocTrim = symbol("malloc_trim", as: (@convention(c) (Int) -> Int32).self)
    #elseif canImport(Darwin)
    private static let pressureRelief = symbol("malloc_zone_pressure_relief",
                                               as: (@convention(c) (UnsafeMutableRawPointer?, Int) -> Int).self)
    #endif

    /// At most `count` malloc arenas (glibc's `mallopt(M_ARENA_MAX, count)`: request threads'
    /// short-lived allocations otherwise spread over up to 8 arenas a core that each keep freed
    /// pages). Darwin's allocator has no such setting: nothing.
    public static func limitArenas(to count: Int32) {
        #if os(Linux)
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let mallopt = symbol("mallopt", as: MallOpt.self) else { return }
        _ = mallopt(-8, count)  // M_ARENA_MAX (malloc.h is not part of the Glibc module)
        #endif
    }

    #if canImport(Darwin)
    /// This task's port, asked for once: `mach_task_self_` is a mutable C global, which Swift 6
    /// refuses to read with SDKs older than macOS 15.4, and each `task_self_trap()` /
    /// `mach_host_self()` call adds a reference to the port.
    private static let machTask: mach_port_t = task_self_trap()
    private static let machHost: host_t = mach_host_self()
    #endif

    /// A C function of the process by name (the libc's or another loaded library's), nil if absent.
    public static func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let process = dlopen(nil, RTLD_NOW), let address = dlsym(process, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    #if os(Linux)
    private static func kibibytes(in text: String, key: String) -> Int? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(key) }),
              let value = line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap({ Int($0) })
        else { return nil }
        return value * 1024
    }

    /// This process' cgroup memory limit and use: v2 (`memory.max`, `memory.current`) or v1
    /// (`memory.limit_in_bytes`, `memory.usage_in_bytes`), the use without the page cache the
    /// kernel can drop (`inactive_file` of `memory.stat`); nil without a limit.
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
    #endif
}
