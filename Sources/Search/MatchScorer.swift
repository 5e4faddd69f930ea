import Foundation
import TextFolding

/// Ranks candidates: how well the query's words match the place's name, how important the
/// place is, and how close it is to the focus.
struct MatchScorer {
    let queryTokens: [Substring]
    let focus: Coordinate?

    /// Weights of the three signals. Text dominates; importance and proximity break ties
    /// between equally good text matches and lift major places above obscure ones.
    static let textWeight = 1.0
    static let importanceWeight = 0.35
    static let proximityWeight = 0.35
    /// Proximity halves roughly every 1.4 km (exp(-d / 2 km)).
    static let proximityScaleMeters = 2_000.0

    func score(_ place: PlaceRecord) -> (score: Double, distance: Double?) {
        let nameTokens = TextFolding.tokens(place.name)
        var matched = 0.0
        for (i, q) in queryTokens.enumerated() {
            let isLast = i == queryTokens.count - 1
            var best = 0.0
            for n in nameTokens {
                if n == q { best = 1; break }
                if n.hasPrefix(q) { best = max(best, isLast ? 0.9 : 0.5) }
            }
            matched += best
        }
        let n = Double(queryTokens.count)
        let coverage = n > 0 ? matched / n : 0
        let tightness = nameTokens.isEmpty ? 0 : min(1, matched / Double(nameTokens.count))
        let startsWith: Double = {
            guard let first = nameTokens.first, let q = queryTokens.first else { return 0 }
            return first == q || (queryTokens.count == 1 && first.hasPrefix(q)) ? 1 : 0
        }()
        var houseNumberBonus = 0.0
        if place.kind == .address, !place.houseNumber.isEmpty,
           queryTokens.contains(where: { $0 == TextFolding.fold(place.houseNumber) }) {
            houseNumberBonus = 0.1
        }
        let text = 0.55 * coverage + 0.30 * tightness + 0.15 * startsWith + houseNumberBonus
        var score = Self.textWeight * text + Self.importanceWeight * place.importance
        var distance: Double?
        if let focus {
            let d = focus.distance(to: place.coordinate)
            distance = d
            score += Self.proximityWeight * exp(-d / Self.proximityScaleMeters)
        }
        return (score, distance)
    }
}
