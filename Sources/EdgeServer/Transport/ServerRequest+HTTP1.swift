import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

extension ServerRequest {
    /// The request a decoded HTTP/1 head and its body stand for, or the reason to refuse it: a target over
    /// `limits` (414) or invalid (400, see ``RequestTarget``), an invalid header name, not
    /// exactly one `Host` in an HTTP/1.1 request, or one that is not `host[:port]` (400, RFC 9112
    /// §3.2, RFC 9110 §7.2). (The parser itself
    /// refuses versions other than 1.0 and 1.1, see ``ConnectionLifecycleHandler``.)
    init(head: HTTPRequestHead, body: ByteBuffer, isFromLoopback: Bool, limits: ConnectionLimits) throws(RequestRejection) {
        guard head.uri.utf8.count <= limits.maxRequestTargetBytes else {
            throw RequestRejection(.init(code: 414, reasonPhrase: "URI Too Long"), "the request target is longer than \(limits.maxRequestTargetBytes) bytes")
        }
        let method: HTTPRequest.Method
        do {
            // NIO's parser reads `M-SEARCH` as `.MSEARCH`, spelt `MSEARCH` (a method no client
            // sends), and HTTPTypes keeps that spelling: restore the one on the wire.
            method = head.method == .MSEARCH ? HTTPRequest.Method("M-SEARCH")! : try HTTPRequest.Method(head.method)
        } catch {
            throw RequestRejection(.badRequest, "the method is not a valid token")
        }
        let target: RequestTarget
        do {
            target = try RequestTarget(parsing: head.uri)
        } catch {
            throw RequestRejection(.badRequest, error.description)
        }
        var fields = HTTPFields()
        fields.reserveCapacity(head.headers.count)
        var hostCount = 0
        for (name, value) in head.headers {
            guard let fieldName = HTTPField.Name(name) else {
                throw RequestRejection(.badRequest, "a header field name is not a valid token")
            }
            if fieldName.canonicalName == "host" {
                hostCount += 1
                guard HostField.normalised(value) != nil else {
                    throw RequestRejection(.badRequest, "the Host header field is not a host name or address with an optional port")
                }
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        guard hostCount == 1 || (hostCount == 0 && head.version.minor == 0) else {
            throw RequestRejection(.badRequest, "an HTTP/1.1 request needs exactly one Host header field")
        }
        self.init(method: method, path: target.path, query: target.query, headerFields: fields, isFromLoopback: isFromLoopback, body: body)
    }
}
