/// Process-wide signal settings shared by every target.
public enum Signals {
    /// Makes writing to a closed pipe or socket fail with EPIPE instead of ending the process
    /// (SIGPIPE ignored; idempotent, thread-safe).
    public static func ignoreBrokenPipes() { _ = brokenPipesIgnored }

    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// The signals a Swift trap or a memory fault raises: a child that runs code which may trap
    /// turns them into `_exit(128 + signal)` to keep core dumps and the backtracer out.
    public static let traps: [Int32] = [SIGTRAP, SIGILL, SIGSEGV, SIGBUS, SIGABRT, SIGFPE]

    /// `SIGILL`, `SIGSEGV`, …; `signal N` for others.
    public static func name(_ number: Int32) -> String {
        let names: [Int32: String] = [SIGTRAP: "SIGTRAP", SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS",
                                      SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM"]
        return names[number] ?? "signal \(number)"
    }
}
