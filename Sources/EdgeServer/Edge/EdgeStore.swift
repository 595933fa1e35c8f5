import HTTPTypes

/// The edge's storage: stored responses by primary key, each key holding one response per
/// variant (secondary key), bounded in bytes with least-recently-used eviction.
///
/// Eviction scans for the oldest use, which is linear in the number of stored responses; a site
/// has hundreds of files, and eviction happens only when the bound is reached.
struct EdgeStore: Sendable {
    /// What a lookup found: `Found` is what the caller made of the stored response.
    enum Lookup<Found> {
        /// A stored response for the same variant.
        case found(Found)
        /// Responses are stored for the target, but none for this request's `Vary`'d fields.
        case varyMiss
        /// The stored response's body is an open file that was rewritten in place since: the
        /// stored bytes are gone, so it counts as not stored.
        case fileChanged
        /// Nothing is stored for the target.
        case uriMiss
    }

    /// The most bytes the store holds.
    let capacity: Int
    /// The server's budget for bodies in memory, which the stored bytes count against too.
    private let budget: MemoryBudget?
    private var entries: [CacheKey: [StoredResponse]] = [:]
    /// Counts uses: each stored response keeps the tick of its last use
    /// (``StoredResponse/lastUsed``), set in place, so a hit allocates nothing.
    private var tick: UInt64 = 0
    private var nextID: UInt64 = 1
    /// The number of stored responses.
    private(set) var count = 0
    /// The bytes currently held.
    private(set) var storedBytes = 0

    /// Creates an empty store that holds at most `capacity` bytes, and no more than `budget`
    /// has room for beside the bodies in flight.
    init(capacity: Int, budget: MemoryBudget? = nil) {
        self.capacity = capacity
        self.budget = budget
    }

    /// Finds the stored response `request` selects under `key` at `now`, marks it used, and
    /// returns what `use` makes of it. `use` gets the stored response in place, so what it
    /// changes (a hit it keeps, see ``StoredResponse/hit(at:)``) stays stored.
    ///
    /// A body kept as an open file is checked (one `fstat`) at most once per
    /// ``StoredResponse/fileCheckInterval``; in between, the transport's own check before sending
    /// it keeps a rewritten file from being sent short.
    mutating func lookup<Found>(
        _ key: CacheKey, request: HTTPFields, at now: Double, _ use: (inout StoredResponse) -> Found
    ) -> Lookup<Found> {
        guard let index = entries[key]?.firstIndex(where: { $0.selecting.matches(request) }) else {
            return entries[key] == nil ? .uriMiss : .varyMiss
        }
        tick += 1
        // In place: the variants array is not copied.
        return Self.use(&entries[key, default: []][index], tick: tick, at: now, use)
    }

    private static func use<Found>(
        _ stored: inout StoredResponse, tick: UInt64, at now: Double, _ use: (inout StoredResponse) -> Found
    ) -> Lookup<Found> {
        if let file = stored.response.body.file, now >= stored.nextFileCheck {
            guard file.isUnchanged else { return .fileChanged }
            stored.nextFileCheck = now + StoredResponse.fileCheckInterval
        }
        stored.lastUsed = tick
        return .found(use(&stored))
    }

    /// Whether `response` fits in the store at all.
    func canHold(_ response: StoredResponse) -> Bool {
        response.cost <= capacity
    }

    /// Stores `response` under `key`, replacing the variants `request` selects and the response
    /// `replacing` names, then evicts least recently used responses until the bound holds.
    /// Returns false (storing nothing) when the memory budget has no room for it even once
    /// every other response is evicted: bodies in flight fill it.
    mutating func insert(_ response: StoredResponse, under key: CacheKey, for request: HTTPFields, replacing: UInt64? = nil) -> Bool {
        var stored = response
        stored.id = nextID
        nextID += 1
        tick += 1
        stored.lastUsed = tick
        remove(under: key) { $0.selecting.matches(request) || $0.id == replacing }
        if let budget {
            while !budget.reserveWithoutReclaiming(stored.cost) {
                guard evictLeastRecentlyUsed() else { return false }
            }
        }
        entries[key, default: []].append(stored)
        storedBytes += stored.cost
        count += 1
        while storedBytes > capacity, evictLeastRecentlyUsed() {}
        return true
    }

    /// Evicts least recently used responses until `bytes` are freed or nothing is left.
    mutating func evict(atLeast bytes: Int) {
        let target = storedBytes - bytes
        while storedBytes > target, evictLeastRecentlyUsed() {}
    }

    /// Evicts the response used longest ago; false when nothing is stored.
    private mutating func evictLeastRecentlyUsed() -> Bool {
        guard let (oldestKey, oldest) = leastRecentlyUsed() else { return false }
        remove(oldestKey, id: oldest)
        return true
    }

    /// Applies `change` to the stored response `id` under `key`; returns `false` when it is no
    /// longer stored (purged or evicted meanwhile).
    mutating func update(_ id: UInt64, under key: CacheKey, _ change: (inout StoredResponse) -> Void) -> Bool {
        guard let index = entries[key]?.firstIndex(where: { $0.id == id }), var stored = entries[key]?[index] else { return false }
        let before = stored.cost
        change(&stored)
        storedBytes += stored.cost - before
        budget?.account(stored.cost - before)
        tick += 1
        stored.lastUsed = tick
        entries[key]?[index] = stored
        return true
    }

    /// Removes every response stored under `key` whose id is `id`, or all of them when `id` is `nil`.
    mutating func remove(_ key: CacheKey, id: UInt64? = nil) {
        remove(under: key) { id == nil || $0.id == id }
    }

    /// Removes every response for `path`, whatever its query; returns how many.
    mutating func removeAll(path: String) -> Int {
        entries.keys.filter { $0.path == path }.reduce(0) { removed, key in removed + remove(under: key) { _ in true } }
    }

    /// Removes everything; returns how many responses were stored.
    mutating func removeAll() -> Int {
        let removed = count
        entries = [:]
        count = 0
        budget?.release(storedBytes)
        storedBytes = 0
        return removed
    }

    /// The key and id of the stored response used longest ago.
    private func leastRecentlyUsed() -> (CacheKey, UInt64)? {
        var oldest: (key: CacheKey, id: UInt64, tick: UInt64)?
        for (key, variants) in entries {
            for stored in variants where stored.lastUsed < oldest?.tick ?? .max {
                oldest = (key, stored.id, stored.lastUsed)
            }
        }
        return oldest.map { ($0.key, $0.id) }
    }

    @discardableResult
    private mutating func remove(under key: CacheKey, _ shouldRemove: (StoredResponse) -> Bool) -> Int {
        guard let variants = entries[key] else { return 0 }
        var kept: [StoredResponse] = []
        for stored in variants {
            if shouldRemove(stored) {
                storedBytes -= stored.cost
                budget?.release(stored.cost)
            } else {
                kept.append(stored)
            }
        }
        entries[key] = kept.isEmpty ? nil : kept
        count -= variants.count - kept.count
        return variants.count - kept.count
    }
}
