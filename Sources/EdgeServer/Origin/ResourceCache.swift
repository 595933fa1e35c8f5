import NIOConcurrencyHelpers

/// Resources read from disk, by request path, so that hot requests neither read nor hash files.
///
/// An entry is used only while the files it was read from are unchanged (see
/// ``ResourceLocation/isCurrent(sending:clientAcceptsGzip:)``). The cache holds at most `byteLimit` bytes of bodies; when a new entry would exceed
/// it, the oldest entries are dropped. A single resource larger than the limit is not cached.
final class ResourceCache: Sendable {
    private struct Entry {
        var resource: CachedResource
        var sequence: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var byteCount = 0
        var nextSequence = 0
    }

    let byteLimit: Int
    private let state = NIOLockedValueBox(State())

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// The resource cached for the request path `path`, current or not.
    func resource(for path: String) -> CachedResource? {
        state.withLockedValue { $0.entries[path]?.resource }
    }

    /// Caches `resource` for `path`, replacing what was there and dropping the oldest entries
    /// when over the limit.
    func store(_ resource: CachedResource, for path: String) {
        let size = resource.byteCount
        guard size <= byteLimit else { return }
        state.withLockedValue { state in
            if let old = state.entries.removeValue(forKey: path) { state.byteCount -= old.resource.byteCount }
            if state.byteCount + size > byteLimit {
                for (oldPath, old) in state.entries.sorted(by: { $0.value.sequence < $1.value.sequence }) {
                    guard state.byteCount + size > byteLimit else { break }
                    state.entries[oldPath] = nil
                    state.byteCount -= old.resource.byteCount
                }
            }
            state.entries[path] = Entry(resource: resource, sequence: state.nextSequence)
            state.byteCount += size
            state.nextSequence += 1
        }
    }

    /// How many bytes of bodies the cache holds (for tests and diagnostics).
    var byteCount: Int {
        state.withLockedValue { $0.byteCount }
    }
}
