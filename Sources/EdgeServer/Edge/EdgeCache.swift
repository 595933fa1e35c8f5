import HTTPTypes

/// The simulated CDN edge: a shared HTTP cache (RFC 9111) in front of the origin.
///
/// It stores `GET` responses by target (path and query) and by the request fields their `Vary`
/// names, serves them while fresh (`s-maxage`, else `max-age`, else `Expires`), with `Age`,
/// revalidates them with the origin when stale, serves them stale inside `stale-while-revalidate`
/// (refreshing in the background) and `stale-if-error` windows, and answers 504 when the origin is
/// down and nothing may be served. Every response carries `X-Cache` (`HIT`, `MISS`, `STALE`,
/// `REVALIDATED`, `EXPIRED`, `BYPASS`) and an RFC 9211 `Cache-Status` entry.
///
/// `HEAD` is answered from the stored `GET` response (a miss fetches it with `GET`). The client's
/// conditional and range fields are not forwarded: the edge fetches whole responses and the
/// ``ConditionalResponder`` in front of it answers those fields, also for stored responses. The
/// origin is wrapped in its own ``ConditionalResponder``, so revalidation gets a 304 from any origin
/// that sends `ETag` or `Last-Modified`.
///
/// `POST /__edge/purge` (loopback only) removes one path (`?path=/bundles/manifest.json`) or
/// everything; a change of ``EdgeConfiguration/watchedFile`` purges everything, as a deploy does.
public actor EdgeCache: Responder {
    /// The path of the purge endpoint.
    public static let purgePath = "/__edge/purge"

    private let origin: ConditionalResponder
    private let clock: EdgeClock
    private var monitor: SiteChangeMonitor?
    /// The stored responses (the purge extension empties it).
    var store: EdgeStore
    /// Counts purges: a response requested before a purge is not stored after it, so a fetch that
    /// raced a republish cannot put the old site back.
    var generation: UInt64 = 0
    /// The running background refreshes, by the id of the stale response they refresh.
    private var refreshes: [UInt64: Task<Void, Never>] = [:]

    /// Creates an empty edge in front of `origin`.
    public init(origin: any Responder, configuration: EdgeConfiguration = EdgeConfiguration()) {
        self.origin = ConditionalResponder(wrapping: origin)
        clock = configuration.clock
        store = EdgeStore(capacity: configuration.maxStoredBytes)
        monitor = configuration.watchedFile.map { SiteChangeMonitor(watching: $0) }
    }

    /// Answers from the store or the origin; never throws (an unreachable origin gives 504 or a
    /// stale response).
    public func respond(to request: ServerRequest) async -> ServerResponse {
        let now = clock.now()
        if monitor?.siteChanged(at: now) == true {
            purge(.all)
        }
        if request.path == Self.purgePath {
            return respondToPurge(request)
        }
        guard request.method == .get || request.method == .head else {
            return await passThrough(request)
        }
        let key = CacheKey(request)
        switch store.lookup(key, request: request.headerFields) {
        case .uriMiss:
            return await fetch(request, key: key, reason: "uri-miss")
        case .varyMiss:
            return await fetch(request, key: key, reason: "vary-miss")
        case .found(let stored):
            return await serve(stored, for: request, key: key, at: now)
        }
    }

    /// Waits until every background refresh has finished (for tests, and for an orderly shutdown).
    public func waitForBackgroundRefreshes() async {
        while let refresh = refreshes.values.first {
            await refresh.value
        }
    }

    // MARK: Serving

    /// Serves a stored response: fresh → `HIT`; stale inside `stale-while-revalidate` → `STALE`
    /// and a background refresh; otherwise revalidate first. `no-cache` always revalidates.
    private func serve(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey, at now: Double) async -> ServerResponse {
        let timeToLive = stored.timeToLive(at: now)
        if timeToLive > 0, !stored.directives.noCache {
            let outcome = CacheOutcome(label: .hit, hit: true, timeToLive: Int(timeToLive.rounded(.down)))
            return outcome.label(stored.served(at: now))
        }
        if stored.directives.mayServeWhileRevalidating(staleness: -timeToLive) {
            refreshInBackground(stored, for: request, key: key)
            return CacheOutcome(label: .stale, hit: true, forwardReason: "stale").label(stored.served(at: now))
        }
        return await revalidate(stored, for: request, key: key)
    }

    /// Forwards a request nothing is stored for and stores the response when allowed.
    private func fetch(_ request: ServerRequest, key: CacheKey, reason: String) async -> ServerResponse {
        let requestTime = clock.now()
        let generation = generation
        let response: ServerResponse
        do {
            response = try await origin.respond(to: Self.forwarded(request))
        } catch {
            return Self.gatewayTimeout(error, CacheOutcome(label: .miss, forwardReason: reason, detail: "origin-unavailable"))
        }
        let admission = admit(response, for: request, key: key, requestTime: requestTime, generation: generation)
        return admission.outcome(.miss, forwardReason: reason).label(response)
    }

    /// Asks the origin whether a stale response is still current (`If-None-Match`,
    /// `If-Modified-Since`): 304 → freshen it (`REVALIDATED`, `Age` restarts); a new response →
    /// replace it (`EXPIRED`); origin down or 5xx → serve stale if allowed, else 504 or the 5xx.
    private func revalidate(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) async -> ServerResponse {
        let requestTime = clock.now()
        let generation = generation
        var conditional = Self.forwarded(request)
        conditional.headerFields.append(contentsOf: stored.validatorFields)
        let response: ServerResponse
        do {
            response = try await origin.respond(to: conditional)
        } catch {
            return staleOnError(stored, forwardStatus: nil)
                ?? Self.gatewayTimeout(error, CacheOutcome(label: .expired, forwardReason: "stale", detail: "origin-unavailable"))
        }
        let responseTime = clock.now()
        if response.status == .notModified {
            var freshened = stored
            freshened.freshen(with: response, requestTime: requestTime, responseTime: responseTime)
            if generation == self.generation {
                _ = store.update(stored.id, under: key) { $0 = freshened }
            }
            let outcome = CacheOutcome(label: .revalidated, forwardReason: "stale", forwardStatus: 304)
            return outcome.label(freshened.served(at: responseTime))
        }
        if response.status.kind == .serverError, let stale = staleOnError(stored, forwardStatus: response.status.code) {
            return stale
        }
        let admission = admit(response, for: request, key: key, requestTime: requestTime, generation: generation, replacing: stored.id)
        return admission.outcome(.expired, forwardReason: "stale", forwardStatus: response.status.code).label(response)
    }

    /// `STALE` with the stored response when the origin failed and serving stale is allowed.
    private func staleOnError(_ stored: StoredResponse, forwardStatus: Int?) -> ServerResponse? {
        let now = clock.now()
        guard stored.directives.mayServeOnError(staleness: -stored.timeToLive(at: now)) else { return nil }
        let outcome = CacheOutcome(label: .stale, hit: true, forwardReason: "stale", forwardStatus: forwardStatus, detail: "origin-error")
        return outcome.label(stored.served(at: now))
    }

    /// Starts revalidating `stored` unless a refresh of it is already running (one per response).
    private func refreshInBackground(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) {
        guard refreshes[stored.id] == nil else { return }
        refreshes[stored.id] = Task {
            await self.refresh(stored, for: request, key: key)
        }
    }

    private func refresh(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) async {
        _ = await revalidate(stored, for: request, key: key)
        refreshes[stored.id] = nil
    }

    /// Forwards a request with a method the edge does not cache (`BYPASS`). A non-error answer to
    /// an unsafe method invalidates the stored responses of its target (RFC 9111 §4.4).
    private func passThrough(_ request: ServerRequest) async -> ServerResponse {
        let outcome = CacheOutcome(label: .bypass, forwardReason: "bypass", detail: "method")
        let response: ServerResponse
        do {
            response = try await origin.respond(to: request)
        } catch {
            return Self.gatewayTimeout(error, outcome)
        }
        if !Self.safeMethods.contains(request.method), response.status.code < 400 {
            store.remove(CacheKey(request))
        }
        return outcome.label(response)
    }

    // MARK: Storing

    /// Stores `response` (replacing the response `replacing` names) when RFC 9111 §3 allows it,
    /// it fits, and no purge happened since it was requested; a stale response it does not
    /// replace is dropped.
    private func admit(
        _ response: ServerResponse, for request: ServerRequest, key: CacheKey, requestTime: Double, generation: UInt64,
        replacing: UInt64? = nil
    ) -> Admission {
        var admission = Admission(response, directives: CacheDirectives(response.headerFields), request: request)
        if admission == .store {
            let stored = StoredResponse(response, for: request.headerFields, requestTime: requestTime, responseTime: clock.now())
            if let stored, store.canHold(stored), generation == self.generation {
                store.insert(stored, under: key, for: request.headerFields, replacing: replacing)
                return .store
            }
            admission = .skip(detail: stored == nil ? "vary-star" : generation == self.generation ? "too-large" : "purged")
        }
        if let replacing {
            store.remove(key, id: replacing)
        }
        return admission
    }

    /// Methods that do not change the resource (RFC 9110 §9.2.1).
    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// The request the edge sends the origin: a `GET` without the client's conditional and range
    /// fields, so the origin answers with the whole response the edge can store.
    private static func forwarded(_ request: ServerRequest) -> ServerRequest {
        var forwarded = request
        forwarded.method = .get
        for name: HTTPField.Name in [.ifMatch, .ifNoneMatch, .ifModifiedSince, .ifUnmodifiedSince, .ifRange, .range] {
            forwarded.headerFields[name] = nil
        }
        return forwarded
    }

    /// `504 Gateway Timeout` for an origin that could not be reached.
    private static func gatewayTimeout(_ error: OriginUnavailable, _ outcome: CacheOutcome) -> ServerResponse {
        outcome.label(
            .plainText(
                .gatewayTimeout,
                "the edge could not reach the origin (\(error.reason)) and has no response it may serve instead."
            )
        )
    }
}
