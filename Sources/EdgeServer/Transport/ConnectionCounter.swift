import NIOConcurrencyHelpers

/// Counts open connections against ``ConnectionLimits/maxConnections``.
final class ConnectionCounter: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection, or returns false when the limit is reached.
    func admit() -> Bool {
        open.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    /// Counts a connection as closed.
    func release() {
        open.withLockedValue { $0 -= 1 }
    }
}
