import AsyncHTTPClient
import HTTPTypes
import NIOCore
import NIOHTTP1

/// An origin reached over HTTP (`bundlepress serve --upstream URL`): every request the layers in
/// front pass on is forwarded with a maintained HTTP client (AsyncHTTPClient), as RFC 9110 §7.6
/// asks of a proxy.
///
/// - Any method, with the request body; the target's path (after the transport's normalisation)
///   under the upstream's path prefix, and the query as the client sent it.
/// - Header fields end to end: the hop-by-hop ones (`Connection` and what it names,
///   `Keep-Alive`, `TE`, `Transfer-Encoding`, `Upgrade`, `Proxy-Connection`) removed in both
///   directions and `Via: 1.1 bundlepress` added to both; `Host` becomes the upstream's
///   authority (as nginx's `proxy_pass` does), and `X-Forwarded-Host` is the operator's
///   ``UpstreamConfiguration/forwardedHost`` or else the client's `Host` (normalised; the edge
///   then keys its cache on it, ``EdgeConfiguration/cacheKeyIncludesHost``), never a value the
///   client sent in `X-Forwarded-Host`.
/// - An interim status (1xx) as the answer is a 502 (no `Upgrade` is forwarded); a 204 or 304
///   is passed on without a body.
/// - Redirects are returned, never followed; bodies are never decoded.
/// - An upstream that refuses or drops the connection or answers invalid HTTP throws
///   ``OriginUnavailable/Failure/unreachable`` (502), one that does not answer in time
///   ``OriginUnavailable/Failure/timedOut`` (504); each failure is also reported to
///   ``UpstreamConfiguration/failureLog``.
///
/// Bodies are whole messages in memory both ways (the transport reads a request body up to
/// ``ConnectionLimits/maxRequestBodyBytes``; a response body over
/// ``UpstreamConfiguration/maxResponseBodyBytes`` is a 502), which is what the edge stores.
///
/// Call ``shutdown()`` once the server has stopped.
public final class UpstreamOrigin: Responder {
    private let configuration: UpstreamConfiguration
    private let client: HTTPClient

