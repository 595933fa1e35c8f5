import HTTPTypes
import SitePolicy

/// The origin: answers requests from the files of a site directory, with the header policy.
///
/// - `GET`/`HEAD`: the file (a directory's `index.html`), as identity or from its `.gz` file
///   with `Content-Encoding: gzip`, chosen by `Accept-Encoding` (406 when the client accepts
///   neither); strong `ETag` per representation (`"<sha256 of the identity bytes>"`, and the
///   same with `-gz` for the gzip bytes), `Last-Modified` from the file's mtime,
///   `Vary: Accept-Encoding` on both, `X-Content-Type-Options: nosniff`, then the policy's
///   fields. The query string is ignored. Conditional and range requests are answered by the
///   layer in front (it compares the validators this origin sends).
/// - `OPTIONS`: 204 with `Allow`; a CORS preflight for a CORS path also gets the
///   `Access-Control-Allow-*` fields.
/// - Anything else: 405 with `Allow: GET, HEAD, OPTIONS`.
/// - Not found, hidden (see ``SiteRoot``): 404 `text/plain`, `Cache-Control: no-store`, never
///   content-coded, without `Vary` (it does not depend on `Accept-Encoding`).
///
/// A fallback directory (`bundlepress serve`'s explorer page, from the binary) answers the paths
/// the site directory has no file for.
///
/// Files are read (and hashed) once and kept in memory, or kept open when large (see
/// ``fileBodyThreshold`` and ``ResourceCache``); a request for a cached file costs one or two
/// `stat` calls to notice a rebuild, and no reads.
public struct SiteOrigin: Responder {
    /// The methods the origin implements, for `Allow` (and a CORS preflight's
    /// `Access-Control-Allow-Methods`).
    public static let allowedMethods = CORSPolicy.allowedMethods.joined(separator: ", ")
    /// Files this large or larger are kept open and sent from disk with `sendfile` (see
    /// ``ResponseBody``); smaller ones are kept in memory and written with their response head.
    public static let fileBodyThreshold = 64 << 10

    let root: SiteRoot
    /// Where a path the site has no file for is looked up next.
    let fallback: SiteRoot?
    let policy: HeaderPolicy
    let cache: ResourceCache
    let loader: ResourceLoader

    /// Creates an origin over `directory`.
    ///
    /// - Parameters:
    ///   - directory: The site directory (the `output:` of pipeline.yml).
    ///   - policy: The response header policy.
    ///   - cacheByteLimit: How many bytes of file contents to keep in memory.
    ///   - maxFileBytes: The largest file served; larger ones get a 500 that says so.
    ///   - fallbackDirectory: A directory whose files are served where the site has none (the
    ///     same rules hide paths in it).
    public init(
        directory: String, policy: HeaderPolicy = .default, cacheByteLimit: Int = 256 << 20, maxFileBytes: Int = 256 << 20, fallbackDirectory: String? = nil
    ) {
        root = SiteRoot(directory: directory)
        fallback = fallbackDirectory.map(SiteRoot.init(directory:))
        self.policy = policy
        cache = ResourceCache(byteLimit: cacheByteLimit)
        loader = ResourceLoader(roots: [root] + (fallback.map { [$0] } ?? []), policy: policy, maxFileBytes: maxFileBytes)
    }

    /// Answers from memory: a cached file whose files are unchanged on disk (one or two `stat`
    /// calls), `OPTIONS` and 405. Returns nil when the file must be read first.
    public func respondImmediately(to request: ServerRequest) -> ServerResponse? {
        switch request.method {
        case .get, .head:
            let accepted = AcceptEncoding(fieldValues: request.headerFields[values: .acceptEncoding])
            guard let cached = cache.resource(for: request.path) else { return nil }
            let coding = accepted.select(gzipAvailable: cached.gzip != nil)
            // A 406 depends on the files as an identity response does (a `.gz` may have appeared).
            guard cached.location.isCurrent(sending: coding ?? .identity, clientAcceptsGzip: accepted.quality(of: .gzip) > 0) else {
                return nil
            }
            return response(from: cached, coding: coding)
        case .options:
            return options(for: request)
        default:
            var fields = corsFields(forPath: request.path)
            fields[.allow] = Self.allowedMethods
            return .plainText(.methodNotAllowed, "\(request.method.rawValue) is not supported; this server only reads files", fields: fields)
        }
    }

    /// Answers from memory when it can (``respondImmediately(to:)``), else reads the file,
    /// caches it and answers.
    public func respond(to request: ServerRequest) async -> ServerResponse {
        if let response = respondImmediately(to: request) {
            return response
        }
        return await load(request)
    }

    /// The slow path of `GET` and `HEAD`: finds the files, reads them into the cache and answers.
    private func load(_ request: ServerRequest) async -> ServerResponse {
        guard let location = root.locate(request.path) ?? fallback?.locate(request.path) else { return notFound(request.path) }
        do {
            let resource = try await loader.load(location)
            cache.store(resource, for: request.path)
            let accepted = AcceptEncoding(fieldValues: request.headerFields[values: .acceptEncoding])
            return response(from: resource, coding: accepted.select(gzipAvailable: resource.gzip != nil))
        } catch {
            switch error {
            case .notFound: return notFound(request.path)
            case .unservable(let reason): return .plainText(.internalServerError, reason)
            }
        }
    }

    /// 200 with the representation in `coding`, or 406 when the client accepts neither (nil).
    private func response(from resource: CachedResource, coding: ContentCoding?) -> ServerResponse {
        guard let coding, let representation = resource.representation(coding) else {
            var fields = corsFields(forPath: resource.location.sitePath)
            fields[.vary] = "Accept-Encoding"
            let available = resource.gzip == nil ? "identity" : "identity or gzip"
            return .plainText(.notAcceptable, "this file is available as \(available) only, and Accept-Encoding allows neither", fields: fields)
        }
        return representation.response
    }

    private func notFound(_ path: String) -> ServerResponse {
        .plainText(.notFound, "nothing is published at this path", fields: corsFields(forPath: path))
    }

    /// The CORS response fields when CORS applies to `path`, so a web app can read even a
    /// 404's status.
    func corsFields(forPath path: String) -> HTTPFields {
        guard let cors = policy.cors, cors.applies(toPath: path) else { return [:] }
        return HTTPFields(cors.responseFields.compactMap { field in HTTPField.Name(field.name).map { HTTPField(name: $0, value: field.value) } })
    }
}
