import NIOCore

/// A response body: bytes in memory, or a byte range of an open file.
///
/// The transport writes bytes with the response head (in the head's buffer when small, else in
/// one `writev`), and sends a file range with `sendfile(2)`, so a large static file goes from the page cache to the socket without being
/// copied through user memory (the origin serves files of ``SiteOrigin/fileBodyThreshold`` bytes
/// and more this way). Both kinds slice without copying, for ranges.
public struct ResponseBody: Sendable {
    enum Storage: Sendable {
        case bytes(ByteBuffer)
        case file(OpenFile, offset: Int)
    }

    let storage: Storage
    /// How many bytes the body has.
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

    /// The body's bytes when they are in memory; nil for a file range.
    public var buffer: ByteBuffer? {
        guard case .bytes(let buffer) = storage else { return nil }
        return buffer
    }

    /// The open file a file-range body is sent from; nil for bytes in memory.
    var file: OpenFile? {
        guard case .file(let file, _) = storage else { return nil }
        return file
    }

    /// The bytes at `range` (which lies within the body), without copying.
    func slice(_ range: Range<Int>) -> ResponseBody {
        switch storage {
        case .bytes(let buffer):
            return ResponseBody(buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count) ?? ByteBuffer())
        case .file(let file, let offset):
            return ResponseBody(file: file, offset: offset + range.lowerBound, count: range.count)
        }
    }
}
