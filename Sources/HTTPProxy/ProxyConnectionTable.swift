import CGnuTLS
import Foundation
import HTTPServer

/// The proxy's open client connections and the limits on them, the same as the direct port's
/// (`ConnectionGuard`, docs/limits.md): at most `maxPerClient` from one client address (more are
/// closed as soon as they are accepted), at most `maxTotal` in all (the connection that has
/// waited longest for its head or TLS handshake is closed to make room; when none is waiting,
/// the new one gets a 503), and a deadline per phase that trickled bytes do not extend.
///
/// Not thread-safe: `ProxyServer` keeps it under its lock. Closing a connection means
/// `shutdown(2)` on its socket, by the caller, for the sockets a method returns.
struct ProxyConnectionTable {
    /// Where a connection is.
    enum Phase: Equatable {
        /// Reading the first request head (CONNECT or absolute form).
        case awaitingHead
        /// `200 Connection established` sent; the TLS ClientHello and handshake are due.
        case handshake
        /// An absolute-form request: its head and body are going to the backend.
        case forwardingRequest
        /// The request is with the backend (or a pass-through host); only its answer flows, to the client.
        case awaitingAnswer
        /// A tunnel to the backend (CONNECT to a simulated host, after TLS on 443).
        case tunnel
        /// A CONNECT tunnel or forwarded request to a pass-through host (not the simulator's).
        case passThrough
    }

    /// One open connection.
    struct Entry {
        let client: String
        /// When the connection was accepted (monotonic nanoseconds).
        let opened: UInt64
        var phase: Phase = .awaitingHead
        /// When the phase began (monotonic nanoseconds).
        var since: UInt64
        /// When the connection is closed unless its phase moved on (monotonic nanoseconds).
        var deadline: UInt64?
        /// Bytes of a request head have arrived.
        var receivedHead = false
        /// Consecutive drain checks that found the connection idle (no head bytes, none unread).
        var idleChecks = 0
        /// The running tunnel's state, while in `.tunnel`.
        var tunnel: UnsafeMutablePointer<TunnelState>?
        /// The table had the socket shut down (deadline, making room, draining).
        var closing = false
    }

    /// What to do with a newly accepted connection.
    enum Admission: Equatable {
        /// Serve it; first shut down `evicting` if set (the connection that made room).
        case admitted(evicting: Int32?)
        /// Over the per-client-address limit: close it at once.
        case overClientLimit
        /// Every slot is busy past its head and handshake: answer 503 and close.
        case busy
    }

    let maxTotal: Int
    /// 0: no per-client limit.
    let maxPerClient: Int

    private(set) var entries: [Int32: Entry] = [:]
    private var perClient: [String: Int] = [:]
    /// Open connections not being closed (those count towards `maxTotal`).
    private var live = 0
    private(set) var evicted = 0
    private(set) var overClientLimit = 0
    private(set) var timedOut = 0

    init(maxTotal: Int, maxPerClient: Int) {
        self.maxTotal = maxTotal
        self.maxPerClient = maxPerClient
    }

    var count: Int { entries.count }

    /// Admits `socket` from `client` at `now`, its head due by `headDeadline`.
    mutating func admit(_ socket: Int32, client: String, now: UInt64, headDeadline: UInt64?) -> Admission {
        if maxPerClient > 0, perClient[client, default: 0] >= maxPerClient {
            overClientLimit += 1
            return .overClientLimit
        }
        var evicting: Int32?
        if live >= maxTotal {
            guard let oldest = entries.filter({ !$0.value.closing && ($0.value.phase == .awaitingHead || $0.value.phase == .handshake) })
                .min(by: { $0.value.since < $1.value.since })?.key else { return .busy }
            markClosing(oldest)
            evicted += 1
            evicting = oldest
        }
        entries[socket] = Entry(client: client, opened: now, since: now, deadline: headDeadline)
        perClient[client, default: 0] += 1
        live += 1
        return .admitted(evicting: evicting)
    }

    /// The connection on `socket` ended (its thread is about to close the socket).
    mutating func remove(_ socket: Int32) {
        guard let entry = entries.removeValue(forKey: socket) else { return }
        if !entry.closing { live -= 1 }
        let left = perClient[entry.client, default: 1] - 1
        perClient[entry.client] = left > 0 ? left : nil
    }

    /// `socket` moved on to `phase` at `now`; `deadline` replaces the previous one (nil: none).
    mutating func enter(_ phase: Phase, socket: Int32, now: UInt64, deadline: UInt64?,
                        tunnel: UnsafeMutablePointer<TunnelState>? = nil) {
        guard entries[socket] != nil else { return }
        entries[socket]!.phase = phase
        entries[socket]!.since = now
        entries[socket]!.deadline = deadline
        entries[socket]!.tunnel = tunnel
    }

    mutating func noteHeadBytes(_ socket: Int32) {
        entries[socket]?.receivedHead = true
    }

    /// Marks every connection past its deadline as closing and returns their sockets.
    mutating func expired(now: UInt64) -> [Int32] {
        let due = entries.filter { !$0.value.closing && $0.value.deadline.map { now > $0 } == true }.map(\.key)
        for socket in due { markClosing(socket) }
        timedOut += due.count
        return due
    }

    /// While draining: the connections waiting for a first head with nothing received (not even
    /// unread in their socket, by `hasUnreadBytes`) on two consecutive calls, marked closing.
    mutating func idleForDrain(hasUnreadBytes: (Int32) -> Bool) -> [Int32] {
        var idle: [Int32] = []
        for (socket, entry) in entries where !entry.closing {
            let quiet = entry.phase == .awaitingHead && !entry.receivedHead && !hasUnreadBytes(socket)
            entries[socket]!.idleChecks = quiet ? entry.idleChecks + 1 : 0
            if quiet, entry.idleChecks + 1 >= 2 { idle.append(socket) }
        }
        for socket in idle { markClosing(socket) }
        return idle
    }

    /// Whether everything clients sent to the simulator so far has reached the backend: no
    /// connection is waiting for a head (those that sent nothing are closed by `idleForDrain`),
    /// in a TLS handshake, or sending a request on, and every tunnel has passed on what it
    /// received (`tunnelFlushed`). Pass-through connections and those being closed do not count.
    func flushed(tunnelFlushed: (Int32, UnsafeMutablePointer<TunnelState>) -> Bool) -> Bool {
        entries.allSatisfy { socket, entry in
            if entry.closing { return true }
            switch entry.phase {
            case .awaitingHead: return false
            case .handshake, .forwardingRequest: return false
            case .awaitingAnswer, .passThrough: return true
            case .tunnel: return entry.tunnel.map { tunnelFlushed(socket, $0) } ?? false
            }
        }
    }

    /// Whether any connection still serves the simulator (pass-through ones aside).
    var servesSimulator: Bool {
        entries.values.contains { !$0.closing && $0.phase != .passThrough }
    }

    /// Marks every connection closing and returns their sockets (those not already closing).
    mutating func closeAll() -> [Int32] {
        let open = entries.filter { !$0.value.closing }.map(\.key)
        for socket in open { markClosing(socket) }
        return open
    }

    private mutating func markClosing(_ socket: Int32) {
        guard entries[socket] != nil, !entries[socket]!.closing else { return }
        entries[socket]!.closing = true
        live -= 1
    }
}
