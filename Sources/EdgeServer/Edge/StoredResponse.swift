import HTTPTypes

/// One response in the edge's store, with what RFC 9111 §4.2 needs to compute its freshness
/// and age: when it was requested and received, and its `Date` and `Age` values.
///
/// Everything a hit needs is parsed once, when the response is stored or freshened (directives,
/// `Date`, the freshness lifetime), and a hit's fields are built once per second of `Age`
/// (``hit(at:)``), so serving a hit is arithmetic.
struct StoredResponse: Sendable {
    /// Identifies this stored response across suspensions (set by ``EdgeStore``).
    var id: UInt64 = 0
    /// When it was last used, in the store's ticks (set by ``EdgeStore``, for eviction).
    var lastUsed: UInt64 = 0
    /// The response as received from the origin, without the fields the edge sets each time it
    /// serves it: `Age`, `X-Cache` and `Cache-Status`.
    private(set) var response: ServerResponse
    /// The `Cache-Status` entries of caches upstream, which the edge's entry follows.
    private var upstreamCacheStatus: String?
    /// The secondary key (the `Vary`'d request fields).
    let selecting: SelectingHeaders
    private(set) var directives: CacheDirectives
    /// `s-maxage`, else `max-age`, else `Expires` − `Date` (RFC 9111 §4.2.1); without any of
    /// them, the heuristic lifetime (see ``heuristicLifetime(status:directives:lastModified:date:)``).
    private var freshnessLifetime: Double = 0
    /// When the request that produced (or last validated) the response was sent.
    private var requestTime: Double
    /// When that response arrived.
    private var responseTime: Double
    /// The `Age` value the origin sent, 0 without one.
    private var ageValue: Double
    /// The `Date` value, when the response has a valid one.
    private var dateValue: Double?
    /// When ``EdgeStore/lookup(_:request:at:)`` next checks that a body kept as an open file is
    /// unchanged on disk (see ``OpenFile/isUnchanged``).
    var nextFileCheck: Double
    /// The least time between two checks of a stored open file, in seconds.
    static let fileCheckInterval: Double = 1
    /// The last hit served (see ``hit(at:)``) and the whole `Age` and `ttl` it was built for.
    private var lastHit: (age: Int, timeToLive: Int, response: ServerResponse)?
    /// Bytes counted against the store's bound: the body plus header names and values.
    var cost: Int {
        response.body.readableBytes + (upstreamCacheStatus?.utf8.count ?? 0)
            + response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count }
    }

    /// Wraps a response received at `responseTime` for a request sent at `requestTime`, or
    /// returns `nil` when its `Vary` is `*`.
    init?(_ response: ServerResponse, for request: HTTPFields, requestTime: Double, responseTime: Double) {
        guard let selecting = SelectingHeaders(vary: response.headerFields[.vary], request: request) else { return nil }
        self.selecting = selecting
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        nextFileCheck = responseTime + Self.fileCheckInterval
        ageValue = Self.ageValue(of: response.headerFields)
        directives = CacheDirectives(response.headerFields)
        keep(response.headerFields)
    }

    /// The response for a hit at `now` (`HIT`, with `Age` and `ttl`), or nil when the stored
    /// response is stale or `no-cache` requires validating it.
    ///
    /// Hits with the same whole `Age` and `ttl` are the same response, so the one built for the
    /// first of them (with its 304 form prepared, see ``ServerResponse/prepareNotModified()``) is
    /// kept and returned to the others: a busy response costs no copy of its fields per hit.
    mutating func hit(at now: Double) -> ServerResponse? {
        let timeToLive = timeToLive(at: now)
        guard timeToLive > 0, !directives.noCache else { return nil }
        let age = Self.ageFieldValue(currentAge(at: now))
        let secondsToLive = Int(timeToLive.rounded(.down))
        if let lastHit, lastHit.age == age, lastHit.timeToLive == secondsToLive {
            return lastHit.response
        }
        var response = served(age: age, as: CacheOutcome(label: .hit, hit: true, timeToLive: secondsToLive))
        if response.status == .ok {
            // Only a 200 becomes a 304 (see ConditionalResponder).
            response.prepareNotModified()
        }
        lastHit = (age, secondsToLive, response)
        return response
    }

    /// The stored headers and body labelled with `outcome` (`X-Cache`, `Cache-Status`), with
    /// `Age` set for `now`.
    func served(at now: Double, as outcome: CacheOutcome) -> ServerResponse {
        served(age: Self.ageFieldValue(currentAge(at: now)), as: outcome)
    }

    private func served(age: Int, as outcome: CacheOutcome) -> ServerResponse {
        var served = response
        served.headerFields.reserveCapacity(response.headerFields.count + 3)
        served.headerFields.append(HTTPField(name: .age, value: String(age)))
        served.headerFields.append(HTTPField(name: .xCache, value: outcome.label.rawValue))
        served.headerFields.append(HTTPField(name: .cacheStatus, value: outcome.cacheStatus(after: upstreamCacheStatus)))
        return served
    }

    /// The `Age` field value for a current age: whole seconds, capped at 2^31 (RFC 9111 §5.1).
    private static func ageFieldValue(_ currentAge: Double) -> Int {
        Int(min(currentAge, 2_147_483_648))
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
        directives = CacheDirectives(fields)
        self.requestTime = requestTime
        self.responseTime = responseTime
        ageValue = Self.ageValue(of: notModified.headerFields)
        keep(fields)
    }

    /// Stores `fields` without the edge's own fields (a `Cache-Status` among them becomes the
    /// upstream entries; without one, the previous upstream entries stay), then parses what
    /// freshness needs from them. Runs after `directives`, `requestTime` and `responseTime` are set.
    private mutating func keep(_ fields: HTTPFields) {
        lastHit = nil
        upstreamCacheStatus = fields[.cacheStatus] ?? upstreamCacheStatus
        var kept = HTTPFields()
        kept.reserveCapacity(fields.count)
        for field in fields where field.name != .age && field.name != .xCache && field.name != .cacheStatus {
            kept.append(field)
        }
        response.headerFields = kept
        dateValue = kept[.date].flatMap(HTTPDate.init).map { Double($0.secondsSince1970) }
        let date = dateValue ?? responseTime
        freshnessLifetime = Self.explicitLifetime(directives, expires: kept[values: .expires], date: date)
            ?? Self.heuristicLifetime(status: response.status.code, directives: directives, lastModified: kept[.lastModified], date: date)
    }

    /// The explicit lifetime, or nil when the response has none. An `Expires` that is not one
    /// valid date (or comes on several lines) means "already expired" (RFC 9111 §5.3).
    private static func explicitLifetime(_ directives: CacheDirectives, expires: [String], date: Double) -> Double? {
        if let sharedMaxAge = directives.sharedMaxAge { return Double(sharedMaxAge) }
        if let maxAge = directives.maxAge { return Double(maxAge) }
        guard let first = expires.first else { return nil }
        guard expires.count == 1, let expiry = HTTPDate(first) else { return 0 }
        return max(0, Double(expiry.secondsSince1970) - date)
    }

    /// Heuristic freshness (RFC 9111 §4.2.2), as Apache Traffic Server and Squid compute it: 10%
    /// of the time since `Last-Modified`, at most a day, for a heuristically cacheable status (or
    /// `public`); 0 without a valid `Last-Modified`.
    private static func heuristicLifetime(status: Int, directives: CacheDirectives, lastModified: String?, date: Double) -> Double {
        guard Admission.storableStatuses.contains(status) || directives.isPublic,
            let modified = lastModified.flatMap(HTTPDate.init)
        else { return 0 }
        return min(max(0, (date - Double(modified.secondsSince1970)) / 10), Self.maxHeuristicLifetime)
    }

    /// The longest heuristic freshness lifetime: one day.
    static let maxHeuristicLifetime: Double = 86_400

    /// The first element of the first `Age` line when it is a non-negative integer, else 0 (RFC
    /// 9111 §5.1: a cache ignores an invalid `Age`; `7200, 0` is 7200).
    private static func ageValue(of fields: HTTPFields) -> Double {
        guard let line = fields[values: .age].first else { return 0 }
        var scanner = FieldValueScanner(line)
        guard scanner.beginElement(), let age = scanner.digits(), scanner.endElement() else { return 0 }
        return Double(age)
    }
}
