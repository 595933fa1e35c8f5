import HTTPTypes
import NIOCore

/// One representation of a file, ready to send: its bytes and every header field the origin
/// gives it (content type and coding, validators, Vary, the header policy's fields).
struct Representation: Sendable {
    var headerFields: HTTPFields
    var body: ByteBuffer
}
