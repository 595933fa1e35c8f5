import HTTPTypes

/// A request the transport answers itself, with an error status, before any layer sees it.
struct RequestRejection: Error, Sendable {
    var status: HTTPResponse.Status
    /// Why, for the response body.
    var reason: String

    init(_ status: HTTPResponse.Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    var response: ServerResponse {
        .plainText(status, reason)
    }
}
