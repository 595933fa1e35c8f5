import CZlib

/// Streams gzip bytes back to the original, detecting corruption (bad header, bad deflate data,
/// CRC-32 or length mismatch) and truncation. Concatenated members are read in sequence, as
/// `gunzip` does; anything else after a member is an error.
///
/// A reference type because it owns a zlib stream; use one instance from one thread at a time.
public final class GzipDecompressor {
    private var stream: ZStream
    /// Compressed bytes consumed so far, for error offsets.
    private var consumed = 0
    /// True between the end of one member and the start of the next.
    private var atMemberBoundary = false

    public init() throws(GzipError) {
        stream = try ZStream.inflating(windowBits: 31)
    }

    /// True when `bytes` starts with the gzip magic `1F 8B`.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Decompresses the next piece of compressed input.
    public func append(_ input: [UInt8]) throws(GzipError) -> [UInt8] {
        var output: [UInt8] = []
        var position = 0
        while position < input.count {
            if atMemberBoundary {
                guard input[position] == 0x1F else {
                    throw GzipError(offset: consumed, message: "unexpected bytes after the end of the gzip data")
                }
                stream = try ZStream.inflating(windowBits: 31)
                atMemberBoundary = false
            }
            let (used, status) = input[position...].withUnsafeBytes { buffer in
                let status = stream.pump(buffer, into: &output, untilEnd: false) { inflate($0, Z_NO_FLUSH) }
                return (buffer.count - Int(stream.pointer.pointee.avail_in), status)
            }
            position += used
            consumed += used
            switch status {
            case Z_STREAM_END:
                atMemberBoundary = true
            case Z_OK, Z_BUF_ERROR:
                break
            default:
                let detail = stream.pointer.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw GzipError(offset: consumed, message: "corrupt gzip data (\(detail))")
            }
        }
        return output
    }

    /// Checks that the input ended exactly at the end of a gzip member.
    public func finish() throws(GzipError) {
        guard atMemberBoundary else {
            throw GzipError(offset: consumed, message: "the gzip data is truncated (it ends inside a member)")
        }
    }

    /// Decompresses complete gzip data.
    public static func decompress(_ input: [UInt8]) throws(GzipError) -> [UInt8] {
        let decompressor = try GzipDecompressor()
        let output = try decompressor.append(input)
        try decompressor.finish()
        return output
    }
}
