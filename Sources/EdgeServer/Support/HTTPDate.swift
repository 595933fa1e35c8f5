import SystemSupport

/// A point in time with one-second resolution, as HTTP date fields carry it (RFC 9110 §5.6.7).
///
/// Parses the preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms
/// recipients must still accept: RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`). Formats only IMF-fixdate.
public struct HTTPDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64

    /// Creates a date from seconds since the Unix epoch.
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// Parses a field value received now (see ``init(_:receivedAt:)``).
    public init?(_ fieldValue: some StringProtocol) {
        self.init(fieldValue, receivedAt: .current)
    }

    /// Parses a field value in any of the three HTTP-date forms, or returns `nil` when it is not
    /// exactly one valid date (callers ignore such fields, as RFC 9110 §13.1.3 requires).
    ///
    /// The day name must be a valid one but is not checked against the date. An RFC 850
    /// two-digit year is the latest year ending in those digits that puts the date no more than
    /// 50 years after `now` (RFC 9110 §5.6.7: a date more than 50 years in the future means the
    /// most recent past year with the same last two digits).
    public init?(_ fieldValue: some StringProtocol, receivedAt now: HTTPDate) {
        var scanner = FieldValueScanner(fieldValue)
        guard let date = Self.gmtDate(&scanner, dayNames: Self.shortDayNames, separator: " ", yearDigits: 4, receivedAt: now)
            ?? Self.gmtDate(&scanner, dayNames: Self.longDayNames, separator: "-", yearDigits: 2, receivedAt: now)
            ?? Self.asctimeDate(&scanner),
            scanner.isAtEnd
        else { return nil }
        self = date
    }

    /// The current time, to the second.
    public static var current: HTTPDate {
        HTTPDate(secondsSince1970: Int64(time(nil)))
    }

    /// The IMF-fixdate form, for `Date`, `Last-Modified` and `Expires` fields.
    public var imfFixdate: String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        return Self.shortDayNames[Int(parts.tm_wday)] + ", " + Self.pad(parts.tm_mday) + " "
            + Self.monthNames[Int(parts.tm_mon)] + " " + String(parts.tm_year + 1900) + " "
            + Self.pad(parts.tm_hour) + ":" + Self.pad(parts.tm_min) + ":" + Self.pad(parts.tm_sec) + " GMT"
    }

    /// The Common Log Format timestamp, in UTC: `06/Nov/1994:08:49:37 +0000`.
    public var commonLogFormat: String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        return Self.pad(parts.tm_mday) + "/" + Self.monthNames[Int(parts.tm_mon)] + "/" + String(parts.tm_year + 1900) + ":"
            + Self.pad(parts.tm_hour) + ":" + Self.pad(parts.tm_min) + ":" + Self.pad(parts.tm_sec) + " +0000"
    }

    /// The IMF-fixdate form.
    public var description: String { imfFixdate }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    // MARK: Parsing

    private static let shortDayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate: short day name, spaces, four-digit year) or
    /// `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850: long day name, dashes, two-digit year).
    private static func gmtDate(
        _ scanner: inout FieldValueScanner, dayNames: [String], separator: String, yearDigits: Int, receivedAt now: HTTPDate
    ) -> HTTPDate? {
        var probe = scanner
        guard probe.consume(oneOf: dayNames) != nil, probe.consume(", "),
            let day = probe.digits(exactly: 2), probe.consume(separator),
            let month = probe.consume(oneOf: monthNames), probe.consume(separator),
            let year = probe.digits(exactly: yearDigits), probe.consume(" "),
            let time = clockTime(&probe), probe.consume(" GMT")
        else { return nil }
        scanner = probe
        let fourDigitYear = yearDigits == 4 ? year : fullYear(twoDigits: year, month: month, day: day, time: time, receivedAt: now)
        return HTTPDate(year: fourDigitYear, month: month, day: day, time: time)
    }

    /// The year that RFC 850's two digits name in a date received at `now`: the latest year ending
    /// in them that puts the date (`month` counting from 0, `time` in seconds since midnight) no
    /// more than 50 years after `now`.
    private static func fullYear(twoDigits: Int, month: Int, day: Int, time: Int, receivedAt now: HTTPDate) -> Int {
        var seconds = time_t(now.secondsSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let limitYear = Int(parts.tm_year) + 1900 + 50
        let limitInYear = (Int(parts.tm_mon), Int(parts.tm_mday), (Int(parts.tm_hour) * 60 + Int(parts.tm_min)) * 60 + Int(parts.tm_sec))
        let year = limitYear - ((limitYear - twoDigits) % 100 + 100) % 100
        return year == limitYear && (month, day, time) > limitInYear ? year - 100 : year
    }

    /// `Sun Nov  6 08:49:37 1994` (a one-digit day is padded with a space).
    private static func asctimeDate(_ scanner: inout FieldValueScanner) -> HTTPDate? {
        var probe = scanner
        guard probe.consume(oneOf: shortDayNames) != nil, probe.consume(" "),
            let month = probe.consume(oneOf: monthNames), probe.consume(" "),
            let day = probe.consume(" ") ? probe.digits(exactly: 1) : probe.digits(exactly: 2), probe.consume(" "),
            let time = clockTime(&probe), probe.consume(" "),
            let year = probe.digits(exactly: 4)
        else { return nil }
        scanner = probe
        return HTTPDate(year: year, month: month, day: day, time: time)
    }

    /// Reads `HH:MM:SS` and returns the seconds since midnight.
    private static func clockTime(_ scanner: inout FieldValueScanner) -> Int? {
        guard let hour = scanner.digits(exactly: 2), hour < 24, scanner.consume(":"),
            let minute = scanner.digits(exactly: 2), minute < 60, scanner.consume(":"),
            let second = scanner.digits(exactly: 2), second < 60
        else { return nil }
        return (hour * 60 + minute) * 60 + second
    }

    /// Combines a calendar date (`month` counts from 0) with a time of day, or returns `nil` for a
    /// date that does not exist (31 Feb).
    private init?(year: Int, month: Int, day: Int, time: Int) {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        var midnight = timegm(&parts)
        // timegm normalises impossible dates (31 Feb becomes 3 Mar); such a date does not
        // survive the round trip and is rejected.
        var check = tm()
        gmtime_r(&midnight, &check)
        guard check.tm_mday == Int32(day), check.tm_mon == Int32(month), check.tm_year == Int32(year - 1900) else {
            return nil
        }
        secondsSince1970 = Int64(midnight) + Int64(time)
    }

    private static func pad(_ value: Int32) -> String {
        value < 10 ? "0" + String(value) : String(value)
    }
}
