#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Formats Unix times the two ways the server writes them, without Foundation's locale-aware
/// formatters (English month and day names are part of both formats).
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// IMF-fixdate (RFC 9110 §5.6.7), for `Date` and `Last-Modified`: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(_ seconds: Int) -> String {
        let time = utc(seconds)
        return "\(days[Int(time.tm_wday)]), \(twoDigits(time.tm_mday)) \(months[Int(time.tm_mon)]) \(time.tm_year + 1900) "
            + "\(twoDigits(time.tm_hour)):\(twoDigits(time.tm_min)):\(twoDigits(time.tm_sec)) GMT"
    }

    /// The Common Log Format timestamp, in UTC: `06/Nov/1994:08:49:37 +0000`.
    static func commonLogFormat(_ seconds: Int) -> String {
        let time = utc(seconds)
        return "\(twoDigits(time.tm_mday))/\(months[Int(time.tm_mon)])/\(time.tm_year + 1900):"
            + "\(twoDigits(time.tm_hour)):\(twoDigits(time.tm_min)):\(twoDigits(time.tm_sec)) +0000"
    }

    private static func utc(_ seconds: Int) -> tm {
        var clock = time_t(seconds)
        var time = tm()
        gmtime_r(&clock, &time)
        return time
    }

    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
