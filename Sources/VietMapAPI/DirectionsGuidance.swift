import Foundation
import XMLEscaping

/// The spoken and displayed texts of Directions v5 steps, in Vietnamese from route v4's
/// instruction texts: when to announce (distance before the maneuver) and what to say.
enum DirectionsGuidance {
    /// One announcement: said `distanceBefore` metres before the end of its step.
    struct Announcement: Equatable {
        var distanceBefore: Double
        var text: String
    }

    /// What is said along a step of `length` metres whose end maneuver reads `next`: at the step's
    /// start, 150 m before (on steps of 300 m or more) and 30 m before (on steps of 100 m or more).
    static func announcements(length: Double, next: String, imperial: Bool, isDeparture: Bool, current: String) -> [Announcement] {
        let nextLower = lowercasedFirst(next)
        var said: [Announcement] = []
        if length >= 100 {
            let lead = isDeparture ? current + ", đi " : "Đi tiếp "
            said.append(Announcement(distanceBefore: length, text: lead + spoken(distance: length, imperial: imperial) + ", sau đó " + nextLower))
        } else {
            let lead = isDeparture ? current + ", sau đó " + nextLower : next
            said.append(Announcement(distanceBefore: length, text: lead))
        }
        if length >= 300 {
            said.append(Announcement(distanceBefore: 150, text: "Sau " + spoken(distance: 150, imperial: imperial) + ", " + nextLower))
        }
        if length >= 100 {
            said.append(Announcement(distanceBefore: 30, text: next))
        }
        return said
    }

    /// `text` wrapped the way Mapbox's `ssmlAnnouncement` is (XML-escaped).
    static func ssml(_ text: String) -> String {
        let wrap = ("<speak><amazon:effect name=\"drc\"><prosody rate=\"1.08\">", "</prosody></amazon:effect></speak>")
        return wrap.0 + xmlEscape(text) + wrap.1
    }

    /// A distance as said: metres rounded (10 m under 100, 50 m under 1 km), kilometres with one
    /// decimal; imperial: feet rounded to 50, miles with one decimal from 0.1 mile.
    static func spoken(distance meters: Double, imperial: Bool) -> String {
        if imperial {
            let miles = meters / 1609.344
            if miles >= 0.1 { return decimal(miles) + " dặm" }
            return "\(max(50, Int((meters * 3.28084 / 50).rounded()) * 50)) feet"
        }
        if meters >= 1000 { return decimal(meters / 1000) + " ki-lô-mét" }
        let step = meters < 100 ? 10.0 : 50.0
        return "\(max(Int(step), Int((meters / step).rounded() * step))) mét"
    }

    /// One decimal with a comma, the trailing `,0` dropped.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10),\(tenths % 10)"
    }

    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
