import CLibdeflate
import CZlib

/// One block of input raw-deflated on its own, ready to be followed by the next block's segment
/// in the same deflate stream.
///
/// zlib writes such a segment itself: `Z_SYNC_FLUSH` ends the segment's blocks with an empty
/// stored block, at a byte boundary. libdeflate compresses whole buffers, and its output always
/// ends with a final block (BFINAL set). Its segment, when not the stream's last, is therefore
/// mended into the same form: ``DeflateBlockScan`` walks its blocks to find where the last one
/// starts (and proves, on the way, that it decodes to exactly the input's length); that block's
/// BFINAL bit is cleared, and an empty stored block, as zlib's `Z_SYNC_FLUSH` writes, brings the
/// stream to a byte boundary. The bytes depend only on the engine, the input, the level and `last`.
struct DeflateSegment: Sendable {
    /// The deflate bytes: complete blocks, the last one final only when the segment is `last`.
    var bytes: [UInt8]
    /// CRC-32 of the input, for the gzip trailer.
    var crc: UInt32
    /// Input bytes the segment decodes to.
    var inputCount: Int

    /// Compresses `input` with libdeflate at `level` (0…12).
    static func compress(_ input: [UInt8], level: Int32, last: Bool, with library: Libdeflate) throws(GzipError) -> DeflateSegment {
        let api = library.functions
        guard let compressor = api.alloc_compressor(level) else {
            throw GzipError(message: "libdeflate cannot allocate a compressor at level \(level)")
        }
        defer { api.free_compressor(compressor) }
        // libdeflate writes into the segment's own array, with room for the mending below: only
        // the pages it writes are ever touched, and the bytes are not copied out of a scratch buffer.
        let bound = api.deflate_compress_bound(compressor, input.count) + 5
        var crc: UInt32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = input.withUnsafeBytes { source in
                crc = api.crc32(0, source.baseAddress, source.count)
                return api.deflate_compress(compressor, source.baseAddress, source.count, buffer.baseAddress, bound - 5)
            }
        }
        // The bound is libdeflate's own worst case for this input, so 0 ("did not fit") cannot happen.
        guard !bytes.isEmpty else { throw GzipError(message: "libdeflate's output for \(input.count) bytes exceeded its own bound") }
        if !last {
            let end = try bytes.withUnsafeBufferPointer { (deflated) throws(GzipError) in
                try DeflateBlockScan.finalBlock(of: deflated, decodingTo: input.count)
            }
            bytes[end.headerBit >> 3] &= ~(1 << UInt8(end.headerBit & 7))
            // The bits after the final block's end code are padding: make sure they are zero, so the
            // stored block's 3 header bits (not final, type 00) can sit in them.
            bytes[bytes.count - 1] &= 0xFF >> UInt8(end.unusedBits)
            if end.unusedBits < 3 { bytes.append(0) }
            bytes += [0x00, 0x00, 0xFF, 0xFF]
        }
        return DeflateSegment(bytes: bytes, crc: crc, inputCount: input.count)
    }

    /// Compresses `input` with zlib at `level` (0…9): `Z_FINISH` for the stream's last segment,
    /// `Z_SYNC_FLUSH` for any other.
    static func compressWithZlib(_ input: [UInt8], level: Int32, last: Bool) throws(GzipError) -> DeflateSegment {
        let stream = try ZStream.deflating(level: level, windowBits: -15)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(deflateBound(stream.pointer, uLong(input.count))) + 6)
        let (status, crc) = input.withUnsafeBytes { source in
            let status = stream.pump(source, into: &bytes, untilEnd: last) { deflate($0, last ? Z_FINISH : Z_SYNC_FLUSH) }
            return (status, UInt32(truncatingIfNeeded: crc32(0, source.bindMemory(to: Bytef.self).baseAddress, uInt(source.count))))
        }
        guard status == (last ? Z_STREAM_END : Z_OK) else { throw GzipError(message: "zlib's deflate failed (\(status))") }
        return DeflateSegment(bytes: bytes, crc: crc, inputCount: input.count)
    }
}
