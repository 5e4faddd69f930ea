import Foundation

/// The wall-clock time of a fix: the trace's start plus the fix's seconds, in UTC, to the
/// millisecond, formatted without locale or time-zone settings (same bytes on every machine).
public struct TraceTime: Sendable, Equatable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// `start` (seconds since 1970) plus `seconds`, rounded to the millisecond.
    public init(start: Int64, plus seconds: Double) {
        milliseconds = start * 1000 + Int64((seconds * 1000).rounded())
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, UTC: what `--start` takes).
    public init?(iso8601 text: String) {
        let pattern = Array(text.utf8)
        guard pattern.count == 20, pattern[4] == UInt8(ascii: "-"), pattern[7] == UInt8(ascii: "-"),
              pattern[10] == UInt8(ascii: "T"), pattern[13] == UInt8(ascii: ":"), pattern[16] == UInt8(ascii: ":"),
              pattern[19] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in pattern[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1970...9999).contains(year), (1...12).contains(month), (1...Self.daysIn(month, year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = Self.daysFromCivil(year, month, day)
        milliseconds = (Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000
    }

    /// The civil date and time in UTC.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let ms = Int(((milliseconds % 1000) + 1000) % 1000)
        let totalSeconds = (milliseconds - Int64(ms)) / 1000
        var days = Int(totalSeconds / 86_400)
        var secondOfDay = Int(totalSeconds % 86_400)
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (y, m, d) = Self.civilFromDays(days)
        return (y, m, d, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, ms)
    }

    /// `2026-01-01T08:00:05Z`, or `2026-01-01T08:00:05.500Z` when the milliseconds are not 0.
    public var iso8601: String {
        let c = components
        let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
        return c.millisecond == 0 ? base + "Z" : base + String(format: ".%03dZ", c.millisecond)
    }

    static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
