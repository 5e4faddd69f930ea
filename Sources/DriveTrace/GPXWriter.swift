import Routing
import XMLEscaping
/// GPX 1.1 (topografix.com/GPX/1/1): `metadata` (name, start time), one timed `<wpt>` per fix —
/// Xcode's simulated location plays waypoints at their times — then the same fixes as one
/// `<trk>`, a new `<trkseg>` after each gap (what the Android emulator and most tools read).
public struct GPXWriter: TraceWriter {
    public var start: Int64
    public var name: String

    public init(start: Int64, name: String) {
        self.start = start
        self.name = name
    }

    /// Hands the file to `emit` piece by piece (a line or a few), in order.
    public func write<E: Error>(_ fixes: [DriveFix], to emit: (String) throws(E) -> Void) throws(E) {
        let title = xmlEscape(name)
        try emit("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="vietmap-sim drive" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata>
                <name>\(title)</name>
                <time>\(TraceTime(start: start, plus: 0).iso8601)</time>
              </metadata>

            """)
        for fix in fixes {
            try emit("  <wpt \(coordinates(fix))><time>\(TraceTime(start: start, plus: fix.time).iso8601)</time></wpt>\n")
        }
        try emit("  <trk>\n    <name>\(title)</name>\n    <trkseg>\n")
        for fix in fixes {
            if fix.resumesAfterGap { try emit("    </trkseg>\n    <trkseg>\n") }
            try emit("      <trkpt \(coordinates(fix))><time>\(TraceTime(start: start, plus: fix.time).iso8601)</time></trkpt>\n")
        }
        try emit("    </trkseg>\n  </trk>\n</gpx>\n")
    }

    private func coordinates(_ fix: DriveFix) -> String {
        "lat=\"\(CoordinateText.degrees(fix.point.latitude))\" lon=\"\(CoordinateText.degrees(fix.point.longitude))\""
    }
}
