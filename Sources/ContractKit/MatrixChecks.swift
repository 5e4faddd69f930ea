import Foundation
import JSON

/// The matrix checks of `SemanticChecks`: the answer's dimensions follow `sources`,
/// `destinations` and the points (reference §5.5).
enum MatrixChecks {
    static func run(_ check: SemanticCheck, _ body: JSONValue, parameters: [(name: String, value: String)]) -> [(String, String)] {
        guard check == .matrixDimensions else { return [] }
        let points = parameters.filter { $0.name == "point" }.count
        func indices(_ name: String) -> [Int]? {
            guard let text = SemanticChecks.value([name], in: parameters) else { return Array(0..<points) }
            let parsed = text.split(separator: ";").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            return parsed.contains(nil) ? nil : parsed.compactMap { $0 }
        }
        guard let sources = indices("sources"), let destinations = indices("destinations") else {
            return [("", "cannot check: sources/destinations of the request are not ';'-separated indices")]
        }
        var out: [(String, String)] = []
        var grids: [String: [[JSONValue]]] = [:]
        for key in ["durations", "distances"] {
            guard let rows = body[key]?.arrayValue else {
                out.append(("/\(key)", "\(key) is not an array"))
                continue
            }
            if rows.count != sources.count { out.append(("/\(key)", "\(rows.count) rows for \(sources.count) sources")) }
            var grid: [[JSONValue]] = []
            for (i, row) in rows.enumerated() {
                guard let cells = row.arrayValue else {
                    out.append(("/\(key)/\(i)", "row is not an array"))
                    continue
                }
                if cells.count != destinations.count {
                    out.append(("/\(key)/\(i)", "\(cells.count) cells for \(destinations.count) destinations"))
                }
                for (j, cell) in cells.enumerated() where i < sources.count && j < destinations.count && sources[i] == destinations[j] {
                    if cell.doubleValue != 0 { out.append(("/\(key)/\(i)/\(j)", "point \(sources[i]) to itself is \(JSONSerializer.string(cell)), expected 0")) }
                }
                grid.append(cells)
            }
            grids[key] = grid
        }
        if let durations = grids["durations"], let distances = grids["distances"] {
            for (i, (d, m)) in zip(durations, distances).enumerated() {
                for (j, (a, b)) in zip(d, m).enumerated() where a.isNull != b.isNull {
                    out.append(("/durations/\(i)/\(j)", "durations and distances disagree on whether \(i)→\(j) is reachable"))
                }
            }
        }
        return out
    }
}
