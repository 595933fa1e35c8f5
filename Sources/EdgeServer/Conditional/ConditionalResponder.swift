import HTTPTypes

/// The conditional and range layer: answers `If-Match`, `If-Unmodified-Since`, `If-None-Match`,
/// `If-Modified-Since`, `Range` and `If-Range` against the `200 OK` responses of the layer it wraps.
///
/// It reads the validators (`ETag`, `Last-Modified`) the inner layer put on its response, so it
/// works the same over the file origin and over the edge cache, and applies to whichever
/// representation the inner layer selected (identity or gzip). Other statuses and methods pass
/// through untouched, since RFC 9110 §13.2.1 has preconditions apply only to 2xx responses.
///
/// Ranges: a single range gives 206 (or 416 when unsatisfiable). A request for several ranges
/// gets the whole representation as 200, which RFC 9110 §14.2 allows (no client of a bundle site
/// asks for several, and `multipart/byteranges` would only add an amplification vector).
public struct ConditionalResponder: Responder {
    /// The layer whose responses this one answers conditionals against.
    public let next: any Responder

    /// Wraps `next`.
    public init(wrapping next: any Responder) {
        self.next = next
    }

    /// Answers from the inner layer's fast path, with the request's preconditions and range
    /// applied; nil when the inner layer declines.
    public func respondImmediately(to request: ServerRequest) -> ServerResponse? {
        next.respondImmediately(to: request).map { evaluate(request, against: $0) }
    }

    /// Answers the request through the inner layer, then applies the request's preconditions
    /// and range to a `200 OK` response to `GET` or `HEAD`.
    public func respond(to request: ServerRequest) async throws(OriginUnavailable) -> ServerResponse {
        evaluate(request, against: try await next.respond(to: request))
    }

    /// The response to `request` given the inner layer's `response`: 304, 412, 206 or 416 when
    /// the request's fields ask for them, else `response` itself.
    func evaluate(_ request: ServerRequest, against response: ServerResponse) -> ServerResponse {
        guard response.status == .ok, request.method == .get || request.method == .head else {
            return response
        }
        let validators = RepresentationValidators(fields: response.headerFields)
        switch Preconditions(request.headerFields).evaluate(validators) {
        case .notModified:
            return response.notModified()
        case .failed(let field):
            return response.preconditionFailed(field)
        case .proceed:
            guard request.method == .get else { return response }
            return selectRange(response, for: request.headerFields, validators: validators)
        }
    }
}
