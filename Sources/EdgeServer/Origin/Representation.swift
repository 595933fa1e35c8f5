import HTTPTypes

/// One representation of a file, ready to send: its `200 OK` with the body (bytes, or the open
/// file) and every header field the origin gives it (content type and coding, validators, Vary,
/// the header policy's fields).
struct Representation: Sendable {
    /// The response every request for this representation gets, with its 304 form prepared
    /// (see ``ServerResponse/prepareNotModified()``): a revalidation copies no field list.
    let response: ServerResponse

    /// Creates the representation, preparing its 304 once.
    init(headerFields: HTTPFields, body: ResponseBody) {
        var response = ServerResponse(status: .ok, headerFields: headerFields, body: body)
        response.prepareNotModified()
        self.response = response
    }

    /// The body, for the cache's bound.
    var body: ResponseBody { response.body }
}
