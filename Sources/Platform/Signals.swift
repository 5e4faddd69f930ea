import Dispatch

/// Process-wide signal settings shared by every target.
public enum Signals {
    /// Makes writing to a closed pipe or socket fail with EPIPE instead of ending the process
    /// (SIGPIPE ignored; idempotent, thread-safe).
    public static func ignoreBrokenPipes() { _ = brokenPipesIgnored }

    private static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Takes over SIGINT and SIGTERM: their default action is ignored and `handler` runs on a global
    /// queue with the signal's number each time one arrives. Keep the returned sources for as long
    /// as the handling should last (the one installer of `serve`'s graceful stop and `import`'s clean-up).
    public static func onTermination(_ handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

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
