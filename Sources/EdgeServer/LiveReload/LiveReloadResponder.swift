import HTTPTypes
import NIOConcurrencyHelpers

/// The outermost layer of `serve --watch`: answers `GET /_bundlepress/events` with the
/// ``SiteEventStream`` (server-sent events), and marks every other response with the
/// `BundlePress-Live-Reload` field naming that path, which is how the explorer page knows to
/// listen (a site served without `--watch` has neither, so the page never asks). The chain
/// behind it can be replaced while serving (``replaceSite(with:)``), for a rebuild that changed
/// the header policy.
public struct LiveReloadResponder: Responder {
    /// The path of the event stream.
    public static let eventsPath = "/_bundlepress/events"
    /// The field that names ``eventsPath`` on every other response.
    public static let discoveryField = HTTPField.Name("BundlePress-Live-Reload")!

    private let site: NIOLockedValueBox<any Responder>
    private let events: SiteEventStream

    /// Wraps `site`, the chain that serves the site, with the events of `events`.
    public init(wrapping site: any Responder, events: SiteEventStream) {
        self.site = NIOLockedValueBox(site)
        self.events = events
    }

    /// Answers later requests with `site` instead (requests being answered finish with the old).
    public func replaceSite(with site: any Responder) {
        self.site.withLockedValue { $0 = site }
    }

    public func respondImmediately(to request: ServerRequest) -> ServerResponse? {
        if request.path == Self.eventsPath { return eventStream(for: request) }
        return site.withLockedValue { $0 }.respondImmediately(to: request).map(Self.marked)
    }

    public func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        if request.path == Self.eventsPath { return eventStream(for: request) }
        return Self.marked(try await site.withLockedValue { $0 }.respond(to: request))
    }

    /// The stream for `GET` (405 for other methods but `HEAD`), never stored by a cache.
    private func eventStream(for request: ServerRequest) -> ServerResponse {
        guard request.method == .get || request.method == .head else {
            return .plainText(.methodNotAllowed, "the event stream answers GET", fields: [.allow: "GET, HEAD"])
        }
        let lastEventID = request.headerFields[HTTPField.Name("Last-Event-ID")!]
        let fields: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff"]
        // HEAD gets the head alone: no listener is added for a stream nobody reads.
        let chunks = request.method == .head ? AsyncStream { $0.finish() } : events.subscribe(lastEventID: lastEventID)
        return ServerResponse(status: .ok, headerFields: fields, body: ResponseBody(streaming: chunks))
    }

    private static func marked(_ response: ServerResponse) -> ServerResponse {
        var response = response
        response.headerFields[discoveryField] = eventsPath
        return response
    }
}
