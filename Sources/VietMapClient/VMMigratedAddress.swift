import Foundation

/// An address written in the other administrative scheme (`/api/migrate-address/v3`).
public struct VMMigratedAddress: Codable, Sendable {
    public let address: String?
    public let name: String?
    public let display: String?
    public let boundaries: [VMBoundary]?
}
