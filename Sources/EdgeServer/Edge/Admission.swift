import HTTPTypes

/// Whether the edge stores a response it received from the origin (RFC 9111 §3), and if not, why
/// (the reason becomes the `detail` of `Cache-Status`).
enum Admission: Equatable, Sendable {
    /// Store it.
    case store
    /// A shared cache must not store it: `X-Cache: BYPASS`.
    case bypass(detail: String)
    /// It could be stored but is not (status, `Vary: *`, size, a purge meanwhile): the label stays
    /// `MISS` or `EXPIRED`.
    case skip(detail: String)

    /// Statuses a cache may store without explicit permission, the list serving.md §D.1 gives
    /// (RFC 9110 §15.1 "heuristically cacheable" plus 206).
    static let storableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Statuses whose caching semantics the edge implements, for `must-understand` (RFC 9111
    /// §5.2.2.3): the heuristically cacheable ones and the other final statuses of RFC 9110 a
    /// response may be stored with when it has explicit freshness.
    static let understoodStatuses: Set<Int> = storableStatuses.union([302, 303, 307, 400, 403, 500, 502, 503, 504])

    /// Decides from the response's directives, status and `Set-Cookie` (not stored unless
    /// `storingSetCookie`: the cookie is the one client's) and the request's `Authorization`.
    ///
    /// Any final status may be stored with explicit freshness (`max-age`, `s-maxage`, `Expires`,
    /// `public`, RFC 9111 §3); without it, only ``storableStatuses``. A response with
    /// `must-understand` is stored only for an ``understoodStatuses`` status, and then its
    /// `no-store` does not count.
    init(_ response: ServerResponse, directives: CacheDirectives, request: ServerRequest, storingSetCookie: Bool) {
        let status = response.status.code
        let explicitlyCacheable = directives.isPublic || directives.maxAge != nil || directives.sharedMaxAge != nil
            || response.headerFields[.expires] != nil
        if directives.mustUnderstand, !Self.understoodStatuses.contains(status) {
            self = .bypass(detail: "must-understand")
        } else if directives.noStore, !directives.mustUnderstand {
            self = .bypass(detail: "no-store")
        } else if directives.isPrivate {
            self = .bypass(detail: "private")
        } else if request.headerFields[.authorization] != nil,
            !(directives.isPublic || directives.sharedMaxAge != nil || directives.mustRevalidate)
        {
            self = .bypass(detail: "authorization")
        } else if !storingSetCookie, response.headerFields[.setCookie] != nil {
            self = .skip(detail: "set-cookie")
        } else if status < 200 || !(Self.storableStatuses.contains(status) || explicitlyCacheable) {
            self = .skip(detail: "status")
        } else {
            self = .store
        }
    }

    /// The outcome of a forwarded request with this admission.
    ///
    /// - Parameters:
    ///   - label: `MISS` for a request nothing was stored for, `EXPIRED` for a stale one.
    ///   - reason: the `fwd` parameter (`uri-miss`, `vary-miss`, `stale`).
    ///   - status: the `fwd-status` parameter, when the label reports it.
    func outcome(_ label: CacheOutcome.Label, forwardReason reason: String, forwardStatus status: Int? = nil) -> CacheOutcome {
        switch self {
        case .store:
            CacheOutcome(label: label, forwardReason: reason, forwardStatus: status, stored: true)
        case .skip(let detail):
            CacheOutcome(label: label, forwardReason: reason, forwardStatus: status, detail: detail)
        case .bypass(let detail):
            CacheOutcome(label: .bypass, forwardReason: "bypass", detail: detail)
        }
    }
}
