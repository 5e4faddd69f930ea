/// Why `MapExport` wrote nothing. `invalidArea` and `invalidZoom` are the caller's input (the CLI's usage
/// errors, exit 2); the others are the data or the file system (exit 1).
public enum MapExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A box that is not four finite degrees in range, or is empty or inverted.
    case invalidArea(String)
    /// A zoom range outside 0…24, inverted, or starting deeper than the tiles go.
    case invalidZoom(String)
    /// The dataset has no map features in the box (the whole export would be empty).
    case noData(String)
    /// Reading the dataset, or writing the MBTiles file, the style or its assets.
    case file(String)

    /// Whether the error is the caller's input (a usage error).
    public var isUsageError: Bool {
        switch self {
        case .invalidArea, .invalidZoom: return true
        case .noData, .file: return false
        }
    }

    public var description: String {
        switch self {
        case .invalidArea(let text), .invalidZoom(let text), .noData(let text), .file(let text): return text
        }
    }
}
