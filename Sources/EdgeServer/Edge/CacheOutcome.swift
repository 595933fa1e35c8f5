import HTTPTypes

/// How the edge handled a request, as the `X-Cache` label CDNs use and as an RFC 9211
/// `Cache-Status` entry (serving.md §D.2).
struct CacheOutcome: Equatable, Sendable {
    /// The `X-Cache` vocabulary.
    enum Label: String, Sendable {
        case hit = "HIT"
        case miss = "MISS"
        case stale = "STALE"
        case revalidated = "REVALIDATED"
        case expired = "EXPIRED"
        case bypass = "BYPASS"
    }

    /// The `X-Cache` value.
    var label: Label
    /// `hit`: served from the store.
    var hit = false
    /// `fwd`: why the request went to the origin (`uri-miss`, `vary-miss`, `stale`, `bypass`).
    var forwardReason: String?
    /// `fwd-status`: the status the origin answered the forwarded request with.
    var forwardStatus: Int?
    /// `ttl`: seconds the served response stays fresh.
    var timeToLive: Int?
    /// `stored`: the origin's response was stored.
    var stored = false
    /// `detail`: why a response was not stored or why stale was served.
    var detail: String?

    /// The name of this cache in `Cache-Status`.
    static let cacheName = "edge"

    /// The `Cache-Status` entry, for example `edge; fwd=uri-miss; stored` or `edge; hit; ttl=42`.
    var cacheStatus: String {
        var entry = Self.cacheName
        entry.reserveCapacity(64)  // one allocation for the usual entries
        if hit { entry += "; hit" }
        if let forwardReason { entry += "; fwd=" + forwardReason }
        if let forwardStatus { entry += "; fwd-status=" + String(forwardStatus) }
        if let timeToLive { entry += "; ttl=" + String(timeToLive) }
        if stored { entry += "; stored" }
        if let detail { entry += "; detail=" + detail }
        return entry
    }

    /// The `Cache-Status` value: this cache's entry after those an upstream cache sent (RFC 9211
    /// §2: the last member is the cache closest to the client).
    func cacheStatus(after upstream: String?) -> String {
        upstream.map { $0 + ", " + cacheStatus } ?? cacheStatus
    }

    /// Labels `response`: sets `X-Cache` and appends this cache's `Cache-Status` entry to any an
    /// upstream cache sent.
    func label(_ response: ServerResponse) -> ServerResponse {
        var labelled = response
        labelled.headerFields[.xCache] = label.rawValue
        labelled.headerFields[.cacheStatus] = cacheStatus(after: response.headerFields[.cacheStatus])
        return labelled
    }
}

extension HTTPField.Name {
    /// `X-Cache`: the edge's verdict in the vocabulary of Fastly, Cloudflare and nginx.
    static let xCache = HTTPField.Name("X-Cache")!
    /// `Cache-Status` (RFC 9211).
    static let cacheStatus = HTTPField.Name("Cache-Status")!
}
