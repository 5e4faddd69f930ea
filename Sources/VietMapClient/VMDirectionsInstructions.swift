import Foundation

/// A banner shown on the navigation screen from `distanceAlongGeometry` metres before the step's end.
public struct VMBannerInstruction: Codable, Sendable {
    public let distanceAlongGeometry: Double
    public let primary: VMBannerText
    public let secondary: VMBannerText?
    public let sub: VMBannerText?
}

/// One line of a banner: its text, the maneuver it shows, and the parts it is drawn from.
public struct VMBannerText: Codable, Sendable {
    public let text: String?
    /// The maneuver type shown (`turn`, `arrive`, …).
    public let type: String?
    public let modifier: String?
    /// For roundabouts: the exit's angle.
    public let degrees: Double?
    public let components: [VMBannerComponent]
}

/// A part of a banner line (`text`, `icon`, `delimiter`, `exit-number`, `lane`, …).
public struct VMBannerComponent: Codable, Sendable {
    public let text: String?
    public let type: String
    public let abbr: String?
    public let abbrPriority: Int?
    public let imageBaseURL: String?
    public let directions: [String]?
    public let active: Bool?

    enum CodingKeys: String, CodingKey {
        case text, type, abbr, directions, active
        case abbrPriority = "abbr_priority"
        case imageBaseURL
    }
}

/// An announcement spoken `distanceAlongGeometry` metres before the step's end.
public struct VMVoiceInstruction: Codable, Sendable {
    public let distanceAlongGeometry: Double
    public let announcement: String
    public let ssmlAnnouncement: String?
}
