/// Socket constants and calls whose Swift spelling differs by platform: Glibc imports
/// `SOCK_STREAM` as an enum (`__socket_type`), Musl and Darwin as `Int32`; Linux suppresses
/// SIGPIPE per `send` (`MSG_NOSIGNAL`), Darwin per socket (`SO_NOSIGPIPE`).
public enum Sockets {
    /// `SOCK_STREAM` as the `Int32` that `socket(2)` and `addrinfo.ai_socktype` take.
    public static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for `send(2)` so that writing to a socket the peer closed fails with EPIPE instead of
    /// raising SIGPIPE (`MSG_NOSIGNAL`; 0 on Darwin, where `makeStream` sets `SO_NOSIGPIPE`).
    public static var sendFlags: Int32 {
        #if canImport(Glibc) || canImport(Musl)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// A TCP socket of `family` (`AF_INET`, `AF_INET6`), close-on-exec, that never raises SIGPIPE
    /// when written after the peer closed (with `sendFlags` on Linux; on Darwin the sockets a
    /// listener made here accepts inherit its SO_NOSIGPIPE); -1 and `errno` on failure.
    public static func makeStream(family: Int32) -> Int32 {
        let fd = socket(family, streamType, 0)
        guard fd >= 0 else { return fd }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// `send(2)` with `sendFlags`.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, bytes, count, sendFlags)
        #elseif canImport(Musl)
        Musl.send(fd, bytes, count, sendFlags)
        #else
        Darwin.send(fd, bytes, count, sendFlags)
        #endif
    }

    /// Ends the TCP connection on `fd` with a RST instead of a FIN (the peer reads ECONNRESET, not
    /// EOF), even though the socket's owner still calls `shutdown(SHUT_WR)` and `close` on it.
    /// SO_LINGER {1, 0} alone is not enough: the shutdown sends a FIN first. On Linux
    /// `connect(AF_UNSPEC)` dissolves the connection at once with a RST, and the later shutdown
    /// and close on the unconnected socket send nothing. Darwin's kernel refuses that `connect`
    /// on a connected TCP socket (EISCONN): there the peer may see the shutdown's FIN before the
    /// close's RST.
    public static func abortWithReset(_ fd: Int32) {
        var lingerOption = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &lingerOption, socklen_t(MemoryLayout<linger>.size))
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(fd, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }

    /// `listen(2)` (a type's own `listen` method would otherwise hide the C function).
    public static func listen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.listen(fd, backlog)
        #elseif canImport(Musl)
        Musl.listen(fd, backlog)
        #else
        Darwin.listen(fd, backlog)
        #endif
    }

    /// `connect(2)` (a type's own `connect` method would otherwise hide the C function).
    public static func connect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(fd, address, length)
        #elseif canImport(Musl)
        Musl.connect(fd, address, length)
        #else
        Darwin.connect(fd, address, length)
        #endif
    }

    /// The numeric address of the peer of the connected socket `fd` (`127.0.0.1`, `::1`); nil
    /// when `getpeername` fails (the peer already went away) or the family is not IP.
    public static func peerAddress(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard found == 0, Int32(storage.ss_family) == AF_INET || Int32(storage.ss_family) == AF_INET6 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let named = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard named == 0 else { return nil }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
