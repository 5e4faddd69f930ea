import Dispatch
import Foundation
import Zlib
import Platform

/// One HTTP/1.1 GET over a plain socket, for `http://` upstreams: what URLSession on Linux
/// cannot give — back-pressure. The body is read only as fast as it is kept, so the cap bounds
/// memory however fast the upstream sends; every wait (connect, send, head, body) is bounded by
/// the one deadline; no redirect is followed; gzip is inflated here under the cap.
///
/// Not covered: the host name lookup (`getaddrinfo`) is not bounded by the deadline (an IP
/// address or `localhost` needs none).
struct PlainHTTPExchange {
    let url: URL
    let deadline: DispatchTime
    let timeout: TimeInterval
    let maxBodyBytes: Int
    /// Longest head accepted.
    static let maxHeadBytes = 64 * 1024

    private enum Stop: Error { case failure(UpstreamClient.Failure) }

    func run() -> Result<UpstreamClient.Answer, UpstreamClient.Failure> {
        do {
            let fd = try connect()
            defer { close(fd) }
            var reader = Reader(fd: fd, exchange: self)
            try reader.send(Data(requestHead().utf8))
            var (status, headers) = try reader.readHead()
            while (100...199).contains(status) && status != 101 {
                (status, headers) = try reader.readHead()  // interim answers (100 Continue)
            }
            guard (100...599).contains(status), status != 101 else { throw Stop.failure(.badStatus(status)) }
            let body = try readBody(&reader, status: status, headers: headers)
            return .success(UpstreamClient.Answer(status: status, headers: headers, body: body))
        } catch Stop.failure(let failure) {
            return .failure(failure)
        } catch {
            return .failure(.unreachable("connection lost"))
        }
    }

    private func requestHead() -> String {
        var target = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { target += "?" + query }
        let host = (url.host ?? "").contains(":") ? "[\(url.host!)]" : (url.host ?? "")
        let authority = url.port.map { "\(host):\($0)" } ?? host
        return "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nAccept: application/json\r\nAccept-Encoding: gzip\r\n"
            + "User-Agent: vietmap-sim\r\nConnection: close\r\n\r\n"
    }

