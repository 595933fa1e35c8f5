/// A point in time with nanosecond precision, as Firestore stores it: seconds since the Unix
/// epoch and a non-negative nanosecond part. Valid from 0001-01-01 to 9999-12-31 (UTC).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let minSeconds: Int64 = -62_135_596_800  // 0001-01-01T00:00:00Z
    public static let maxSeconds: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

    public let seconds: Int64
    public let nanos: Int32

    /// Creates a timestamp, rejecting values outside Firestore's range.
    public init(seconds: Int64, nanos: Int32) throws(TimestampError) {
        guard (0..<1_000_000_000).contains(nanos) else {
            throw TimestampError("nanos must be in 0…999999999, got \(nanos)")
        }
        guard (Self.minSeconds...Self.maxSeconds).contains(seconds) else {
            throw TimestampError("\(seconds) seconds is outside Firestore's range (years 0001 to 9999)")
        }
        self.seconds = seconds
        self.nanos = nanos
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.seconds, lhs.nanos) < (rhs.seconds, rhs.nanos)
    }

    /// True for anything after the epoch: bundle times must be > 0 (clients assert on zero).
    public var isPositive: Bool { seconds > 0 || (seconds == 0 && nanos > 0) }

    /// `YYYY-MM-DDTHH:MM:SS.fffffffffZ`: the one form every client parses, with all nine
    /// fraction digits so JS's same-length string comparison stays valid.
    public var description: String { rfc3339 }

    public var rfc3339: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        // The range the initialiser enforces keeps the year at four digits: always 30 bytes.
        return String(unsafeUninitializedCapacity: 30) { text in
            var end = 0
            func put(_ value: Int64, digits: Int, then separator: UInt8) {
                var rest = value
                for index in stride(from: end + digits - 1, through: end, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                text[end + digits] = separator
                end += digits + 1
            }
            put(year, digits: 4, then: UInt8(ascii: "-"))
            put(month, digits: 2, then: UInt8(ascii: "-"))
            put(day, digits: 2, then: UInt8(ascii: "T"))
            put(secondOfDay / 3600, digits: 2, then: UInt8(ascii: ":"))
            put(secondOfDay / 60 % 60, digits: 2, then: UInt8(ascii: ":"))
            put(secondOfDay % 60, digits: 2, then: UInt8(ascii: "."))
            put(Int64(nanos), digits: 9, then: UInt8(ascii: "Z"))
            return end
        }
    }

    /// True when `bytes` have the shape of ``rfc3339`` (`YYYY-MM-DDTHH:MM:SS.fffffffffZ`): a
    /// timestamp that parses from them (``init(rfc3339:)-(UnsafeBufferPointer<UInt8>)``) is
    /// written back as exactly them.
    public static func hasCanonicalShape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 30 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-") && bytes[10] == UInt8(ascii: "T")
            && bytes[13] == UInt8(ascii: ":") && bytes[16] == UInt8(ascii: ":") && bytes[19] == UInt8(ascii: ".") && bytes[29] == UInt8(ascii: "Z")
    }

    /// Parses RFC 3339: `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; `t`/`z` accepted in either
    /// case. Offsets are applied, so the result is always UTC.
    public init(rfc3339 text: String) throws(TimestampError) {
        var text = text
        let parsed = text.withUTF8 { bytes in Result { () throws(TimestampError) in try Timestamp(rfc3339: bytes) } }
        self = try parsed.get()
    }

    /// Parses RFC 3339 from its UTF-8 bytes, as ``init(rfc3339:)-(String)`` parses the text.
    public init(rfc3339 b: UnsafeBufferPointer<UInt8>) throws(TimestampError) {
        func fail(_ why: String) -> TimestampError {
            TimestampError("\"\(String(decoding: b, as: UTF8.self))\" is not an RFC 3339 timestamp (\(why)); expected e.g. 2024-05-01T12:34:56.123456789Z")
        }
        func number(_ range: Range<Int>) throws(TimestampError) -> Int64 {
            guard range.upperBound <= b.count else { throw fail("too short") }
            var value: Int64 = 0
            for i in range {
                guard b[i] >= 48 && b[i] <= 57 else { throw fail("expected a digit at position \(i + 1)") }
                value = value * 10 + Int64(b[i] - 48)
            }
            return value
        }
        func expect(_ i: Int, _ chars: String) throws(TimestampError) {
            guard i < b.count, chars.utf8.contains(b[i]) else {
                throw fail("expected '\(chars.first!)' at position \(i + 1)")
            }
        }
        let year = try number(0..<4)
        try expect(4, "-")
        let month = try number(5..<7)
        try expect(7, "-")
        let day = try number(8..<10)
        try expect(10, "Tt")
        let hour = try number(11..<13)
        try expect(13, ":")
        let minute = try number(14..<16)
        try expect(16, ":")
        let second = try number(17..<19)
        var i = 19
        var nanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                guard digits < 9 else { throw fail("more than 9 fraction digits") }
                nanos = nanos * 10 + Int64(b[i] - 48)
                digits += 1
                i += 1
            }
            guard digits > 0 else { throw fail("no digits after '.'") }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offsetSeconds: Int64 = 0
        guard i < b.count else { throw fail("missing 'Z' or a UTC offset") }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            let offsetHours = try number((i + 1)..<(i + 3))
            try expect(i + 3, ":")
            let offsetMinutes = try number((i + 4)..<(i + 6))
            guard offsetHours < 24, offsetMinutes < 60 else { throw fail("invalid UTC offset") }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
            i += 6
        } else {
            throw fail("expected 'Z' or a UTC offset")
        }
        guard i == b.count else { throw fail("unexpected text after the time") }
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month) else {
            throw fail("no such date")
        }
        guard hour < 24, minute < 60, second < 60 else { throw fail("no such time of day") }
        let days = Self.days(fromCivil: year, month, day)
        let total = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        do {
            try self.init(seconds: total, nanos: Int32(nanos))
        } catch {
            throw fail("outside years 0001 to 9999 once converted to UTC")
        }
    }

    // Howard Hinnant's civil-from-days algorithms (proleptic Gregorian calendar).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
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

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Why a timestamp was rejected.
public struct TimestampError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
