import Foundation

/// A streaming RFC 4180 CSV reader: quoted fields, doubled quotes (`""`), commas and line
/// breaks inside quotes, CRLF / LF / CR record ends, an optional UTF-8 byte-order mark.
///
/// The file is read in chunks, one record at a time; only the current record's fields are
/// ever materialised as strings. Blank lines between records are skipped. A quote inside an
/// unquoted field is kept literally (common in OSM data, e.g. `12" screen`); anything but a
/// comma or a line break after a closing quote is an error, as is an unterminated quote.
///
/// For example:
/// ```swift
/// let reader = try CSVReader(url: url)
/// let header = try reader.next()
/// while let fields = try reader.next() { print(reader.recordStartLine, fields) }
/// ```
public final class CSVReader {
    /// Name used in error messages (the file's last path component).
    public let name: String
    /// 1-based line on which the record last returned by `next()` starts.
    public private(set) var recordStartLine = 0
    /// 1-based number of the record last returned by `next()` (the header is record 1).
    public private(set) var recordNumber = 0

    private let handle: FileHandle?
    private var chunk: [UInt8]
    private var pos = 0
    private var atEOF = false
    private var line = 1
    private var pendingCR = false
    private var field: [UInt8] = []
    private var started = false

    private static let chunkSize = 1 << 16

    /// Opens `url` for streaming.
    /// - Throws: ``DatasetError`` with code `.missingInput` if the file cannot be opened.
    public init(url: URL) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw DatasetError.missing(url) }
        self.handle = handle
        self.name = url.lastPathComponent
        self.chunk = []
    }

    /// Reads CSV from memory (tests, small inputs).
    public init(data: Data, name: String = "<memory>") {
        self.handle = nil
        self.name = name
        self.chunk = [UInt8](data)
        self.atEOF = true
    }

    deinit { try? handle?.close() }

    private enum State { case fieldStart, unquoted, quoted, afterQuote }

    private func refill() throws -> Bool {
        guard !atEOF, let handle else { return false }
        let data: Data?
        do { data = try handle.read(upToCount: CSVReader.chunkSize) } catch {
            throw DatasetError(.malformedInput, file: name, location: "line \(line)", "read error: \(error)")
        }
        guard let data, !data.isEmpty else { atEOF = true; return false }
        chunk = [UInt8](data)
        pos = 0
        return true
    }

    /// The next record's fields, or `nil` at the end of the file.
    /// - Throws: ``DatasetError`` (`.malformedInput`) naming the file and line for an
    ///   unterminated quote or garbage after a closing quote.
    public func next() throws -> [String]? {
        let quote: UInt8 = 0x22, comma: UInt8 = 0x2C, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
        var fields: [String] = []
        var state = State.fieldStart
        var quotedRecord = false
        field.removeAll(keepingCapacity: true)
        recordStartLine = line

        if !started {
            started = true
            if chunk.isEmpty { _ = try refill() }
            if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { pos = 3 }
        }

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }

        while true {
            if pos >= chunk.count {
                if try !refill() {
                    // End of input.
                    if state == .quoted {
                        throw DatasetError(.malformedInput, file: name, location: "line \(recordStartLine)",
                                           "unterminated quoted field (opened in the record starting here)")
                    }
                    if fields.isEmpty && field.isEmpty && !quotedRecord { return nil }
                    endField()
                    recordNumber += 1
                    return fields
                }
            }
            let byte = chunk[pos]
            pos += 1
            if pendingCR {
                pendingCR = false
                if byte == lf { continue }  // CRLF: the CR already ended the record and counted the line
            }
            switch state {
            case .quoted:
                if byte == quote {
                    state = .afterQuote
                } else {
                    if byte == lf { line += 1 }
                    field.append(byte)
                }
            case .afterQuote:
                if byte == quote {
                    field.append(quote)
                    state = .quoted
                } else if byte == comma {
                    endField()
                    state = .fieldStart
                } else if byte == lf || byte == cr {
                    line += 1
                    if byte == cr { pendingCR = true }
                    endField()
                    recordNumber += 1
                    return fields
                } else {
                    throw DatasetError(.malformedInput, file: name, location: "line \(line)",
                                       "unexpected character after a closing quote")
                }
            case .fieldStart, .unquoted:
                if byte == comma {
                    endField()
                    state = .fieldStart
                } else if byte == lf || byte == cr {
                    line += 1
                    if byte == cr { pendingCR = true }
                    if fields.isEmpty && field.isEmpty && !quotedRecord {
                        // Blank line: skip it.
                        recordStartLine = line
                        state = .fieldStart
                        continue
                    }
                    endField()
                    recordNumber += 1
                    return fields
                } else if byte == quote && state == .fieldStart {
                    state = .quoted
                    quotedRecord = true
                } else {
                    field.append(byte)
                    state = .unquoted
                }
            }
        }
    }
}
