#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOConcurrencyHelpers

/// The current time in the two formats the transport writes, formatted at most once a second
/// however many requests share that second.
final class DateCache: Sendable {
    /// The current second as a `Date` value and as a Common Log Format timestamp.
    struct Stamp: Sendable {
        var second: Int
        var httpDate: String
        var logDate: String

        init(second: Int) {
            self.second = second
            httpDate = HTTPDate.imfFixdate(second)
            logDate = HTTPDate.commonLogFormat(second)
        }
    }

    private let stamp = NIOLockedValueBox(Stamp(second: 0))

    /// The stamp for the current second.
    func now() -> Stamp {
        let second = Int(time(nil))
        return stamp.withLockedValue { cached in
            if cached.second != second { cached = Stamp(second: second) }
            return cached
        }
    }
}
