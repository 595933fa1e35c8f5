import CZlib

/// Streams bytes into one gzip member, on one thread.
///
/// The header carries no file name and mtime 0 (zlib's `deflateInit2` with windowBits 31), so
/// the same input and level always give the same bytes. A reference type because it owns a zlib
/// stream; use one instance from one thread at a time.
public final class GzipCompressor {
    private let stream: ZStream

    /// - Parameter level: zlib compression level 0…9 (default 9: bundles are compressed once and
    ///   downloaded many times).
    public init(level: Int32 = 9) throws(GzipError) {
        stream = try ZStream.deflating(level: level, windowBits: 31)
    }

    /// Compresses `input` and returns whatever compressed bytes are ready (possibly none).
    public func append(_ input: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        input.withUnsafeBytes { buffer in
            _ = stream.pump(buffer, into: &output, untilEnd: false) { deflate($0, Z_NO_FLUSH) }
        }
        return output
    }

    /// Ends the member (last deflate block and the CRC-32/size trailer) and returns the rest.
    /// The compressor cannot be used afterwards.
    public func finish() -> [UInt8] {
        var output: [UInt8] = []
        _ = stream.pump(UnsafeRawBufferPointer(start: nil, count: 0), into: &output, untilEnd: true) { deflate($0, Z_FINISH) }
        return output
    }

    /// Compresses `input` into a complete gzip member.
    public static func compress(_ input: [UInt8], level: Int32 = 9) throws(GzipError) -> [UInt8] {
        let compressor = try GzipCompressor(level: level)
        return compressor.append(input) + compressor.finish()
    }
}
