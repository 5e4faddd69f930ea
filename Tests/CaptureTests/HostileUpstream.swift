import Foundation
import Platform

/// An upstream on 127.0.0.1 over a raw socket, for what `HTTPServer` will not do: trickle a
/// head or a body, stream a body without end, answer status 999. Every connection's request
/// head is read, then `script` writes the answer through `Connection.emit`, which counts the
/// bytes and fails once the peer has gone (so a script stops when the proxy gives up).
final class HostileUpstream: @unchecked Sendable {
    // @unchecked: mutable fields only under `lock`.
    struct Connection {
        let fd: Int32
        let upstream: HostileUpstream

        /// Writes `data` whole; false when the peer closed or the upstream is stopping.
        func emit(_ data: Data) -> Bool {
            guard !upstream.isStopped else { return false }
            return data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let written = Sockets.send(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { return false }
                    offset += written
                    upstream.count(written)
                }
                return true
            }
        }

        func emit(_ text: String) -> Bool { emit(Data(text.utf8)) }

        /// Sleeps, false when the upstream is stopping.
        func pause(_ seconds: TimeInterval) -> Bool {
            Thread.sleep(forTimeInterval: seconds)
            return !upstream.isStopped
        }
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var sent = 0
    private var running = 0
    private var heads: [String] = []

    init(script: @escaping @Sendable (Connection) -> Void) throws {
        let listener = Sockets.makeStream(family: AF_INET)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in
            while true {
                let fd = accept(listener, nil, nil)
                if fd < 0 { return }
                lock.withLock { running += 1 }
                Thread.detachNewThread { [self] in
                    var timeout = timeval(tv_sec: 5, tv_usec: 0)
                    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                    let head = Self.readHead(fd)
                    lock.withLock { heads.append(head) }
                    script(Connection(fd: fd, upstream: self))
                    close(fd)
                    lock.withLock { running -= 1 }
                }
            }
        }
    }

    var isStopped: Bool { lock.withLock { stopped } }
    /// Body and head bytes written so far, over all connections.
    var bytesSent: Int { lock.withLock { sent } }
    /// The request heads received, in order.
    var requestHeads: [String] { lock.withLock { heads } }

    fileprivate func count(_ bytes: Int) { lock.withLock { sent += bytes } }

    /// Waits up to `seconds` for every script to return; whether they all did.
    func waitForScripts(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lock.withLock({ running == 0 }) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func stop() {
        let first = lock.withLock { () -> Bool in defer { stopped = true }; return !stopped }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        _ = waitForScripts(5)
    }

    private static func readHead(_ fd: Int32) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while received.count < 64 * 1024, recv(fd, &byte, 1, 0) == 1 {
            received.append(byte)
            if received.suffix(4) == [13, 10, 13, 10] { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
