import CLibdeflate
import CZlib

/// One block of input raw-deflated by libdeflate on its own, ready to be followed by the next
/// block's segment in the same deflate stream.
///
/// libdeflate compresses whole buffers, and its output always ends with a final block (BFINAL
/// set). A segment that is not the stream's last is therefore mended: zlib inflates it with
/// `Z_BLOCK`, which stops at every block boundary, to find where its last block starts (and to
/// prove, on the way, that it decodes to exactly the input's length); that block's BFINAL bit is
/// cleared, and an empty stored block, as zlib's `Z_SYNC_FLUSH` writes, brings the stream to a
/// byte boundary. The bytes depend only on the input, the level and `last`.
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
            let end = try finalBlock(of: bytes, decodingTo: input.count)
            bytes[end.headerBit >> 3] &= ~(1 << UInt8(end.headerBit & 7))
            // The bits after the final block's end code are padding: make sure they are zero, so the
            // stored block's 3 header bits (not final, type 00) can sit in them.
            bytes[bytes.count - 1] &= 0xFF >> UInt8(end.unusedBits)
            if end.unusedBits < 3 { bytes.append(0) }
            bytes += [0x00, 0x00, 0xFF, 0xFF]
        }
        return DeflateSegment(bytes: bytes, crc: crc, inputCount: input.count)
    }

    /// Where the last block of the raw deflate stream `deflated` starts (a bit offset: bit
    /// `headerBit & 7`, least significant first, of byte `headerBit >> 3`), and how many high
    /// bits of its last byte are unused.
    private static func finalBlock(of deflated: [UInt8], decodingTo expected: Int) throws(GzipError) -> (headerBit: Int, unusedBits: Int) {
        let stream = try ZStream.inflating(windowBits: -15)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        defer { scratch.deallocate() }
        return try deflated.withUnsafeBufferPointer { (input) throws(GzipError) -> (headerBit: Int, unusedBits: Int) in
            let z = stream.pointer
            z.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            z.pointee.avail_in = UInt32(input.count)
            var headerBit = 0
            var unusedBits: Int?
            var produced = 0
            while true {
                z.pointee.next_out = scratch
                z.pointee.avail_out = 1 << 16
                let status = inflate(z, Z_BLOCK)
                produced += (1 << 16) - Int(z.pointee.avail_out)
                let consumed = input.count - Int(z.pointee.avail_in)
                if status == Z_STREAM_END {
                    guard produced == expected, z.pointee.avail_in == 0, let unusedBits else {
                        throw GzipError(message: "libdeflate's block of \(expected) bytes decodes to \(produced), with \(z.pointee.avail_in) bytes left over")
                    }
                    return (headerBit, unusedBits)
                }
                guard status == Z_OK else {
                    throw GzipError(offset: consumed, message: "libdeflate's block of \(expected) bytes does not decode (zlib status \(status))")
                }
                // 128: stopped at a block boundary, with `data_type & 7` bits of the last byte read
                // not used yet; 64: the block just read is the final one. A boundary after a block
                // that is not final is where the next block's header starts; the boundary after the
                // final block is where the stream ends (zlib skips to the byte boundary after it).
                let flags = z.pointee.data_type
                if flags & 128 != 0 {
                    let bits = Int(flags & 7)
                    if flags & 64 == 0 { headerBit = consumed * 8 - bits } else { unusedBits = bits }
                }
            }
        }
    }
}
