/// Socket constants and calls whose Swift spelling differs by platform: Glibc imports
/// `SOCK_STREAM` as an enum (`__socket_type`), Darwin as `Int32`; Linux suppresses SIGPIPE per
/// `send` (`MSG_NOSIGNAL`), Darwin per socket (`SO_NOSIGPIPE`).
public enum Sockets {
    /// `SOCK_STREAM` as the `Int32` that `socket(2)` and `addrinfo.ai_socktype` take.
    public static var streamType: Int32 {
        #if canImport(Glibc) || canImport(Musl)
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
    /// when written after the peer closed (with `sendFlags` on Linux); -1 and `errno` on failure.
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
}
