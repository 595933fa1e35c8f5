import HTTPTypes

/// The response `Cache-Control` directives a shared cache acts on (RFC 9111 §5.2.2, RFC 5861).
///
/// A valid `CDN-Cache-Control` (RFC 9213) takes the place of `Cache-Control`: the edge is the
/// CDN that field targets, so when it is present and a valid Structured Field dictionary whose
/// known directives have the right types, its directives are the edge's and `Cache-Control` is
/// not read (a `no-store` there no longer stops the edge storing). An invalid one is ignored
/// whole, as RFC 9213 §2.1 asks.
///
/// Directive names compare case-insensitively; values may be tokens or quoted strings. When a
/// directive repeats, the first occurrence counts. A delta-seconds value that is not a number
/// counts as 0 (the response is stale at once, the safe reading); one too large to represent
/// saturates. Malformed list elements are skipped.
struct CacheDirectives: Equatable, Sendable {
    var noStore = false
    /// `no-cache`, qualified or not (a qualified one is treated as unqualified, as RFC 9111
    /// §5.2.2.4 permits).
    var noCache = false
    /// `private`, qualified or not: a shared cache never stores it.
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    /// `must-understand`: store only for a status the cache understands, whatever `no-store`.
    var mustUnderstand = false
    var proxyRevalidate = false
    var maxAge: Int?
    var sharedMaxAge: Int?
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    /// Parses the `CDN-Cache-Control` field lines of a response when they are valid, else its
    /// `Cache-Control` field lines.
    init(_ fields: HTTPFields) {
        if let targeted = fields[.cdnCacheControl], let directives = Self(targeted: targeted) {
            self = directives
            return
        }
        guard let value = fields[.cacheControl] else { return }
        var scanner = FieldValueScanner(value)
        while scanner.beginElement() {
            guard let name = scanner.token()?.lowercased() else {
                scanner.skipElement()
                continue
            }
            var argument: String?
            if scanner.consume(UInt8(ascii: "=")) {
                argument = scanner.token() ?? scanner.quotedString()
            }
            guard scanner.endElement() else {
                scanner.skipElement()
                continue
            }
            apply(name, argument)
        }
    }

    /// The directives of a `CDN-Cache-Control` value, or nil when it is not a valid dictionary or
    /// a known directive has the wrong type (a delta-seconds that is not a non-negative integer,
    /// a flag that is not `true`).
    private init?(targeted value: String) {
        guard let dictionary = StructuredDictionary(parsing: value) else { return nil }
        for (name, member) in dictionary.members {
            switch (name, member) {
            case ("max-age", .integer(let seconds)), ("s-maxage", .integer(let seconds)),
                ("stale-while-revalidate", .integer(let seconds)), ("stale-if-error", .integer(let seconds)):
                guard seconds >= 0 else { return nil }
                apply(name, String(seconds))
            case ("max-age", _), ("s-maxage", _), ("stale-while-revalidate", _), ("stale-if-error", _):
                return nil
            case ("no-cache", .innerList), ("private", .innerList), (_, .boolean(true)):
                apply(name, nil)
            case ("no-store", _), ("no-cache", _), ("private", _), ("public", _), ("must-revalidate", _),
                ("proxy-revalidate", _), ("must-understand", _):
                return nil
            default:
                break  // extensions
            }
        }
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        switch name {
        case "no-store": noStore = true
        case "no-cache": noCache = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-revalidate": mustRevalidate = true
        case "must-understand": mustUnderstand = true
        case "proxy-revalidate": proxyRevalidate = true
        case "max-age": maxAge = maxAge ?? Self.deltaSeconds(argument)
        case "s-maxage": sharedMaxAge = sharedMaxAge ?? Self.deltaSeconds(argument)
        case "stale-while-revalidate": staleWhileRevalidate = staleWhileRevalidate ?? Self.deltaSeconds(argument)
        case "stale-if-error": staleIfError = staleIfError ?? Self.deltaSeconds(argument)
        default: break
        }
    }

    /// RFC 9111 §1.2.2: a non-negative integer; values past 2^31 count as 2^31.
    private static func deltaSeconds(_ argument: String?) -> Int {
        guard let argument else { return 0 }
        var scanner = FieldValueScanner(argument)
        guard let value = scanner.digits(), scanner.isAtEnd else { return 0 }
        return min(value, 2_147_483_648)
    }

    /// Whether a response that became stale `staleness` seconds ago may be served while a
    /// background request refreshes it (`stale-while-revalidate`, RFC 5861 §3).
    ///
    /// `no-cache` forbids it: such a response is never used without validation.
    func mayServeWhileRevalidating(staleness: Double) -> Bool {
        guard !noCache, let staleWhileRevalidate else { return false }
        return staleness <= Double(staleWhileRevalidate)
    }

    /// Whether a response that became stale `staleness` seconds ago may be served because the
    /// origin failed: inside a `stale-if-error` window (RFC 5861 §4), or whenever nothing forbids
    /// serving stale (RFC 9111 §4.2.4). `must-revalidate`, `proxy-revalidate` and `s-maxage`
    /// (which implies `proxy-revalidate`, §5.2.2.10) forbid it outside the window; `no-cache`
    /// always does.
    func mayServeOnError(staleness: Double) -> Bool {
        guard !noCache else { return false }
        if let staleIfError, staleness <= Double(staleIfError) { return true }
        return !(mustRevalidate || proxyRevalidate || sharedMaxAge != nil)
    }
}

extension HTTPField.Name {
    /// `CDN-Cache-Control` (RFC 9213): cache directives for CDNs only, which the edge is.
    static let cdnCacheControl = HTTPField.Name("CDN-Cache-Control")!
}