    private func readBody(_ reader: inout Reader, status: Int, headers: [String: String]) throws -> Data {
        if status == 204 || status == 304 { return Data() }
        let encoding = headers["content-encoding"]?.lowercased().trimmingCharacters(in: .whitespaces) ?? "identity"
        let inflater: StreamingInflater?
        switch encoding {
        case "identity", "": inflater = nil
        case "gzip", "x-gzip":
            do { inflater = try StreamingInflater(limit: maxBodyBytes) } catch { throw Stop.failure(.unreachable("zlib could not start")) }
        default: throw Stop.failure(.unreachable("unsupported content-encoding \(encoding.prefix(20))"))
        }
        var raw = 0
        var body = Data()
        func keep(_ data: Data) throws {
            raw += data.count
            guard raw <= maxBodyBytes else { throw Stop.failure(.bodyTooLarge(limit: maxBodyBytes)) }
            if let inflater {
                do { try inflater.feed(data) } catch .tooLarge { throw Stop.failure(.bodyTooLarge(limit: maxBodyBytes)) } catch {
                    throw Stop.failure(.unreachable("corrupt gzip body"))
                }
            } else {
                body.append(data)
            }
        }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            while true {
                let line = try reader.readLine()
                let digits = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
                guard !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16) else {
                    throw Stop.failure(.unreachable("malformed chunked body"))
                }
                if size == 0 {
                    while try !reader.readLine().isEmpty {}  // trailers
                    break
                }
                guard raw + size <= maxBodyBytes else { throw Stop.failure(.bodyTooLarge(limit: maxBodyBytes)) }
                try reader.read(size, into: keep)
                guard try reader.readLine().isEmpty else { throw Stop.failure(.unreachable("malformed chunked body")) }
            }
        } else if let text = headers["content-length"] {
            guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                throw Stop.failure(.unreachable("malformed Content-Length"))
            }
            guard length <= maxBodyBytes else { throw Stop.failure(.bodyTooLarge(limit: maxBodyBytes)) }
            try reader.read(length, into: keep)
        } else {
            try reader.readToEnd(into: keep)
        }
        if let inflater {
            guard inflater.finished else { throw Stop.failure(.unreachable("truncated gzip body")) }
            return inflater.output
        }
        return body
    }

    // MARK: - Socket

    /// Milliseconds left before the deadline; throws `.timedOut` when none.
    fileprivate func remainingMilliseconds() throws -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds, end = deadline.uptimeNanoseconds
        guard end > now else { throw Stop.failure(.timedOut(timeout)) }
        return Int32(clamping: max(1, (end - now) / 1_000_000))
    }

    private func connect() throws -> Int32 {
        guard let host = url.host, !host.isEmpty else { throw Stop.failure(.unreachable("no host")) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Sockets.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, String(url.port ?? 80), &hints, &list) == 0, let first = list else {
            throw Stop.failure(.unreachable("host not found"))
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = Sockets.makeStream(family: info.pointee.ai_family)
            guard fd >= 0 else { lastError = errno; continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if Sockets.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            guard errno == EINPROGRESS else { lastError = errno; close(fd); continue }
            do {
                try wait(fd, for: Int16(POLLOUT))
            } catch {
                close(fd)
                throw error
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            if code == 0 { return fd }
            lastError = code
            close(fd)
        }
        throw Stop.failure(.unreachable(lastError == ECONNREFUSED ? "connection refused" : String(cString: strerror(lastError))))
    }

    /// Waits until `fd` is ready for `events` or the deadline passes.
    fileprivate func wait(_ fd: Int32, for events: Int16) throws {
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, try remainingMilliseconds())
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw Stop.failure(.unreachable("connection lost")) }
        }
    }

    /// Buffered reading with the deadline on every wait.
    private struct Reader {
        let fd: Int32
        let exchange: PlainHTTPExchange
        var buffer: [UInt8] = []
        var start = 0
        var eof = false

        func send(_ data: Data) throws {
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    try exchange.wait(fd, for: Int16(POLLOUT))
                    let written = Sockets.send(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                    guard written > 0 else { throw Stop.failure(.unreachable("connection lost")) }
                    offset += written
                }
            }
        }

        /// Reads more into the buffer; false at the end of the stream.
        mutating func fill() throws -> Bool {
            guard !eof else { return false }
            if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                try exchange.wait(fd, for: Int16(POLLIN))
                let count = recv(fd, &chunk, chunk.count, 0)
                if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if count < 0 { throw Stop.failure(.unreachable("connection lost")) }
                if count == 0 { eof = true; return false }
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
        }

        /// One CRLF-terminated line, without the CRLF (bare LF accepted).
        mutating func readLine(limit: Int = 8 * 1024) throws -> String {
            var scanned = 0  // bytes after `start` already searched
            while true {
                if let index = buffer[(start + scanned)...].firstIndex(of: 10) {
                    var line = buffer[start..<index]
                    if line.last == 13 { line = line.dropLast() }
                    start = index + 1
                    return String(decoding: line, as: UTF8.self)
                }
                scanned = buffer.count - start
                guard scanned <= limit else { throw Stop.failure(.unreachable("line longer than \(limit) bytes")) }
                guard try fill() else { throw Stop.failure(.unreachable("connection closed mid-answer")) }
            }
        }

        mutating func readHead() throws -> (Int, [String: String]) {
            let headStart = start
            let statusLine = try readLine()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
                throw Stop.failure(.unreachable("malformed status line"))
            }
            var headers: [String: String] = [:]
            while true {
                let line = try readLine()
                if line.isEmpty { break }
                guard start - headStart <= PlainHTTPExchange.maxHeadBytes else {
                    throw Stop.failure(.unreachable("head longer than \(PlainHTTPExchange.maxHeadBytes) bytes"))
                }
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                headers[name] = headers[name].map { "\($0), \(value)" } ?? value
            }
            return (status, headers)
        }

        /// Exactly `count` bytes, handed over as they arrive.
        mutating func read(_ count: Int, into keep: (Data) throws -> Void) throws {
            var left = count
            while left > 0 {
                if start == buffer.count {
                    guard try fill() else { throw Stop.failure(.unreachable("connection closed mid-body")) }
                }
                let take = min(left, buffer.count - start)
                try keep(Data(buffer[start..<start + take]))
                start += take
                left -= take
            }
        }

        mutating func readToEnd(into keep: (Data) throws -> Void) throws {
            while true {
                if start < buffer.count {
                    try keep(Data(buffer[start...]))
                    start = buffer.count
                }
                guard try fill() else { return }
            }
        }
    }
}
