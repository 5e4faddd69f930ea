import Foundation

/// Thread scheduling the platforms spell differently.
public enum ThreadPriority {
    /// Makes the calling thread run only when a core would otherwise idle: Linux's `SCHED_IDLE`
    /// (nice 19 where refused), Foundation's `.background` quality of service elsewhere.
    public static func lowerCurrentThreadToIdle() {
        #if os(Linux)
        // Linux applies both to the calling thread when given 0. SCHED_IDLE is 5 (a _GNU_SOURCE name).
        let schedIdle: Int32 = 5
        var parameters = sched_param(sched_priority: 0)
        if sched_setscheduler(0, schedIdle, &parameters) != 0 { setCurrentThreadNice(19) }
        #else
        Thread.current.qualityOfService = .background
        #endif
    }

    /// Makes the calling thread yield to normal work without starving: nice 10 on Linux (a
    /// nice-0 thread that wakes gets about ten times its CPU share, and preempts it at once),
    /// Foundation's `.utility` quality of service elsewhere. For threads that run heavy requests
    /// beside the threads that answer light ones. Not reversible without privileges: meant for
    /// threads that do nothing else.
    public static func lowerCurrentThreadForBulkWork() {
        #if os(Linux)
        setCurrentThreadNice(10)
        #else
        Thread.current.qualityOfService = .utility
        #endif
    }

    #if os(Linux)
    /// `setpriority(PRIO_PROCESS, 0, nice)`: on Linux, for the calling thread only.
    private static func setCurrentThreadNice(_ nice: Int32) {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice)
        #else
        _ = setpriority(PRIO_PROCESS, 0, nice)  // Musl: plain Int32 macros
        #endif
    }
    #endif
}