    /// Creates an origin that forwards to `configuration.address`, with its own connection pool.
    public init(configuration: UpstreamConfiguration) {
        self.configuration = configuration
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: configuration.connectTimeout, read: configuration.readTimeout),
            decompression: .disabled
        )
        clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = configuration.maxConnections
        // Idle connections close before the upstream's keep-alive timeout ends them (5 s in
        // Node and Apache httpd): a request sent on a connection the upstream is closing fails,
        // and the edge does not retry (the upstream may have acted on it).
        clientConfiguration.connectionPool.idleTimeout = .seconds(4)
        // A refused connection is a 502 now, not a retry until the connect timeout.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
    }

    /// Forwards `request` and returns the upstream's response.
    public func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        let outgoing = forwardedRequest(request)
        // The connect and read timeouts say which failure it was; this only bounds the whole.
        let deadline = configuration.connectTimeout + configuration.readTimeout
        do {
            let response: HTTPClientResponse
            do {
                response = try await client.execute(outgoing, timeout: deadline)
            } catch ChannelError.ioOnClosedChannel {
                // A pooled connection the upstream closed as the request was written: nothing
                // reached the upstream, so sending it again on a new connection is safe.
                response = try await client.execute(outgoing, timeout: deadline)
            }
            // Upgrade is hop-by-hop and never forwarded: an interim status as the answer
            // (`101 Switching Protocols` above all) is not one the client can take.
            guard response.status.code >= 200 else { throw UnforwardableStatus(code: Int(response.status.code)) }
            let body = try await collect(response.body)
            return Self.forwardedResponse(response, body: body, toHEAD: request.method == .head)
        } catch {
            let failure = Self.failure(error)
            configuration.failureLog?("upstream \(request.method.rawValue) \(outgoing.url) failed: \(failure.reason) (answered \(failure.gatewayStatus.code))")
            throw failure
        }
    }

    /// The whole body, up to ``UpstreamConfiguration/maxResponseBodyBytes``, each part taken
    /// from the memory budget as it arrives (and given back once the body is whole: it is then
    /// the response's, which the edge counts when it stores it).
    private func collect(_ body: HTTPClientResponse.Body) async throws -> ByteBuffer {
        var collected = ByteBuffer()
        var reserved = 0
        defer { configuration.memoryBudget?.release(reserved) }
        for try await var part in body {
            guard collected.readableBytes + part.readableBytes <= configuration.maxResponseBodyBytes else {
                throw NIOTooManyBytesError(maxBytes: configuration.maxResponseBodyBytes)
            }
            if let budget = configuration.memoryBudget {
                guard budget.reserve(part.readableBytes) else { throw OverBudget(limit: budget.limit) }
                reserved += part.readableBytes
            }
            collected.writeBuffer(&part)
        }
        return collected
    }

    /// Closes the upstream connections.
    public func shutdown() async {
        try? await client.shutdown()
    }

    private func forwardedRequest(_ request: ServerRequest) -> HTTPClientRequest {
        var target = Self.percentEncodedPath(request.path)
        if let query = request.query { target += "?" + query }
        var outgoing = HTTPClientRequest(url: configuration.address.url(for: target))
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        var fields = request.headerFields.forwarded()
        fields[.xForwardedHost] = configuration.forwardedHost ?? fields[.hostField].flatMap(HostField.normalised)
        fields[.hostField] = configuration.address.authority
        outgoing.headers = HTTPHeaders(fields.map { ($0.name.rawName, $0.value) })
        if request.body.readableBytes > 0 || [.post, .put, .patch].contains(request.method) {
            outgoing.body = .bytes(request.body)
        }
        return outgoing
    }

    /// The upstream's response as the edge serves it: hop-by-hop fields removed, `Via` added,
    /// no body on a 204 or 304 whatever the upstream sent, and the transport left to frame the
    /// body (a `HEAD` keeps the upstream's `Content-Length`).
    private static func forwardedResponse(_ response: HTTPClientResponse, body: ByteBuffer, toHEAD: Bool) -> ServerResponse {
        var received = HTTPFields()
        received.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let name = HTTPField.Name(name) else { continue }
            received.append(HTTPField(name: name, value: value))
        }
        let status = HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
        let forwardsBody = status != .noContent && status != .notModified
        var forwarded = ServerResponse(status: status, headerFields: received.forwarded(), body: forwardsBody ? body : ByteBuffer())
        if toHEAD, let contentLength = received[.contentLength] {
            forwarded.headerFields[.contentLength] = contentLength
        }
        return forwarded
    }

    /// `path` with every byte outside RFC 3986's `pchar` and `/` percent-encoded.
    private static func percentEncodedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if byte.isPathCharacter {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func failure(_ error: any Error) -> OriginUnavailable {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded, .writeTimeout, .getConnectionFromPoolTimeout:
                return OriginUnavailable(.timedOut, reason: "no answer in time (\(error))")
            default:
                break
            }
        }
        if let error = error as? OverBudget {
            return OriginUnavailable(.overloaded, reason: "the bodies in memory fill the server's \(error.limit)-byte budget")
        }
        if let error = error as? UnforwardableStatus {
            return OriginUnavailable(.unreachable, reason: "the upstream answered \(error.code), an interim status, as its final response")
        }
        if let error = error as? NIOTooManyBytesError {
            return OriginUnavailable(.unreachable, reason: "the response body is larger than \(error.maxBytes.map(String.init) ?? "the limit") bytes")
        }
        return OriginUnavailable(.unreachable, reason: String(describing: error))
    }
}

/// A response body part did not fit in the ``MemoryBudget``.
private struct OverBudget: Error {
    var limit: Int
}

/// An upstream answered with a status the edge cannot pass on (1xx as the final answer).
private struct UnforwardableStatus: Error {
    var code: Int
}

extension UInt8 {
    /// RFC 3986 `pchar` (unreserved, sub-delims, `:` and `@`) or `/`.
    fileprivate var isPathCharacter: Bool {
        isUnreservedOrSubDelimiter || self == UInt8(ascii: ":") || self == UInt8(ascii: "@") || self == UInt8(ascii: "/")
    }
}
