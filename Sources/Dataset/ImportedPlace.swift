import Foundation
import TextFolding

/// Where a place's old-format (pre-2025) ward came from.
public enum OldCodeSource: String, Sendable, CaseIterable {
    /// The input row carried the old ward code.
    case data
    /// Derived: the candidate used by the nearest POI with known old codes in the same new ward.
    case nearestPOI
    /// Derived: the new ward's first `full` link in the new→old mapping.
    case firstFullLink
    /// Derived: the new ward's first link (partial) in the new→old mapping.
    case firstLink
    /// No old ward could be determined (no mapping for the new ward).
    case unresolved
}

/// An ordinary place (POI, street, address point) before it is written.
struct ImportedPlace {
    var key: String
    var kind: DatasetSchema.PlaceKind
    var name: String
    var hsNum: String = ""
    var street: String = ""
    var categories: String = ""
    /// Folded words people type for this kind of place (``CategoryWords``).
    var kindWords: String = ""
    var lat: Double
    var lng: Double
    var importance: Double
    var newWard: Int
    var newProvince: Int
    var oldWard: Int = 0
    var oldDistrict: Int = 0
    var oldProvince: Int = 0
    /// Extra searchable names (English name, old name, name without "Đường "…).
    var aliases: [String] = []
    var oldSource: OldCodeSource = .unresolved
    /// The old district came from the input even though the ward was derived.
    var oldDistrictFromData = false
}

/// Importance of streets by OSM highway class.
enum StreetImportance {
    static func importance(highway: String, wayCount: Int) -> Double {
        let base: Double
        switch highway {
        case "motorway", "trunk", "primary": base = 0.7
        case "secondary": base = 0.6
        case "tertiary": base = 0.5
        case "residential", "unclassified", "living_street", "pedestrian": base = 0.4
        default: base = 0.35
        }
        // Long streets (many ways in the ward) get up to +0.08.
        let bonus = wayCount > 1 ? min(0.08, 0.02 * log2(Double(wayCount))) : 0
        return (base + bonus).rounded(toPlaces: 4)
    }
}

/// Importance of POIs: the category's base plus a small bonus for well-documented places.
enum POIImportance {
    static func importance(category: String, hasWebsite: Bool, hasEnglishName: Bool, hasWikipedia: Bool) -> Double {
        var value = CategoryCodes.importance(forOSM: category)
        if hasWikipedia { value += 0.05 }
        if hasWebsite { value += 0.03 }
        if hasEnglishName { value += 0.03 }
        return min(0.95, value).rounded(toPlaces: 4)
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (self * factor).rounded() / factor
    }
}

extension String {
    /// The street name without a leading generic "Đường " / "Phố " (folded comparison).
    var withoutStreetPrefix: String? {
        for prefix in ["Đường ", "Phố ", "đường ", "phố ", "Duong ", "Pho "] where hasPrefix(prefix) {
            let rest = String(dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : rest
        }
        return nil
    }
}
