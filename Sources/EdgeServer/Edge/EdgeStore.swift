import HTTPTypes

/// The edge's storage: stored responses by primary key, each key holding one response per
/// variant (secondary key), bounded in bytes with least-recently-used eviction.
///
/// Eviction scans for the oldest use, which is linear in the number of stored responses; a site
/// has hundreds of files, and eviction happens only when the bound is reached.
struct EdgeStore: Sendable {
    /// What a lookup found.
    enum Lookup {
        /// A stored response for the same variant.
        case found(StoredResponse)
        /// Responses are stored for the target, but none for this request's `Vary`'d fields.
        case varyMiss
        /// Nothing is stored for the target.
        case uriMiss
    }

    /// The most bytes the store holds.
    let capacity: Int
    private var entries: [CacheKey: [StoredResponse]] = [:]
    /// For each stored id: when it was last used, and its key.
    private var usage: [UInt64: (tick: UInt64, key: CacheKey)] = [:]
    private var tick: UInt64 = 0
    private var nextID: UInt64 = 1
    /// The bytes currently held.
    private(set) var storedBytes = 0

    /// Creates an empty store that holds at most `capacity` bytes.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The number of stored responses.
    var count: Int { usage.count }

    /// Finds the stored response `request` selects under `key`, and marks it used.
    mutating func lookup(_ key: CacheKey, request: HTTPFields) -> Lookup {
        guard let variants = entries[key] else { return .uriMiss }
        guard let stored = variants.first(where: { $0.selecting.matches(request) }) else { return .varyMiss }
        markUsed(stored.id, under: key)
        return .found(stored)
    }

    /// Whether `response` fits in the store at all.
    func canHold(_ response: StoredResponse) -> Bool {
        response.cost <= capacity
    }

    /// Stores `response` under `key`, replacing the variants `request` selects and the response
    /// `replacing` names, then evicts least recently used responses until the bound holds.
    mutating func insert(_ response: StoredResponse, under key: CacheKey, for request: HTTPFields, replacing: UInt64? = nil) {
        var stored = response
        stored.id = nextID
        nextID += 1
        remove(under: key) { $0.selecting.matches(request) || $0.id == replacing }
        entries[key, default: []].append(stored)
        storedBytes += stored.cost
        markUsed(stored.id, under: key)
        while storedBytes > capacity, let (oldest, use) = usage.min(by: { $0.value.tick < $1.value.tick }) {
            remove(use.key, id: oldest)
        }
    }

    /// Applies `change` to the stored response `id` under `key`; returns `false` when it is no
    /// longer stored (purged or evicted meanwhile).
    mutating func update(_ id: UInt64, under key: CacheKey, _ change: (inout StoredResponse) -> Void) -> Bool {
        guard let index = entries[key]?.firstIndex(where: { $0.id == id }), var stored = entries[key]?[index] else { return false }
        storedBytes -= stored.cost
        change(&stored)
        storedBytes += stored.cost
        entries[key]?[index] = stored
        markUsed(id, under: key)
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
        usage = [:]
        storedBytes = 0
        return removed
    }

    private mutating func markUsed(_ id: UInt64, under key: CacheKey) {
        tick += 1
        usage[id] = (tick, key)
    }

    @discardableResult
    private mutating func remove(under key: CacheKey, _ shouldRemove: (StoredResponse) -> Bool) -> Int {
        guard let variants = entries[key] else { return 0 }
        var kept: [StoredResponse] = []
        for stored in variants {
            if shouldRemove(stored) {
                storedBytes -= stored.cost
                usage[stored.id] = nil
            } else {
                kept.append(stored)
            }
        }
        entries[key] = kept.isEmpty ? nil : kept
        return variants.count - kept.count
    }
}
