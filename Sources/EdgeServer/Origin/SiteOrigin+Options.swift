import HTTPTypes
import SitePolicy

extension SiteOrigin {
    /// `OPTIONS`: 204 with `Allow`. A CORS preflight (`Origin` and
    /// `Access-Control-Request-Method` present) for a path CORS applies to also gets the
    /// allowed origin, methods and request headers, and how long the browser may cache that.
    func options(for request: ServerRequest) -> ServerResponse {
        var fields: HTTPFields = [.allow: Self.allowedMethods]
        let isPreflight = request.headerFields[.origin] != nil && request.headerFields[.accessControlRequestMethod] != nil
        if isPreflight, let cors = policy.cors, cors.applies(toPath: request.path) {
            fields[.accessControlAllowOrigin] = cors.allowOrigin
            fields[.accessControlAllowMethods] = Self.allowedMethods
            fields[.accessControlAllowHeaders] = CORSPolicy.allowedRequestHeaders.joined(separator: ", ")
            fields[.accessControlMaxAge] = String(CORSPolicy.preflightMaxAge)
        }
        fields[.xContentTypeOptions] = "nosniff"
        return ServerResponse(status: .noContent, headerFields: fields)
    }
}
