/// A gzip stream that could not be produced or decoded: what went wrong, and where (a byte
/// offset into the compressed input, when decoding).
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int = 0, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "gzip byte \(offset): \(message)" }
}
