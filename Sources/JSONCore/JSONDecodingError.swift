/// Why JSON could not be read as what it should hold (a Firestore value or document, an export's
/// record, a bundled query): where (a byte offset into the parsed buffer; `SourceMap` turns it
/// into a line and column), what was found and what was expected.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { message }
}
