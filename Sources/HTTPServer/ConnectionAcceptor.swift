import CMicroHTTPD
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Accepts connections on the server's own listening socket in a dedicated thread and hands
/// them to libmicrohttpd (`MHD_add_connection`).
///
/// MHD's worker loops accept only a few connections per turn, so when they are busy the
/// kernel's accept queue grows and clients wait there — connected, request sent, unanswered —
/// for as long as it takes. A thread that does nothing but accept keeps that queue empty:
/// every connection is seen at once and either served or, over the limits, closed at once.
final class ConnectionAcceptor: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private var started = false
    /// Set once by `start` before the thread begins.
    private var daemon: OpaquePointer?

    /// Binds and listens on `address` (SO_REUSEADDR, IPV6_V6ONLY for IPv6; never SO_REUSEPORT).
    init(address: ListeningAddress, backlog: Int, endpoint: String) throws(HTTPServerError) {
        let fd = address.makeSocket()
        guard fd >= 0 else { throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (socket: \(Self.lastError()))") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSockaddr { bind(fd, $0, address.length) }
        guard bound == 0 else {
            let message = Self.lastError()
            close(fd)
            throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (bind: \(message))")
        }
        guard listen(fd, Int32(clamping: backlog > 0 ? backlog : Int(SOMAXCONN))) == 0 else {
            let message = Self.lastError()
            close(fd)
            throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (listen: \(message))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            close(fd)
            throw HTTPServerError("could not start the HTTP daemon on \(endpoint) (pipe: \(Self.lastError()))")
        }
        listener = fd
        wake = (pipeEnds[0], pipeEnds[1])
        port = Self.boundPort(fd)
    }

    /// Starts accepting for `daemon`.
    func start(daemon: OpaquePointer) {
        self.daemon = daemon
        lock.withLock { started = true }
        let thread = Thread { [self] in
            if let daemon = self.daemon { run(daemon: daemon) }
            finished.signal()
        }
        thread.name = "vmsim.http.accept"
        thread.start()
    }

    /// Stops accepting and closes the listening socket (new connections are refused).
    /// Idempotent; waits for the accept thread to end.
    func stop() {
        let (first, running) = lock.withLock { () -> (Bool, Bool) in
            defer { stopped = true }
            return (!stopped, started)
        }
        guard first else { return }
        if running {
            var byte: UInt8 = 1
            _ = write(wake.write, &byte, 1)
            finished.wait()
        }
        close(listener)
        close(wake.read)
        close(wake.write)
    }

    private func run(daemon: OpaquePointer) {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            // Take everything queued.
            while true {
                var storage = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let client = withUnsafeMutablePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
                }
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    if errno == EMFILE || errno == ENFILE { usleep(10_000) }  // out of descriptors: back off
                    break
                }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                // MHD takes the socket; on failure (limits) it closes it.
                _ = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, client, $0, length) }
                }
            }
        }
    }

    private static func boundPort(_ fd: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            family == AF_INET6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
