import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore

/// The outermost layer of `serve --watch`: answers `GET /_bundlepress/events` with the
/// ``SiteEventStream`` (server-sent events), and marks every other response with the
/// `BundlePress-Live-Reload` field naming that path, which is how the explorer page knows to
/// listen (a site served without `--watch` has neither, so the page never asks). Until a site
/// is published, a failing build's error is the page at `/`. The chain
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
        return site.withLockedValue { $0 }.respondImmediately(to: request).map { finished($0, for: request) }
    }

    public func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        if request.path == Self.eventsPath { return eventStream(for: request) }
        return finished(try await site.withLockedValue { $0 }.respond(to: request), for: request)
    }

    /// The stream for `GET` (405 for other methods but `HEAD`, 503 while
    /// ``SiteEventStream/maxListeners`` pages listen), never stored by a cache.
    private func eventStream(for request: ServerRequest) -> ServerResponse {
        guard request.method == .get || request.method == .head else {
            return .plainText(.methodNotAllowed, "the event stream answers GET", fields: [.allow: "GET, HEAD"])
        }
        let lastEventID = request.headerFields[HTTPField.Name("Last-Event-ID")!]
        let fields: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff"]
        // HEAD gets the head alone: no listener is added for a stream nobody reads.
        let chunks: AsyncStream<ByteBuffer>? = request.method == .head ? AsyncStream { $0.finish() } : events.subscribe(lastEventID: lastEventID)
        guard let chunks else {
            return .plainText(
                .serviceUnavailable, "\(events.maxListeners) pages already listen for site events; retry later",
                fields: [.retryAfter: "5", .cacheControl: "no-store"])
        }
        return ServerResponse(status: .ok, headerFields: fields, body: ResponseBody(streaming: chunks))
    }

    /// The site's response with the field that names the stream; while no site has been
    /// published and the build fails, the page at `/` is the build's error instead of a 404
    /// (and reloads once a build succeeds).
    private func finished(_ response: ServerResponse, for request: ServerRequest) -> ServerResponse {
        var response = response
        if response.status == .notFound, request.path == "/" || request.path == "/index.html", let failure = events.failure {
            response = Self.failurePage(failure)
        }
        response.headerFields[Self.discoveryField] = Self.eventsPath
        return response
    }

    /// A page that shows a failed build's message and reloads after the next successful build.
    private static func failurePage(_ message: String) -> ServerResponse {
        let escaped = message.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>The build failed</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"></head>
            <body><main><h1>The build failed</h1>
            <p>No site has been published yet. Fix the error and save: this page reloads after the next build.</p>
            <pre id="build-error" role="alert">\(escaped)</pre></main>
            <script>new EventSource('\(eventsPath)').addEventListener('rebuilt', () => location.reload());</script>
            </body></html>

            """
        let fields: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .xContentTypeOptions: "nosniff"]
        return ServerResponse(status: .serviceUnavailable, headerFields: fields, body: ByteBuffer(string: html))
    }
}
