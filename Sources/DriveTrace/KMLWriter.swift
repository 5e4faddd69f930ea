import Routing
import XMLEscaping
/// KML 2.2: one Placemark per fix with a `<TimeStamp>` and a `<Point>` (what the Android
/// emulator's extended controls load; Google Earth animates the time stamps).
public struct KMLWriter: TraceWriter {
    public var start: Int64
    public var name: String

    public init(start: Int64, name: String) {
        self.start = start
        self.name = name
    }

    /// Hands the file to `emit` piece by piece (a Placemark at a time), in order.
    public func write<E: Error>(_ fixes: [DriveFix], to emit: (String) throws(E) -> Void) throws(E) {
        try emit("""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
              <Document>
                <name>\(xmlEscape(name))</name>

            """)
        for fix in fixes {
            let time = TraceTime(start: start, plus: fix.time).iso8601
            try emit("    <Placemark><TimeStamp><when>\(time)</when></TimeStamp>"
                     + "<Point><coordinates>\(CoordinateText.degrees(fix.point.longitude)),\(CoordinateText.degrees(fix.point.latitude)),0</coordinates></Point></Placemark>\n")
        }
        try emit("  </Document>\n</kml>\n")
    }
}
