/// KML 2.2: one Placemark per fix with a `<TimeStamp>` and a `<Point>` (what the Android
/// emulator's extended controls load; Google Earth animates the time stamps).
public struct KMLWriter: Sendable {
    public var start: Int64
    public var name: String

    public init(start: Int64, name: String) {
        self.start = start
        self.name = name
    }

    public func render(_ fixes: [DriveFix]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
              <Document>
                <name>\(XMLText.escape(name))</name>

            """
        for fix in fixes {
            let time = TraceTime(start: start, plus: fix.time).iso8601
            out += "    <Placemark><TimeStamp><when>\(time)</when></TimeStamp>"
            out += "<Point><coordinates>\(XMLText.degrees(fix.point.longitude)),\(XMLText.degrees(fix.point.latitude)),0</coordinates></Point></Placemark>\n"
        }
        out += "  </Document>\n</kml>\n"
        return out
    }
}
