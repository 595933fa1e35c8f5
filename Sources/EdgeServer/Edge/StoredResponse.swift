import HTTPTypes

/// One response in the edge's store, with what RFC 9111 §4.2 needs to compute its freshness
/// and age: when it was requested and received, and its `Date` and `Age` values.
struct StoredResponse: Sendable {
    /// Identifies this stored response across suspensions (set by ``EdgeStore``).
    var id: UInt64 = 0
    /// The response as received from the origin, without `Age` (recomputed when served).
    private(set) var response: ServerResponse
    /// The secondary key (the `Vary`'d request fields).
    let selecting: SelectingHeaders
    private(set) var directives: CacheDirectives
    /// When the request that produced (or last validated) the response was sent.
    private var requestTime: Double
    /// When that response arrived.
    private var responseTime: Double
    /// The `Age` value the origin sent, 0 without one.
    private var ageValue: Double
    /// Bytes counted against the store's bound: the body plus header names and values.
    var cost: Int {
        response.body.readableBytes + response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }

    /// Wraps a response received at `responseTime` for a request sent at `requestTime`, or
    /// returns `nil` when its `Vary` is `*`.
    init?(_ response: ServerResponse, for request: HTTPFields, requestTime: Double, responseTime: Double) {
        guard let selecting = SelectingHeaders(vary: response.headerFields[.vary], request: request) else { return nil }
        self.selecting = selecting
        self.response = response
        self.directives = CacheDirectives(response.headerFields)
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.ageValue = Self.ageValue(of: response.headerFields)
        self.response.headerFields[.age] = nil
    }

    /// The stored headers and body, with `Age` set for `now`.
    func served(at now: Double) -> ServerResponse {
        var copy = response
        copy.headerFields[.age] = String(Int(min(currentAge(at: now), 2_147_483_648)))
        return copy
    }

    /// `s-maxage`, else `max-age`, else `Expires` − `Date` (RFC 9111 §4.2.1). Without any of them
    /// the lifetime is 0: heuristic freshness is off, so results stay deterministic.
    var freshnessLifetime: Double {
        if let sharedMaxAge = directives.sharedMaxAge { return Double(sharedMaxAge) }
        if let maxAge = directives.maxAge { return Double(maxAge) }
        guard let expires = response.headerFields[.expires] else { return 0 }
        guard let expiry = HTTPDate(expires) else { return 0 }
        return max(0, Double(expiry.secondsSince1970) - (dateValue ?? responseTime))
    }

    /// `current_age` of RFC 9111 §4.2.3.
    func currentAge(at now: Double) -> Double {
        let apparentAge = max(0, responseTime - (dateValue ?? responseTime))
        let correctedAgeValue = ageValue + (responseTime - requestTime)
        return max(apparentAge, correctedAgeValue) + (now - responseTime)
    }

    /// How much longer the response stays fresh at `now` (negative once stale).
    func timeToLive(at now: Double) -> Double {
        freshnessLifetime - currentAge(at: now)
    }

    /// The request fields that revalidate this response: `If-None-Match` with its `ETag` and
    /// `If-Modified-Since` with its `Last-Modified` (RFC 9111 §4.3.1).
    var validatorFields: HTTPFields {
        var fields = HTTPFields()
        fields[.ifNoneMatch] = response.headerFields[.eTag]
        fields[.ifModifiedSince] = response.headerFields[.lastModified]
        return fields
    }

    /// Updates the stored fields from a `304 Not Modified` (RFC 9111 §3.2, §4.3.4): every field of
    /// the 304 replaces the stored one except `Content-Length`; the timings restart, so `Age`
    /// starts again from 0. A 304 without `Date` removes the stored `Date` (the transport stamps
    /// a current one), so the apparent age does not count the old date.
    mutating func freshen(with notModified: ServerResponse, requestTime: Double, responseTime: Double) {
        var fields = response.headerFields
        fields[.date] = nil
        for name in Set(notModified.headerFields.map(\.name)) where name != .contentLength && name != .age {
            fields[values: name] = notModified.headerFields[values: name]
        }
        response.headerFields = fields
        directives = CacheDirectives(fields)
        self.requestTime = requestTime
        self.responseTime = responseTime
        ageValue = Self.ageValue(of: notModified.headerFields)
    }

    private var dateValue: Double? {
        response.headerFields[.date].flatMap(HTTPDate.init).map { Double($0.secondsSince1970) }
    }

    private static func ageValue(of fields: HTTPFields) -> Double {
        var scanner = FieldValueScanner(fields[.age] ?? "")
        guard let age = scanner.digits(), scanner.isAtEnd else { return 0 }
        return Double(age)
    }
}
