/// The primary cache key: the request target. The origin ignores the query, but the edge keys on
/// it, as Firebase Hosting's CDN does, so `?v=2` is a separate entry.
struct CacheKey: Hashable, Sendable {
    var path: String
    var query: String?

    init(_ request: ServerRequest) {
        path = request.path
        query = request.query
    }
}
