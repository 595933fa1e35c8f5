/// Why a bundled query's JSON could not be read: where (a byte offset into the parsed buffer;
/// `JSONCore.SourceMap` turns it into a line and column), what was found and what was expected.
public struct QueryDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { message }
}
