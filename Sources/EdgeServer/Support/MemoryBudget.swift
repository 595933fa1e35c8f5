import NIOConcurrencyHelpers

/// The bytes of bodies the server holds in memory at once, across every connection: request
/// bodies as they are received, upstream response bodies as they arrive, and the responses the
/// edge stores (`serve --max-body-memory`).
///
/// Each limit per request (``ConnectionLimits/maxRequestBodyBytes``,
/// ``UpstreamConfiguration/maxResponseBodyBytes``) bounds one body; this bounds them all. Work
/// in flight comes first: when a reservation does not fit, the edge gives back room by evicting
/// stored responses (see ``EdgeCache``), and only when bodies in flight alone fill the budget is
/// new work refused (503 with `Retry-After`).
public final class MemoryBudget: Sendable {
    /// The default budget: 256 MiB.
    public static let defaultLimit = 256 << 20

    /// The most bytes held at once.
    public let limit: Int
    private let used = NIOLockedValueBox(0)
    /// Frees at least the bytes asked for if it can (the edge's eviction), without holding any
    /// lock a reservation takes.
    private let reclaimer = NIOLockedValueBox<(@Sendable (Int) -> Void)?>(nil)

    /// Creates a budget of `limit` bytes.
    public init(limit: Int = MemoryBudget.defaultLimit) {
        self.limit = limit
    }

    /// The bytes held now.
    public var inUse: Int {
        used.withLockedValue { $0 }
    }

    /// Takes `bytes` from the budget, asking the reclaimer for room when they do not fit; false
    /// (nothing taken) when they still do not.
    func reserve(_ bytes: Int) -> Bool {
        if reserveWithoutReclaiming(bytes) { return true }
        guard let reclaim = reclaimer.withLockedValue({ $0 }) else { return false }
        reclaim(bytes - (limit - inUse))
        return reserveWithoutReclaiming(bytes)
    }

    /// Takes `bytes` from the budget if they fit as it is (for the edge's store, which evicts
    /// on its own, holding its lock).
    func reserveWithoutReclaiming(_ bytes: Int) -> Bool {
        used.withLockedValue { used in
            guard used + bytes <= limit else { return false }
            used += bytes
            return true
        }
    }

    /// Gives back `bytes` taken before.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.withLockedValue { $0 -= bytes }
    }

    /// Counts `delta` more bytes (fewer when negative) whether they fit or not: a stored
    /// response's fields changing size as it is freshened.
    func account(_ delta: Int) {
        used.withLockedValue { $0 += delta }
    }

    /// Sets what frees room when a reservation does not fit.
    func reclaim(with reclaimer: @escaping @Sendable (Int) -> Void) {
        self.reclaimer.withLockedValue { $0 = reclaimer }
    }
}
