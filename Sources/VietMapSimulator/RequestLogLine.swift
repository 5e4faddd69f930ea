import Foundation
import Scenarios

/// One line of `serve`'s request log: time, method, path and query without the key, status,
/// latency, and the scenario (rule, fault) that answered —
/// `14:03:07 GET /api/route/v4?point=10.77,106.69&point=10.78,106.70 200 3.1 ms  scenario empty-route (rule 1)`.
enum RequestLogLine {
    static func text(_ entry: JournalEntry) -> String {
        let query = entry.query.filter { $0.name.lowercased() != "apikey" }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        var target = entry.path + (query.isEmpty ? "" : "?" + query)
        if target.count > 200 { target = String(target.prefix(199)) + "…" }
        let status = entry.status.map { $0 == 0 ? "no answer" : String($0) } ?? "-"
        let latency = entry.latencyMilliseconds.map { String(format: "%.1f ms", $0) } ?? "-"
        var line = "\(clock.string(from: entry.timestamp)) \(entry.method) \(target) \(status) \(latency)"
        if let scenario = entry.scenario {
            line += "  scenario \(scenario)"
            var details: [String] = []
            if let rule = entry.rule { details.append("rule \(rule)") }
            if let fault = entry.fault { details.append(fault) }
            if !details.isEmpty { line += " (\(details.joined(separator: ", ")))" }
        }
        return line
    }

    private static var clock: DateFormatter {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }
}
