import SystemSupport

/// The wall clock the edge cache reads, in seconds since 1970-01-01T00:00:00Z.
///
/// The edge compares its clock with `Date` and `Expires` fields, so it needs wall-clock time, not
/// a monotonic clock. Tests inject a manual clock so freshness, `Age` and revalidation are
/// deterministic and need no sleeps.
public struct EdgeClock: Sendable {
    /// Returns the current time in seconds since the Unix epoch.
    public var now: @Sendable () -> Double

    /// Creates a clock that reads `now`.
    public init(now: @escaping @Sendable () -> Double) {
        self.now = now
    }

    /// The system's real-time clock.
    public static let system = EdgeClock {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
