import Foundation
import OSMReader

/// A failure while importing or locating a dataset. `description` is always one line that
/// names the file (and the row or line where it applies), e.g.
/// `hcmc_pois_osm2018.csv: row 17 (line 18): expected 25 columns, found 24`.
public struct DatasetError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a category callers can switch on.
    public enum Code: Sendable, Equatable {
        case missingInput
        case unrecognisedInput
        case malformedInput
        case output
        case database
        /// A dataset file whose bytes changed since it was built (see ``DatasetIntegrity``).
        case damaged
    }

    public let code: Code
    /// The file concerned (last path component is used in the message), if any.
    public let file: String?
    /// Location inside the file: "row 17 (line 18)", "line 3", "at [0].Wards[2].Code"…
    public let location: String?
    public let message: String

    public init(_ code: Code, file: String?, location: String? = nil, _ message: String) {
        self.code = code
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let location { parts.append(location) }
        parts.append(message)
        return DatasetError.oneLine(parts.joined(separator: ": "))
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    static func missing(_ url: URL) -> DatasetError {
        DatasetError(.missingInput, file: url.path, "no such file")
    }

    static func malformed(_ url: URL, _ location: String?, _ message: String) -> DatasetError {
        DatasetError(.malformedInput, file: url.lastPathComponent, location: location, message)
    }

    /// An OSM reading failure, in the importer's one-line form ("clip.osm: line 5: malformed XML: …").
    static func osm(_ error: OSMReadError, url: URL) -> DatasetError {
        switch error {
        case .io: return missing(url)
        case .unrecognizedFormat: return malformed(url, nil, "not an OSM XML or PBF file")
        case let .malformedXML(_, line, reason): return malformed(url, "line \(line)", "malformed XML: \(reason)")
        case let .malformedPBF(_, blob, offset, reason): return malformed(url, "blob #\(blob) at byte \(offset)", "malformed PBF: \(reason)")
        case let .unsupportedFeature(_, feature): return malformed(url, nil, "unsupported PBF feature \(feature)")
        case let .refusedElement(_, location, element, reason): return malformed(url, location, "\(element) \(reason)")
        }
    }
}

extension DatasetError: LocalizedError {
    public var errorDescription: String? { description }
}
