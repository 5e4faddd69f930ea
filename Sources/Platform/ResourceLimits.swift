/// The process' resource limits: Glibc imports `RLIMIT_*` as an enum whose raw value must be
/// converted to `__rlimit_resource_t`, Darwin as plain `Int32` macros; Darwin also refuses a
/// soft open-file limit above `OPEN_MAX` even when the hard limit is unlimited.
public enum ResourceLimits {
    #if canImport(Glibc)
    private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    private static let coreSize = __rlimit_resource_t(RLIMIT_CORE.rawValue)
    #elseif canImport(Musl)
    private static let openFiles = Int32(RLIMIT_NOFILE)
    private static let coreSize = Int32(RLIMIT_CORE)
    #else
    private static let openFiles = RLIMIT_NOFILE
    private static let coreSize = RLIMIT_CORE
    #endif

    /// The soft limit on open files, nil if it cannot be read.
    public static var openFileLimit: Int? {
        var limits = rlimit()
        guard getrlimit(openFiles, &limits) == 0 else { return nil }
        return limits.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }

    /// Raises the soft limit on open files towards `needed`, bounded by the hard limit (and on
    /// Darwin by `OPEN_MAX`, 10,240); never lowers it.
    public static func raiseOpenFileLimit(to needed: Int) {
        var limits = rlimit()
        guard getrlimit(openFiles, &limits) == 0, limits.rlim_cur < rlim_t(needed) else { return }
        limits.rlim_cur = min(limits.rlim_max, rlim_t(needed))
        if setrlimit(openFiles, &limits) != 0 {
            #if canImport(Darwin)
            limits.rlim_cur = min(limits.rlim_cur, 10_240)
            _ = setrlimit(openFiles, &limits)
            #endif
        }
    }

    /// No core file for this process (a child about to run code that may trap on purpose).
    /// Async-signal-safe.
    public static func disableCoreDumps() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(coreSize, &none)
    }
}
