import HTTPTypes
import NIOConcurrencyHelpers

/// The simulated CDN edge: a shared HTTP cache (RFC 9111) in front of the origin.
///
/// It stores `GET` responses by target (path and query, and host when
/// ``EdgeConfiguration/cacheKeyIncludesHost``) and by the request fields their `Vary` names
/// (but not those with `Set-Cookie`, unless ``EdgeConfiguration/storesSetCookie``), serves them while fresh (`s-maxage`, else `max-age`, else `Expires`), with `Age`,
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
///
/// ``respondImmediately(to:)`` answers what needs no origin: a fresh stored response (`HIT`), the
/// purge endpoint, after the site-change check. Everything else (a miss, a stale or `no-cache`
/// response, other methods) waits for ``respond(to:)``. The edge's state sits behind one lock
/// (see ``State``), held only for in-memory work, so event-loop threads answer hits side by side.
public final class EdgeCache: Responder {
    /// The path of the purge endpoint.
    public static let purgePath = "/__edge/purge"

    /// What the edge does with a request, decided from its state without waiting.
    private enum Route {
        /// Send this response: a hit, or the purge endpoint's answer.
        case answer(ServerResponse)
        /// Forward a request the edge does not cache (other methods).
        case passThrough
        /// Nothing is stored for the request: fetch it (`uri-miss` or `vary-miss`).
        case fetch(CacheKey, reason: String)
        /// The stored response is stale or needs validation.
        case validate(StoredResponse, CacheKey)
    }

    /// What the edge makes of a stored response it found.
    private enum Found {
        /// It is fresh: serve this hit.
        case hit(ServerResponse)
        /// It is stale or `no-cache`: validate it first.
        case needsValidation(StoredResponse)
    }

    private let origin: ConditionalResponder
    private let clock: EdgeClock
    /// ``EdgeConfiguration/cacheKeyIncludesHost``.
    private let keysOnHost: Bool
    /// ``EdgeConfiguration/storesSetCookie``.
    private let storesSetCookie: Bool
    /// The stored responses, the purge generation, the running refreshes and the site monitor.
    let state: NIOLockedValueBox<State>

    /// Creates an empty edge in front of `origin`.
    public init(origin: any Responder, configuration: EdgeConfiguration = EdgeConfiguration()) {
        self.origin = ConditionalResponder(wrapping: origin)
        clock = configuration.clock
        keysOnHost = configuration.cacheKeyIncludesHost
        storesSetCookie = configuration.storesSetCookie
        state = NIOLockedValueBox(
            State(
                store: EdgeStore(capacity: configuration.maxStoredBytes, budget: configuration.memoryBudget),
                monitor: configuration.watchedFile.map { SiteChangeMonitor(watching: $0) }
            )
        )
        // Bodies in flight come first: stored responses make room for them.
        configuration.memoryBudget?.reclaim { [weak self] bytes in
            self?.state.withLockedValue { $0.store.evict(atLeast: bytes) }
        }
    }

    /// Gives the stored bytes back to the memory budget (`serve --watch` replaces the edge
    /// with every rebuild).
    deinit {
        state.withLockedValue { _ = $0.store.removeAll() }
    }

    /// Answers a fresh stored response (`HIT`) or a purge request; nil for anything that needs
    /// the origin.
    public func respondImmediately(to request: ServerRequest) -> ServerResponse? {
        guard case .answer(let response) = route(request, at: clock.now()) else { return nil }
        return response
    }

    /// Answers from the store or the origin; never throws (an unreachable origin gives 504 or a
    /// stale response).
    public func respond(to request: ServerRequest) async -> ServerResponse {
        await respond(to: request, collapsing: true)
    }

    /// Answers as ``respond(to:)`` does; `collapsing` is false for a request that already waited
    /// for another's exchange with the origin (it then asks the origin itself, see
    /// ``collapse(_:key:collapsing:_:)``).
    func respond(to request: ServerRequest, collapsing: Bool) async -> ServerResponse {
        let now = clock.now()
        switch route(request, at: now) {
        case .answer(let response):
            return response
        case .passThrough:
            return await passThrough(request)
        case .fetch(let key, let reason):
            return await collapse(request, key: key, collapsing: collapsing) {
                await self.fetch(request, key: key, reason: reason)
            }
        case .validate(let stored, let key):
            if stored.directives.mayServeWhileRevalidating(staleness: -stored.timeToLive(at: now)) {
                refreshInBackground(stored, for: request, key: key)
                return stored.served(at: now, as: CacheOutcome(label: .stale, hit: true, forwardReason: "stale"))
            }
            return await collapse(request, key: key, collapsing: collapsing) {
                await self.revalidate(stored, for: request, key: key)
            }
        }
    }

