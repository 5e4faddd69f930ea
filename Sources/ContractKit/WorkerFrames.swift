import Foundation
import Platform

/// The frames a contract worker and its test process exchange over two pipes (requests on the
/// worker's descriptor 3, answers on its descriptor 4): a kind byte, a little-endian 32-bit
/// length, the bytes. Requests carry three fields (model name, mangled type name, input), each
/// with its own length; answers carry one.
enum WorkerFrame {
    /// Request kinds.
    static let decode: UInt8 = UInt8(ascii: "d")
    static let polyline: UInt8 = UInt8(ascii: "p")
    static let traced: UInt8 = UInt8(ascii: "t")
    /// Answer kinds: the call's result, a trace line (`traced`), the worker could not run it.
    static let result: UInt8 = UInt8(ascii: "R")
    static let traceLine: UInt8 = UInt8(ascii: "L")
    static let refused: UInt8 = UInt8(ascii: "E")

    /// Descriptors in the worker.
    static let requestDescriptor: Int32 = 3
    static let answerDescriptor: Int32 = 4

    /// The largest frame either side accepts (a response body is at most a few megabytes).
    static let maximumLength = 256 << 20

    static func encode(kind: UInt8, fields: [Data]) -> Data {
        var out = Data([kind])
        let body = fields.count == 1 ? fields[0] : fields.reduce(into: Data()) { body, field in
            body.append(contentsOf: length(field.count))
            body.append(field)
        }
        out.append(contentsOf: length(body.count))
        out.append(body)
        return out
    }

    /// The fields of a request body (three length-prefixed fields); nil when malformed.
    static func fields(of body: Data, count: Int) -> [Data]? {
        var fields: [Data] = []
        var offset = body.startIndex
        for _ in 0..<count {
            guard body.endIndex - offset >= 4 else { return nil }
            let size = Int(readLength(body, at: offset))
            offset += 4
            guard body.endIndex - offset >= size else { return nil }
            fields.append(body.subdata(in: offset..<offset + size))
            offset += size
        }
        return offset == body.endIndex ? fields : nil
    }

    static func length(_ count: Int) -> [UInt8] {
        let value = UInt32(count)
        return [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24)]
    }

    static func readLength(_ data: Data, at offset: Data.Index) -> UInt32 {
        UInt32(data[offset]) | UInt32(data[offset + 1]) << 8 | UInt32(data[offset + 2]) << 16 | UInt32(data[offset + 3]) << 24
    }

    /// Writes all of `data` to `fd`; false when the other side is gone.
    @discardableResult
    static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads one frame from `fd` (blocking); nil at end of file or on a malformed frame.
    static func readFrame(from fd: Int32) -> (kind: UInt8, body: Data)? {
        guard let head = readExactly(5, from: fd) else { return nil }
        let size = Int(readLength(head, at: head.startIndex + 1))
        guard size <= maximumLength, let body = readExactly(size, from: fd) else { return nil }
        return (head[head.startIndex], body)
    }

    private static func readExactly(_ count: Int, from fd: Int32) -> Data? {
        var data = Data(count: count)
        var offset = 0
        let complete = data.withUnsafeMutableBytes { buffer -> Bool in
            while offset < count {
                let got = read(fd, buffer.baseAddress! + offset, count - offset)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return false }
                offset += got
            }
            return true
        }
        return complete ? data : nil
    }
}
