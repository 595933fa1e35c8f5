import CLibdeflate

/// One block of input raw-deflated by libdeflate on its own, ready to be followed by the next
/// block's segment in the same deflate stream.
///
/// libdeflate compresses whole buffers, and its output always ends with a final block (BFINAL
/// set). A segment that is not the stream's last is therefore mended: ``DeflateBlockScan``
/// walks its blocks to find where the last one starts (and proves, on the way, that it decodes
/// to exactly the input's length); that block's BFINAL bit is cleared, and an empty stored
/// block, as zlib's `Z_SYNC_FLUSH` writes, brings the stream to a byte boundary. The bytes
/// depend only on the input, the level and `last`.
struct DeflateSegment: Sendable {
    /// The deflate bytes: complete blocks, the last one final only when the segment is `last`.
    var bytes: [UInt8]
    /// CRC-32 of the input, for the gzip trailer.
    var crc: UInt32
    /// Input bytes the segment decodes to.
    var inputCount: Int

    /// Compresses `input` at libdeflate `level` (0…12).
    static func compress(_ input: [UInt8], level: Int32, last: Bool) throws(GzipError) -> DeflateSegment {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw GzipError(message: "libdeflate cannot allocate a compressor at level \(level)")
        }
        defer { libdeflate_free_compressor(compressor) }
        // libdeflate writes into the segment's own array, with room for the mending below: only
        // the pages it writes are ever touched, and the bytes are not copied out of a scratch buffer.
        let bound = libdeflate_deflate_compress_bound(compressor, input.count) + 5
        var crc: UInt32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = input.withUnsafeBytes { source in
                crc = libdeflate_crc32(0, source.baseAddress, source.count)
                return libdeflate_deflate_compress(compressor, source.baseAddress, source.count, buffer.baseAddress, bound - 5)
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
}
