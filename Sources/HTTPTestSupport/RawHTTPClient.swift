import Foundation
import Platform

/// A minimal blocking HTTP/1.1 client over a POSIX socket, for what URLSession hides:
/// connection reuse, pipelining, empty replies, resets and truncated bodies.
public final class RawHTTPClient {
    public struct Response: Sendable {
        public var statusLine: String
        public var headers: [(name: String, value: String)]
        public var body: Data
        /// The connection ended before `Content-Length` bytes arrived.
        public var truncated: Bool

        public var status: Int {
            let parts = statusLine.split(separator: " ")
            return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case system(String, Int32)
        case closedBeforeHeaders(received: Int)

        public var description: String {
            switch self {
            case .system(let call, let code): return "\(call) failed: errno \(code) (\(String(cString: strerror(code))))"
            case .closedBeforeHeaders(let received): return "connection closed after \(received) bytes, before the headers ended"
            }
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var sawEOF = false

    /// Connects to 127.0.0.1:`port`; `sourceAddress` (another 127.x.y.z) makes the
    /// connection come from a different client address.
    public init(port: UInt16, receiveTimeout: TimeInterval = 5, sourceAddress: String? = nil) throws {
        fd = Sockets.makeStream(family: AF_INET)
        guard fd >= 0 else { throw Failure.system("socket", errno) }
        var timeout = timeval(tv_sec: Int(receiveTimeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            try Self.call("bind", fd, Self.ipv4(sourceAddress, port: 0)) { bind($0, $1, $2) }
        }
        try Self.call("connect", fd, Self.ipv4("127.0.0.1", port: port)) { connect($0, $1, $2) }
    }

    /// An IPv4 socket address.
    private static func ipv4(_ address: String, port: UInt16) -> sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        result.sin_addr.s_addr = inet_addr(address)
        return result
    }

    /// Runs `bind` or `connect` on `fd` with `address`; on failure closes `fd` and throws naming the call.
    private static func call(_ name: String, _ fd: Int32, _ address: sockaddr_in,
                             _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws {
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure.system(name, code)
        }
    }

    deinit {
        close(fd)
    }

    public func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Sockets.send(fd, bytes.baseAddress! + offset, bytes.count - offset)
                guard written > 0 else { throw Failure.system("send", errno) }
                offset += written
            }
        }
    }

    /// Sends a GET for `target` (keep-alive).
    public func get(_ target: String) throws {
        try write("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    /// Reads one response: headers, then `Content-Length` body bytes (or until EOF).
    public func readResponse() throws -> Response {
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = findHeaderEnd()
            if headerEnd == nil {
                guard try fill() else { throw Failure.closedBeforeHeaders(received: buffer.count) }
            }
        }
        let headerText = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        buffer.removeFirst(headerEnd! + 4)
        var lines = headerText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
        var truncated = false
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        if status == 204 || status == 304 || (100..<200).contains(status) {
            return Response(statusLine: statusLine, headers: headers, body: Data(), truncated: false)
        }
        if let length {
            while buffer.count < length {
                guard try fill() else { truncated = true; break }
            }
        } else {
            while try fill() {}
        }
        let count = min(length ?? buffer.count, buffer.count)
        let body = Data(buffer[..<count])
        buffer.removeFirst(count)
        return Response(statusLine: statusLine, headers: headers, body: body, truncated: truncated)
    }

    /// Reads one response head up to its blank line and returns it (without the blank line),
    /// leaving what follows unread: a proxy's `200 Connection established`, whose "body" is the
    /// tunnel.
    public func readHead() throws -> String {
        while true {
            if let end = findHeaderEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                return head
            }
            guard try fill() else { throw Failure.closedBeforeHeaders(received: buffer.count) }
        }
    }

    /// Whether anything (a byte, the end of the stream or an error) has arrived that was not
    /// read yet; does not wait. For "no answer yet" checks.
    public var hasReceivedSomething: Bool {
        if !buffer.isEmpty || sawEOF { return true }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Reads until EOF or an error; returns the bytes and the errno of a failed read.
    public func readToEnd() -> (data: Data, error: Int32?) {
        do {
            while try fill() {}
            return (Data(buffer), nil)
        } catch Failure.system(_, let code) {
            return (Data(buffer), code)
        } catch {
            return (Data(buffer), EIO)
        }
    }

    /// Reads more bytes into the buffer; false at EOF.
    private func fill() throws -> Bool {
        if sawEOF { return false }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = recv(fd, &chunk, chunk.count, 0)
        if count < 0 { throw Failure.system("recv", errno) }
        if count == 0 { sawEOF = true; return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
