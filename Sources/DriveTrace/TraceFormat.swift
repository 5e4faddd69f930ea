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
        switch self {
        case .gpx: GPXWriter(start: start, name: name).render(fixes)
        case .nmea: NMEAWriter(start: start).render(fixes)
        case .kml: KMLWriter(start: start, name: name).render(fixes)
        }
    }
}
