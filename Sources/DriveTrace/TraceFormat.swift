/// The file formats a drive is written in, and the writer of each.
public enum TraceFormat: String, CaseIterable, Sendable {
    /// GPX 1.1: timed `<wpt>` (what Xcode's simulated locations play) and one `<trk>` (Android emulator).
    case gpx
    /// NMEA 0183 `$GPRMC` + `$GPGGA` per fix (Android emulator's `geo nmea`, GPS replay tools).
    case nmea
    /// KML: one timed Placemark per fix (Android emulator's extended controls, Google Earth).
    case kml

    /// The whole file for `fixes` of a trace that starts at `start` (seconds since 1970, UTC).
    public func render(_ fixes: [DriveFix], start: Int64, name: String) -> String {
        writer(start: start, name: name).render(fixes)
    }

    /// The same file handed to `emit` piece by piece, for writing it out as it is made.
    public func write<E: Error>(_ fixes: [DriveFix], start: Int64, name: String, to emit: (String) throws(E) -> Void) throws(E) {
        try writer(start: start, name: name).write(fixes, to: emit)
    }

    /// The writer of this format for a trace that starts at `start` named `name`.
    public func writer(start: Int64, name: String) -> any TraceWriter {
        switch self {
        case .gpx: GPXWriter(start: start, name: name)
        case .nmea: NMEAWriter(start: start)
        case .kml: KMLWriter(start: start, name: name)
        }
    }
}
