import Foundation

/// A travel matrix (`/api/matrix?api-version=1.1`): `durations[i][j]` seconds and
/// `distances[i][j]` metres from the i-th source to the j-th destination; `nil` where no route exists.
public struct VMMatrixResponse: Codable, Sendable {
    public let code: String?
    public let messages: String?
    public let durations: [[Double?]]?
    public let distances: [[Double?]]?
}
