import JSONCore

/// A JSON value kept as the exact bytes it was written or read as, plus its parse tree when it
/// came from a reader.
///
/// BundleFormat does not model structured queries (the QueryEngine module does); it only moves
/// their JSON through unchanged, so a writer takes pre-encoded bytes and a reader hands back both
/// the bytes and the parsed node.
public struct RawJSON: Sendable {
    /// The JSON text, byte for byte.
    public var bytes: [UInt8]
    /// The parsed value (offsets relative to the start of `bytes`) when read from a bundle;
    /// nil for JSON supplied to a writer.
    public var node: JSONNode?

    public init(bytes: [UInt8], node: JSONNode? = nil) {
        self.bytes = bytes
        self.node = node
    }
}
