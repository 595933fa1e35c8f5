/// The primary cache key: the request target, and the host when the origin may answer each
/// host differently (``EdgeConfiguration/cacheKeyIncludesHost``: one client's `Host` then never
/// selects what another host's clients receive). The origin ignores the query, but the edge keys
/// on it, as Firebase Hosting's CDN does, so `?v=2` is a separate entry.
struct CacheKey: Hashable, Sendable {
    /// The normalised `Host` (``HostField/normalised(_:)``), nil when the key leaves it out.
    var host: String?
    var path: String
    var query: String?

    init(_ request: ServerRequest, includingHost: Bool) {
        host = includingHost ? Self.host(of: request) : nil
        path = request.path
        query = request.query
    }

    private static func host(of request: ServerRequest) -> String {
        request.headerFields[.hostField].flatMap(HostField.normalised) ?? ""
    }

    /// The key of the URI a `Location` or `Content-Location` value in the response to `request`
    /// names (RFC 9111 §4.4), or nil when it names another host or cannot be read: an absolute
    /// URI on the host the request named, an absolute path, or a path relative to the request's.
    init?(reference: String, in request: ServerRequest, includingHost: Bool) {
        var target = Substring(reference.prefix { $0 != "#" })
        if let schemeEnd = target.range(of: "://") {
            let rest = target[schemeEnd.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            guard let host = request.headerFields[.hostField], authority.lowercased() == host.lowercased() else { return nil }
            target = rest[authority.endIndex...]
            if !target.hasPrefix("/") { target = "/" + target }
        } else if target.hasPrefix("//") {
            return nil
        } else if !target.hasPrefix("/") {
            target = request.path[...(request.path.lastIndex(of: "/") ?? request.path.startIndex)] + target
        }
        guard let parsed = try? RequestTarget(parsing: String(target)) else { return nil }
        host = includingHost ? Self.host(of: request) : nil
        path = parsed.path
        query = parsed.query
    }
}
