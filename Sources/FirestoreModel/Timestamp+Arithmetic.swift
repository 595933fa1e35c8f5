extension Timestamp {
    /// The earliest time Firestore holds, 0001-01-01T00:00:00Z.
    public static let earliest = try! Timestamp(seconds: minSeconds, nanos: 0)
    /// The latest time Firestore holds, 9999-12-31T23:59:59.999999999Z.
    public static let latest = try! Timestamp(seconds: maxSeconds, nanos: 999_999_999)

    /// This time moved by `seconds` and `nanoseconds` (negative: earlier), clamped to
    /// ``earliest`` … ``latest``.
    public func advanced(bySeconds deltaSeconds: Int64 = 0, nanoseconds deltaNanos: Int64 = 0) -> Timestamp {
        let range = Self.maxSeconds - Self.minSeconds + 1
        var seconds = self.seconds + min(max(deltaSeconds, -range), range) + deltaNanos / 1_000_000_000
        var nanos = Int64(self.nanos) + deltaNanos % 1_000_000_000
        if nanos >= 1_000_000_000 {
            seconds += 1
            nanos -= 1_000_000_000
        } else if nanos < 0 {
            seconds -= 1
            nanos += 1_000_000_000
        }
        if seconds < Self.minSeconds { return .earliest }
        if seconds > Self.maxSeconds { return .latest }
        return try! Timestamp(seconds: seconds, nanos: Int32(nanos))  // In range: checked above.
    }

    /// The earliest time after this one that Firestore's own times can hold: the next whole
    /// microsecond (Firestore writes microsecond precision).
    public var nextMicrosecond: Timestamp {
        try! Timestamp(seconds: seconds, nanos: nanos - nanos % 1_000).advanced(nanoseconds: 1_000)  // Only the fraction shrinks.
    }

    /// The wall-clock time `secondsSinceEpoch` (`Date().timeIntervalSince1970`), truncated to
    /// the microsecond and clamped to Firestore's range.
    public init(secondsSinceEpoch: Double) {
        let micros = Int64((secondsSinceEpoch * 1_000_000).rounded(.down))
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        self = (try! Timestamp(seconds: 0, nanos: 0)).advanced(bySeconds: seconds, nanoseconds: fraction * 1_000)
    }
}
