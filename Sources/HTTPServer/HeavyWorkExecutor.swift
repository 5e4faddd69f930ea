import Foundation
import Platform

/// A bounded pool of threads, at lowered CPU priority, for the requests a server classifies as
/// heavy (``CostAwareServing``), so that heavy work never holds the libmicrohttpd workers that
/// answer light requests.
///
/// - **Bounded.** At most `threadCount` jobs run at once; the others wait in memory. Nothing is
///   refused: each waiting job is a request whose connection is suspended, so the server's
///   connection limit bounds the queue.
/// - **Fair across clients.** Jobs are queued per client (the peer address) and taken round-robin
///   across clients, first-in first-out within one: a client with a backlog of heavy requests
///   delays another client's heavy request by at most one job per thread, not by its backlog.
/// - **Below light work.** Each thread lowers its own priority once
///   (``ThreadPriority/lowerCurrentThreadForBulkWork()``: nice 10 on Linux), so a light request's
///   thread that wakes takes a core from them at once.
///
/// The threads end after `stop()` (or when the executor is released) once their running job returns.
public final class HeavyWorkExecutor: Sendable {
    /// Figures of the executor, for tests and diagnostics.
    public struct Counters: Sendable, Equatable {
        /// Jobs waiting for a thread.
        public var queued: Int
        /// Jobs running now.
        public var running: Int
        /// Jobs finished since the start.
        public var completed: Int

        public init(queued: Int, running: Int, completed: Int) {
            self.queued = queued
            self.running = running
            self.completed = completed
        }
    }

    /// The threads that run jobs.
    public let threadCount: Int
    private let jobs = JobQueue()

    /// The default thread count: one per CPU this process can keep busy (``ProcessorCount``).
    public static var defaultThreadCount: Int { ProcessorCount.available }

    /// Starts `threads` (at least 1) worker threads.
    public init(threads: Int = HeavyWorkExecutor.defaultThreadCount) {
        threadCount = max(1, threads)
        for index in 0..<threadCount {
            let jobs = self.jobs
            let thread = Thread { Self.work(jobs) }
            thread.name = "vietmap-sim heavy \(index)"
            // The same stack as the server's own threads (pthread's default on Linux).
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    deinit {
        jobs.stop()
    }

    /// Whether the calling thread is one of an executor's (for work that would otherwise fan out
    /// to more threads, such as a matrix's parallel searches: on an executor it stays on one).
    public static var isCurrentThreadWorker: Bool {
        pthread_getspecific(workerMark.key) != nil
    }

    /// Queues `job` behind `client`'s earlier ones. After `stop()` the job is dropped.
    public func submit(client: String, _ job: @escaping @Sendable () -> Void) {
        jobs.submit(client: client, job)
    }

    /// The executor's figures now.
    public var counters: Counters {
        jobs.counters
    }

    /// Drops the waiting jobs and lets the threads end once their running job returns. Idempotent.
    public func stop() {
        jobs.stop()
    }

    /// A worker thread's life: mark itself, lower its priority, run jobs until stopped.
    private static func work(_ jobs: JobQueue) {
        pthread_setspecific(workerMark.key, UnsafeRawPointer(bitPattern: 1))
        ThreadPriority.lowerCurrentThreadForBulkWork()
        while let job = jobs.next() {
            job()
            jobs.finished()
        }
    }

    /// The thread-specific key set on every executor thread.
    private static let workerMark = WorkerMark()

    private final class WorkerMark: @unchecked Sendable {
        // @unchecked: the key is written once, in init.
        var key = pthread_key_t()
        init() { pthread_key_create(&key, nil) }
    }

    /// The per-client queues, their round-robin order and the counters, shared by the threads.
    ///
    /// `@unchecked Sendable`: every field is guarded by `condition`.
    private final class JobQueue: @unchecked Sendable {
        typealias Job = @Sendable () -> Void

        private let condition = NSCondition()
        /// Each client's waiting jobs, oldest first.
        private var queues: [String: FIFO<Job>] = [:]
        /// Clients with waiting jobs, in the order they get their next turn.
        private var rotation = FIFO<String>()
        private var stopped = false
        private var figures = Counters(queued: 0, running: 0, completed: 0)

        var counters: Counters {
            condition.withLock { figures }
        }

        func submit(client: String, _ job: @escaping Job) {
            condition.withLock {
                guard !stopped else { return }
                if queues[client] == nil {
                    queues[client] = FIFO()
                    rotation.push(client)
                }
                queues[client]!.push(job)
                figures.queued += 1
                condition.signal()
            }
        }

        /// The next job in round-robin order, waiting for one; nil once stopped.
        func next() -> Job? {
            condition.withLock {
                while true {
                    if stopped { return nil }
                    if let client = rotation.pop() {
                        var queue = queues.removeValue(forKey: client)!
                        let job = queue.pop()!
                        if !queue.isEmpty {
                            // Its next job waits for every other waiting client's turn.
                            queues[client] = queue
                            rotation.push(client)
                        }
                        figures.queued -= 1
                        figures.running += 1
                        return job
                    }
                    condition.wait()
                }
            }
        }

        func finished() {
            condition.withLock {
                figures.running -= 1
                figures.completed += 1
            }
        }

        func stop() {
            condition.withLock {
                stopped = true
                queues.removeAll()
                rotation = FIFO()
                figures.queued = 0
                condition.broadcast()
            }
        }
    }
}