    /// Waits until every background refresh has finished (for tests, and for an orderly shutdown).
    public func waitForBackgroundRefreshes() async {
        while let refresh = state.withLockedValue({ $0.refreshes.values.first }) {
            await refresh.value
        }
    }

    // MARK: Serving

    /// Checks for a redeploy, then: the purge endpoint answers at once; other methods pass
    /// through; a `GET` or `HEAD` is a `HIT` when a fresh response is stored (and `no-cache` does
    /// not forbid using it), else it needs the origin. A hit takes the lock once.
    private func route(_ request: ServerRequest, at now: Double) -> Route {
        let isPurge = request.path == Self.purgePath
        let isCached = !isPurge && (request.method == .get || request.method == .head)
        let key = key(for: request)
        let lookup = state.withLockedValue { state -> EdgeStore.Lookup<Found>? in
            state.purgeIfSiteChanged(at: now)
            guard isCached else { return nil }
            // Under the lock, so the hit built here is kept for the next request.
            return state.store.lookup(key, request: request.headerFields, at: now) { stored in
                stored.hit(at: now).map(Found.hit) ?? .needsValidation(stored)
            }
        }
        guard let lookup else {
            return isPurge ? .answer(respondToPurge(request)) : .passThrough
        }
        switch lookup {
        case .uriMiss:
            return .fetch(key, reason: "uri-miss")
        case .varyMiss:
            return .fetch(key, reason: "vary-miss")
        case .fileChanged:
            // The edge keeps a large body as the origin's open file, not a copy: rewritten in
            // place since, it no longer holds the stored bytes (the response fetched instead
            // replaces it).
            return .fetch(key, reason: "miss")
        case .found(.hit(let response)):
            return .answer(response)
        case .found(.needsValidation(let stored)):
            return .validate(stored, key)
        }
    }

    /// Forwards a request nothing is stored for and stores the response when allowed.
    private func fetch(_ request: ServerRequest, key: CacheKey, reason: String) async -> ServerResponse {
        let requestTime = clock.now()
        let generation = state.withLockedValue { $0.generation }
        let response: ServerResponse
        do {
            response = try await origin.respond(to: Self.forwarded(request))
        } catch {
            return Self.gatewayFailure(error, CacheOutcome(label: .miss, forwardReason: reason, detail: "origin-unavailable"))
        }
        let admission = admit(response, for: request, key: key, requestTime: requestTime, generation: generation)
        return admission.outcome(.miss, forwardReason: reason).label(response)
    }

