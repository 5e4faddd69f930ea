import CMicroHTTPD
import Foundation
import Platform

/// One open TCP connection as `ConnectionGuard` sees it. Its mutable fields are guarded
/// by the guard's lock.
final class TrackedConnection: @unchecked Sendable {
    enum Phase {
        /// Waiting for (the rest of) a request head: a new connection, or a keep-alive one
        /// whose previous request is over.
        case awaitingHead
        /// The head is in; the body (if any) is still arriving.
        case receivingBody
        /// The request is complete and with the handler, or its response is being sent.
        case handling
    }

    /// The connection's socket; valid until the guard hears of its close.
    let socket: Int32
    /// The client's numeric address (nil if it could not be read).
    let peerAddress: String?
    var phase = Phase.awaitingHead
    /// When the current phase's deadline started (monotonic nanoseconds).
    var since: UInt64
    /// Whether a request line has arrived in the current `awaitingHead` phase.
    var requestStarted = false
    /// The guard has shut the socket down; MHD will notice and close the connection.
    var closing = false
    /// MHD has closed the connection.
    var removed = false
    /// Consecutive drain checks that found the connection idle (see `closeIdleConnections`).
    var idleChecks = 0

    init(socket: Int32, now: UInt64) {
        self.socket = socket
        self.since = now
        self.peerAddress = Sockets.peerAddress(socket)
    }
}

