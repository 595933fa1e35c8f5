import NIOCore

/// A response body: bytes in memory, a byte range of an open file, or chunks streamed as they
/// are produced (server-sent events).
///
/// The transport writes bytes with the response head (in the head's buffer when small, else in
/// one `writev`), and sends a file range with `sendfile(2)`, so a large static file goes from the page cache to the socket without being
/// copied through user memory (the origin serves files of ``SiteOrigin/fileBodyThreshold`` bytes
/// and more this way). Both kinds slice without copying, for ranges. A stream has no length: see
/// ``init(streaming:)``.
public struct ResponseBody: Sendable {
    enum Storage: Sendable {
        case bytes(ByteBuffer)
        case file(OpenFile, offset: Int)
        case stream(AsyncStream<ByteBuffer>)
    }

    let storage: Storage
    /// How many bytes the body has (0 for a stream, whose length is not known).
    public let readableBytes: Int

    /// A body of the bytes in `buffer`.
    public init(_ buffer: ByteBuffer = ByteBuffer()) {
        storage = .bytes(buffer)
        readableBytes = buffer.readableBytes
    }

    /// A body of `count` bytes of `file` from `offset`.
    init(file: OpenFile, offset: Int = 0, count: Int) {
        storage = .file(file, offset: offset)
        readableBytes = count
    }

    /// A body sent chunk by chunk as `chunks` yields them, for server-sent events. The response
    /// carries no `Content-Length` and the connection closes after it (a close-delimited
    /// HTTP/1.1 body); it ends when `chunks` finishes, the client goes away or the server shuts
    /// down (the iteration is then cancelled, which runs the stream's `onTermination`). A layer
    /// that returns one must be outside the caching and range layers, which need whole bodies.
    public init(streaming chunks: AsyncStream<ByteBuffer>) {
        storage = .stream(chunks)
        readableBytes = 0
    }

    /// The chunks of a streamed body; nil for a body of known length.
    var stream: AsyncStream<ByteBuffer>? {
        guard case .stream(let chunks) = storage else { return nil }
        return chunks
    }

    /// The body's bytes when they are in memory; nil for a file range or a stream.
    public var buffer: ByteBuffer? {
        guard case .bytes(let buffer) = storage else { return nil }
        return buffer
    }

    /// The open file a file-range body is sent from; nil for bytes in memory.
    var file: OpenFile? {
        guard case .file(let file, _) = storage else { return nil }
        return file
    }

    /// The bytes at `range` (which lies within the body), without copying. A stream has no ranges.
    func slice(_ range: Range<Int>) -> ResponseBody {
        switch storage {
        case .bytes(let buffer):
            return ResponseBody(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count) ?? ByteBuffer())
        case .file(let file, let offset):
            return ResponseBody(file: file, offset: offset + range.lowerBound, count: range.count)
        case .stream:
            preconditionFailure("a streamed body has no byte ranges")
        }
    }
}
