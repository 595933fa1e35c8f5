import HTTPTypes

/// One representation of a file, ready to send: its body (bytes, or the open file) and every header field the origin
/// gives it (content type and coding, validators, Vary, the header policy's fields).
struct Representation: Sendable {
    var headerFields: HTTPFields
    var body: ResponseBody
}
