/// The representations the origin can send for a file: its bytes as they are, or the `.gz`
/// file next to it with `Content-Encoding: gzip`.
enum ContentCoding: Sendable, Equatable {
    case identity
    case gzip
}
