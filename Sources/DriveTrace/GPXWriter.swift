/// GPX 1.1 (topografix.com/GPX/1/1): `metadata` (name, start time), one timed `<wpt>` per fix —
/// Xcode's simulated location plays waypoints at their times — then the same fixes as one
/// `<trk>`, a new `<trkseg>` after each gap (what the Android emulator and most tools read).
public struct GPXWriter: Sendable {
    public var start: Int64
    public var name: String

    public init(start: Int64, name: String) {
        self.start = start
        self.name = name
    }

    public func render(_ fixes: [DriveFix]) -> String {
        let title = XMLText.escape(name)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="vietmap-sim drive" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata>
                <name>\(title)</name>
                <time>\(TraceTime(start: start, plus: 0).iso8601)</time>
              </metadata>

            """
        for fix in fixes {
            out += "  <wpt \(coordinates(fix))><time>\(TraceTime(start: start, plus: fix.time).iso8601)</time></wpt>\n"
        }
        out += "  <trk>\n    <name>\(title)</name>\n    <trkseg>\n"
        for fix in fixes {
            if fix.resumesAfterGap { out += "    </trkseg>\n    <trkseg>\n" }
            out += "      <trkpt \(coordinates(fix))><time>\(TraceTime(start: start, plus: fix.time).iso8601)</time></trkpt>\n"
        }
        out += "    </trkseg>\n  </trk>\n</gpx>\n"
        return out
    }

    private func coordinates(_ fix: DriveFix) -> String {
        "lat=\"\(XMLText.degrees(fix.point.latitude))\" lon=\"\(XMLText.degrees(fix.point.longitude))\""
    }
}
