import Foundation
import TextFolding

/// A CSV file with a header row, read row by row with column access by name and
/// strict per-row checks (column count, numbers). Errors name the file, the data row
/// (1-based, header excluded) and the line where the row starts.
struct CSVTable {
    let url: URL
    let reader: CSVReader
    let width: Int
    private let columns: [String: Int]

    init(url: URL, required: Set<String>) throws {
        self.url = url
        reader = try CSVReader(url: url)
        guard let header = try reader.next() else {
            throw DatasetError.malformed(url, nil, "empty file (no header row)")
        }
        let names = header.map { $0.trimmingCharacters(in: .whitespaces) }
        var columns: [String: Int] = [:]
        for (index, name) in names.enumerated() where columns[name] == nil { columns[name] = index }
        let missing = required.subtracting(columns.keys).sorted()
        if !missing.isEmpty {
            throw DatasetError.malformed(url, "line 1", "missing column\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", "))")
        }
        self.columns = columns
        self.width = names.count
    }

    func has(_ column: String) -> Bool { columns[column] != nil }

    /// The next data row, or nil at the end.
    func next() throws -> Row? {
        guard let fields = try reader.next() else { return nil }
        let row = Row(table: self, fields: fields, number: reader.recordNumber - 1, line: reader.recordStartLine)
        if fields.count != width {
            throw row.error("expected \(width) columns, found \(fields.count)")
        }
        return row
    }

    struct Row {
        let table: CSVTable
        let fields: [String]
        /// 1-based data row number (the header is not counted).
        let number: Int
        /// Line on which the row starts.
        let line: Int

        var location: String { "row \(number) (line \(line))" }

        func error(_ message: String) -> DatasetError {
            DatasetError.malformed(table.url, location, message)
        }

        /// The raw field ("" if the column does not exist).
        subscript(_ column: String) -> String {
            guard let index = table.columns[column] else { return "" }
            return fields[index]
        }

        /// A display-cleaned field (NFC, Ð→Đ, single spaces).
        func text(_ column: String) -> String {
            let raw = self[column]
            return raw.isEmpty ? "" : TextFolding.clean(raw)
        }

        func double(_ column: String, in range: ClosedRange<Double>) throws -> Double {
            let raw = self[column].trimmingCharacters(in: .whitespaces)
            guard let value = Double(raw), value.isFinite else {
                throw error("\(column) is not a number: \(raw.isEmpty ? "empty" : "'\(raw.prefix(40))'")")
            }
            guard range.contains(value) else { throw error("\(column) out of range: \(raw)") }
            return value
        }

        /// A required integer code ("00070" → 70).
        func code(_ column: String) throws -> Int {
            let raw = self[column].trimmingCharacters(in: .whitespaces)
            guard let value = Int(raw), value >= 0 else {
                throw error("\(column) is not a numeric code: \(raw.isEmpty ? "empty" : "'\(raw.prefix(40))'")")
            }
            return value
        }

        /// An optional integer code: empty → nil.
        func optionalCode(_ column: String) throws -> Int? {
            let raw = self[column].trimmingCharacters(in: .whitespaces)
            if raw.isEmpty { return nil }
            guard let value = Int(raw), value >= 0 else {
                throw error("\(column) is not a numeric code: '\(raw.prefix(40))'")
            }
            return value
        }

        func int(_ column: String, default fallback: Int) throws -> Int {
            let raw = self[column].trimmingCharacters(in: .whitespaces)
            if raw.isEmpty { return fallback }
            guard let value = Int(raw) else { throw error("\(column) is not an integer: '\(raw.prefix(40))'") }
            return value
        }
    }
}