    /// Asks the origin whether a stale response is still current (`If-None-Match`,
    /// `If-Modified-Since`): 304 → freshen it (`REVALIDATED`, `Age` restarts); a new response →
    /// replace it (`EXPIRED`); origin down or 5xx → serve stale if allowed, else 504 or the 5xx.
    private func revalidate(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) async -> ServerResponse {
        let requestTime = clock.now()
        let generation = state.withLockedValue { $0.generation }
        var conditional = Self.forwarded(request)
        conditional.headerFields.append(contentsOf: stored.validatorFields)
        let response: ServerResponse
        do {
            response = try await origin.respond(to: conditional)
        } catch {
            return staleOnError(stored, forwardStatus: nil)
                ?? Self.gatewayFailure(error, CacheOutcome(label: .expired, forwardReason: "stale", detail: "origin-unavailable"))
        }
        let responseTime = clock.now()
        if response.status == .notModified {
            // A cookie the 304 sets is this client's: it is served, not stored (unless allowed).
            var notModified = response
            var cookies: [HTTPField] = []
            if !storesSetCookie {
                cookies = notModified.headerFields[fields: .setCookie]
                notModified.headerFields[fields: .setCookie] = []
            }
            var freshened = stored
            freshened.freshen(with: notModified, requestTime: requestTime, responseTime: responseTime)
            state.withLockedValue { state in
                if generation == state.generation {
                    _ = state.store.update(stored.id, under: key) { $0 = freshened }
                }
            }
            var served = freshened.served(at: responseTime, as: CacheOutcome(label: .revalidated, forwardReason: "stale", forwardStatus: 304))
            served.headerFields.append(contentsOf: cookies)
            return served
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
        return stored.served(at: now, as: outcome)
    }

    /// Starts revalidating `stored` unless a refresh of it is already running (one per response).
    ///
    /// The task is created and registered in one critical section: the check and the insert
    /// cannot interleave with another request's, and the task's own removal (which takes the lock)
    /// cannot run before its registration.
    private func refreshInBackground(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) {
        state.withLockedValue { state in
            guard state.refreshes[stored.id] == nil else { return }
            state.refreshes[stored.id] = Task {
                await self.refresh(stored, for: request, key: key)
            }
        }
    }

    private func refresh(_ stored: StoredResponse, for request: ServerRequest, key: CacheKey) async {
        _ = await revalidate(stored, for: request, key: key)
        state.withLockedValue { _ = $0.refreshes.removeValue(forKey: stored.id) }
    }

    /// Forwards a request with a method the edge does not cache (`BYPASS`). A non-error answer to
    /// an unsafe method invalidates the stored responses of its target and of the same-host URIs
    /// its `Location` and `Content-Location` name (RFC 9111 §4.4).
    private func passThrough(_ request: ServerRequest) async -> ServerResponse {
        let outcome = CacheOutcome(label: .bypass, forwardReason: "bypass", detail: "method")
        let response: ServerResponse
        do {
            response = try await origin.respond(to: request)
        } catch {
            return Self.gatewayFailure(error, outcome)
        }
        if !Self.safeMethods.contains(request.method), response.status.code < 400 {
            let named = [.location, .contentLocation].compactMap { (name: HTTPField.Name) in
                response.headerFields[name].flatMap { CacheKey(reference: $0, in: request, includingHost: keysOnHost) }
            }
            state.withLockedValue { state in
                for key in [key(for: request)] + named {
                    state.store.remove(key)
                }
            }
        }
        return outcome.label(response)
    }

    // MARK: Storing

    /// Stores `response` (replacing the response `replacing` names) when RFC 9111 §3 allows it,
    /// it fits, and no purge happened since it was requested; a stale response it does not
    /// replace is dropped.
    ///
    /// The generation check and the insert happen in one critical section, so a purge either
    /// comes before both (nothing is stored) or after both (it removes what was stored). Two
    /// requests that admit the same variant leave one response: the later insert replaces it.
    private func admit(
        _ response: ServerResponse, for request: ServerRequest, key: CacheKey, requestTime: Double, generation: UInt64,
        replacing: UInt64? = nil
    ) -> Admission {
        let admission = Admission(
            response, directives: CacheDirectives(response.headerFields), request: request, storingSetCookie: storesSetCookie)
        guard admission == .store else {
            if let replacing {
                state.withLockedValue { $0.store.remove(key, id: replacing) }
            }
            return admission
        }
        let stored = StoredResponse(response, for: request.headerFields, requestTime: requestTime, responseTime: clock.now())
        return state.withLockedValue { state in
            if let stored, state.store.canHold(stored), generation == state.generation,
                state.store.insert(stored, under: key, for: request.headerFields, replacing: replacing)
            {
                return .store
            }
            if let replacing {
                state.store.remove(key, id: replacing)
            }
            return .skip(detail: stored == nil ? "vary-star" : generation == state.generation ? "too-large" : "purged")
        }
    }

    /// The primary key `request` is stored under.
    func key(for request: ServerRequest) -> CacheKey {
        CacheKey(request, includingHost: keysOnHost)
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

    /// `502 Bad Gateway`, `504 Gateway Timeout` or `503 Service Unavailable` for an origin that
    /// could not answer.
    private static func gatewayFailure(_ error: OriginUnavailable, _ outcome: CacheOutcome) -> ServerResponse {
        outcome.label(
            .plainText(
                error.gatewayStatus,
                "the edge could not reach the origin (\(error.reason)) and has no response it may serve instead.",
                fields: error.gatewayFields
            )
        )
    }
}
