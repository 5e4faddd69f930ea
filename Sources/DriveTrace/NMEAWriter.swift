import Foundation
import Routing

/// NMEA 0183 (version 2.3 fields): for every fix a `$GPRMC` (time, status A, position, speed in
/// knots, course, date, mode A) and a `$GPGGA` (time, position, fix quality 1, 8 satellites, HDOP
/// 1.0, altitude 0 m), each with its XOR checksum, CR LF line ends. Positions are `ddmm.mmmm` /
/// `dddmm.mmmm`. The Android emulator takes these sentences with `geo nmea`.
public struct NMEAWriter: TraceWriter {
    public var start: Int64

    public init(start: Int64) { self.start = start }

    /// Hands the file to `emit` two sentences (one fix) at a time, in order.
    public func write<E: Error>(_ fixes: [DriveFix], to emit: (String) throws(E) -> Void) throws(E) {
        for fix in fixes {
            let c = TraceTime(start: start, plus: fix.time).components
            let time = String(format: "%02d%02d%02d.%02d", c.hour, c.minute, c.second, c.millisecond / 10)
            let date = String(format: "%02d%02d%02d", c.day, c.month, c.year % 100)
            let lat = Self.angle(fix.point.latitude, degreeDigits: 2, positive: "N", negative: "S")
            let lon = Self.angle(fix.point.longitude, degreeDigits: 3, positive: "E", negative: "W")
            let knots = String(format: "%.1f", fix.speed * 3600 / 1852)
            let course = String(format: "%.1f", fix.course)
            try emit(Self.sentence("GPRMC,\(time),A,\(lat),\(lon),\(knots),\(course),\(date),,,A")
                     + Self.sentence("GPGGA,\(time),\(lat),\(lon),1,08,1.0,0.0,M,0.0,M,,"))
        }
    }

    /// `$BODY*HH\r\n`, HH the XOR of BODY's bytes in upper-case hex.
    public static func sentence(_ body: String) -> String {
        "$\(body)*\(checksum(body))\r\n"
    }

    /// The XOR of the bytes between `$` and `*`, two upper-case hex digits.
    public static func checksum(_ body: String) -> String {
        String(format: "%02X", body.utf8.reduce(UInt8(0), ^))
    }

    /// `ddmm.mmmm,N` (or `dddmm.mmmm,E`): whole degrees, then minutes with 4 decimals.
    static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        var degrees = Int(magnitude)
        var tenThousandthsOfMinute = Int(((magnitude - Double(degrees)) * 60 * 10_000).rounded())
        if tenThousandthsOfMinute >= 600_000 { degrees += 1; tenThousandthsOfMinute -= 600_000 }
        let minutes = String(format: "%02d.%04d", tenThousandthsOfMinute / 10_000, tenThousandthsOfMinute % 10_000)
        return String(format: "%0\(degreeDigits)d", degrees) + minutes + "," + (value < 0 ? negative : positive)
    }
}
