import Foundation

/// How many CPUs this process can keep busy: the CPUs it may run on (Foundation's
/// `activeProcessorCount`, which on Linux follows the affinity mask) capped by a Linux cgroup CPU
/// quota — v2 `cpu.max`, v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, rounded up — which a container
/// or a CI runner often sets below the machine's CPU count. At least 1.
public enum ProcessorCount {
    /// The CPUs available to this process (read once).
    public static let available: Int = {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        #if os(Linux)
        if let quota = cgroupQuota() { return max(1, min(online, quota)) }
        #endif
        return online
    }()

    #if os(Linux)
    /// The process' cgroup CPU quota in whole CPUs (rounded up); nil without one.
    private static func cgroupQuota() -> Int? {
        guard let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        func text(_ path: String) -> String? {
            (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func cpus(quota: Int, period: Int) -> Int? {
            guard quota > 0, period > 0 else { return nil }
            return (quota + period - 1) / period
        }
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty {
                // v2: "max 100000" (no quota) or "150000 100000"; inside a container its own folder is the root.
                for folder in ["/sys/fs/cgroup\(fields[2])", "/sys/fs/cgroup"] {
                    guard let value = text(folder + "/cpu.max") else { continue }
                    let parts = value.split(separator: " ")
                    guard parts.count == 2, let quota = Int(parts[0]), let period = Int(parts[1]) else { return nil }
                    return cpus(quota: quota, period: period)
                }
            }
            if fields[1].split(separator: ",").contains("cpu") {
                for folder in ["/sys/fs/cgroup/cpu\(fields[2])", "/sys/fs/cgroup/cpu,cpuacct\(fields[2])", "/sys/fs/cgroup/cpu"] {
                    if let quota = text(folder + "/cpu.cfs_quota_us").flatMap(Int.init),
                       let period = text(folder + "/cpu.cfs_period_us").flatMap(Int.init) {
                        return cpus(quota: quota, period: period)  // -1: no quota
                    }
                }
            }
        }
        return nil
    }
    #endif
}