/// Protects the server from clients that hold connections without completing requests.
///
/// - **Soft connection limit.** When a new connection would exceed `maxConnections`, the
///   connection that has waited longest for a request head is closed to make room (slow or
///   idle clients lose their slot, a client that sends its request at once keeps it); if
///   every connection is busy with a request, the new connection is closed instead.
/// - **Deadlines that trickled bytes do not extend.** A request head must be complete within
///   `headerTimeout` of the connection opening (or of the previous response on a keep-alive
///   connection), the body within `bodyTimeout` of the head. A periodic sweep closes
///   connections past their deadline.
///
/// Closing means `shutdown(2)` on the socket from outside MHD's threads: MHD then reads
/// EOF and closes the connection itself. The socket stays valid because MHD reports the
/// close (`closed`, under the same lock) before it calls `close(2)`.
package final class ConnectionGuard: @unchecked Sendable {
    private let maxConnections: Int
    private let headerTimeout: UInt64
    private let bodyTimeout: UInt64

    private let lock = NSLock()
    private var connections: [ObjectIdentifier: TrackedConnection] = [:]
    /// Connections in the order they started waiting for a request head, with the `since`
    /// of that wait; entries whose connection moved on are skipped (and pruned) lazily.
    private var waiting: [(connection: TrackedConnection, since: UInt64)] = []
    private var waitingHead = 0
    private var liveCount = 0
    private var evictedCount = 0
    private var timedOutCount = 0
    private var timer: (any DispatchSourceTimer)?
    /// Sockets handed to libmicrohttpd (`ListenBacklog`) that it has not reported yet.
    private var handedOver: Set<Int32> = []

    init(maxConnections: Int, headerTimeout: TimeInterval, bodyTimeout: TimeInterval) {
        self.maxConnections = maxConnections
        self.headerTimeout = UInt64(max(0, headerTimeout) * 1e9)
        self.bodyTimeout = UInt64(max(0, bodyTimeout) * 1e9)
    }

    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Connection lifecycle (MHD threads)

    /// A connection was accepted. Makes room by closing the connection that waited longest
    /// for its request head when the limit is exceeded.
    func opened(socket: Int32) -> TrackedConnection {
        let connection = TrackedConnection(socket: socket, now: Self.now())
        lock.withLock {
            handedOver.remove(socket)
            connections[ObjectIdentifier(connection)] = connection
            liveCount += 1
            if liveCount > maxConnections {
                shutDown(longestWaiting() ?? connection)
                evictedCount += 1
            }
            enqueueWaiting(connection)
        }
        return connection
    }

    /// The connection that has waited longest for a request head (not yet closing), in
    /// amortized constant time. Call with `lock` held.
    ///
    /// A connection whose socket holds unread bytes is not waiting: its next request has
    /// arrived, libmicrohttpd just has not read it yet (a busy keep-alive client sends it
    /// the moment the previous answer is in). It is skipped and moved to the back of the
    /// queue (each entry is looked at once per call).
    private func longestWaiting() -> TrackedConnection? {
        var skipped: [(connection: TrackedConnection, since: UInt64)] = []
        defer { waiting.append(contentsOf: skipped) }
        while waitingHead < waiting.count {
            let entry = waiting[waitingHead]
            waitingHead += 1
            guard isWaiting(entry) else { continue }
            if !Self.hasUnreadBytes(entry.connection) { return entry.connection }
            skipped.append(entry)
        }
        return nil
    }

    /// Whether the kernel holds bytes for `connection` that libmicrohttpd has not read.
    private static func hasUnreadBytes(_ connection: TrackedConnection) -> Bool {
        vmsim_socket_unread_bytes(connection.socket) > 0
    }

    private func isWaiting(_ entry: (connection: TrackedConnection, since: UInt64)) -> Bool {
        let connection = entry.connection
        return !connection.closing && !connection.removed && connection.phase == .awaitingHead && connection.since == entry.since
    }

    /// Call with `lock` held, after `connection` started waiting for a head.
    private func enqueueWaiting(_ connection: TrackedConnection) {
        waiting.append((connection, connection.since))
        if waiting.count > 2 * connections.count + 64 {
            waiting = waiting[waitingHead...].filter(isWaiting)
            waitingHead = 0
        }
    }

    /// MHD is closing the connection (before it closes the socket).
    func closed(_ connection: TrackedConnection) {
        lock.withLock {
            guard connections.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            connection.removed = true
            if !connection.closing { liveCount -= 1 }
        }
    }

    /// `socket` is about to be handed to libmicrohttpd: count it as open until it is reported.
    func expectHandOver(socket: Int32) {
        lock.withLock { _ = handedOver.insert(socket) }
    }

    /// libmicrohttpd refused (and closed) a socket announced by `expectHandOver`.
    func handOverFailed(socket: Int32) {
        lock.withLock { _ = handedOver.remove(socket) }
    }

    /// A request line arrived.
    func requestStarted(_ connection: TrackedConnection) {
        lock.withLock { connection.requestStarted = true }
    }

    /// The request head is complete; the body deadline starts.
    func headComplete(_ connection: TrackedConnection) {
        lock.withLock {
            connection.phase = .receivingBody
            connection.since = Self.now()
        }
    }

    /// The request is complete and goes to the handler (or a limit error is queued).
    func dispatched(_ connection: TrackedConnection) {
        lock.withLock { connection.phase = .handling }
    }

    /// The request is over; on a keep-alive connection the next head's deadline starts.
    func requestCompleted(_ connection: TrackedConnection) {
        lock.withLock {
            connection.phase = .awaitingHead
            connection.requestStarted = false
            connection.since = Self.now()
            if !connection.removed { enqueueWaiting(connection) }
        }
    }

    // MARK: Sweeping and draining

    /// Starts the periodic deadline check.
    func startSweeping(every interval: TimeInterval = 0.25) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vmsim.http.connection-guard"))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.sweep() }
        timer.resume()
        lock.withLock { self.timer = timer }
    }

    func stopSweeping() {
        let timer = lock.withLock { () -> (any DispatchSourceTimer)? in
            defer { self.timer = nil }
            return self.timer
        }
        timer?.cancel()
    }

    /// Closes every connection past its head or body deadline.
    ///
    /// The clock is read with the lock held (unless `now` is given, for tests): read before
    /// it, it could be older than a `since` that an MHD thread set while the sweep waited for
    /// the lock, and the unsigned difference would wrap to a huge age — a busy keep-alive
    /// connection was then closed a millisecond after its previous answer, its next request
    /// unanswered. A `since` later than `now` counts as no time elapsed.
    func sweep(now givenNow: UInt64? = nil) {
        lock.withLock {
            let now = givenNow ?? Self.now()
            for connection in connections.values where !connection.closing {
                let limit: UInt64
                switch connection.phase {
                case .awaitingHead: limit = headerTimeout
                case .receivingBody: limit = bodyTimeout
                case .handling: continue
                }
                if limit > 0, now > connection.since, now - connection.since > limit {
                    shutDown(connection)
                    timedOutCount += 1
                }
            }
        }
    }

    /// Closes connections that are between requests (no request line yet, and no unread
    /// bytes: a request the kernel received is answered, even if libmicrohttpd has not
    /// read it yet); used while draining, every few milliseconds. A connection is closed
    /// when two consecutive calls found it idle: libmicrohttpd reads a request and parses
    /// its request line in one go, and a single look could fall between the two. Returns
    /// how many connections are still open (including those closing, and sockets handed
    /// over but not yet reported).
    @discardableResult
    func closeIdleConnections() -> Int {
        lock.withLock {
            for connection in connections.values where !connection.closing {
                let idle = connection.phase == .awaitingHead && !connection.requestStarted && !Self.hasUnreadBytes(connection)
                connection.idleChecks = idle ? connection.idleChecks + 1 : 0
                if connection.idleChecks >= 2 { shutDown(connection) }
            }
            return connections.count + handedOver.count
        }
    }

    /// Figures for tests and diagnostics.
    struct Counters: Sendable, Equatable {
        var open: Int
        var evicted: Int
        var timedOut: Int
    }

    var counters: Counters {
        lock.withLock { Counters(open: connections.count, evicted: evictedCount, timedOut: timedOutCount) }
    }

    /// Call with `lock` held.
    private func shutDown(_ connection: TrackedConnection) {
        guard !connection.closing else { return }
        connection.closing = true
        liveCount -= 1
        _ = shutdown(connection.socket, Int32(SHUT_RDWR))
    }
}
