import SystemSupport
import NIOPosix

/// The current time in the two formats the transport writes, formatted at most once a second
/// per thread however many requests share that second, without a lock on the hot path.
final class DateCache: Sendable {
    /// The current second as a `Date` value and as a Common Log Format timestamp.
    struct Stamp: Sendable {
        var second: Int
        var httpDate: String
        var logDate: String

        init(second: Int) {
            self.second = second
            let date = HTTPDate(secondsSince1970: Int64(second))
            httpDate = date.imfFixdate
            logDate = date.commonLogFormat
        }
    }

    /// One thread's stamp. Only ever touched by the thread that owns it, hence unchecked.
    private final class ThreadStamp: @unchecked Sendable {
        var stamp = Stamp(second: 0)
    }

    private let stamps = ThreadSpecificVariable<ThreadStamp>()

    /// The stamp for the current second.
    func now() -> Stamp {
        let second = Int(time(nil))
        let local: ThreadStamp
        if let existing = stamps.currentValue {
            local = existing
        } else {
            local = ThreadStamp()
            stamps.currentValue = local
        }
        if local.stamp.second != second { local.stamp = Stamp(second: second) }
        return local.stamp
    }
}
