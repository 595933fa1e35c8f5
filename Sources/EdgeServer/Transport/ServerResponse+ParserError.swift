import NIOHTTP1

extension ServerResponse {
    /// The answer to a request the HTTP/1 parser rejected: 431 when the head is over the limit,
    /// 505 for a version other than HTTP/1.0 and 1.1, 501 for a method it does not know (RFC
    /// 9110 §9.1), 400 for anything else.
    static func rejecting(_ error: (any Error)?, limits: ConnectionLimits) -> ServerResponse {
        switch error as? HTTPParserError {
        case .headerOverflow:
            return .plainText(
                .init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
                "the request line and header fields are over \(limits.maxRequestHeadBytes) bytes")
        case .invalidMethod:
            return .plainText(.notImplemented, "this server does not implement the request method")
        case .invalidVersion:
            return .plainText(.init(code: 505, reasonPhrase: "HTTP Version Not Supported"), "this server speaks HTTP/1.0 and HTTP/1.1")
        default:
            return .plainText(.badRequest, "the request is not valid HTTP/1.1 (\(error.map { "\($0)" } ?? "unknown error"))")
        }
    }
}
