import CZlib
@testable import Gzip
import Testing

/// ``DeflateBlockScan`` against zlib's inflate, which stops at every block boundary with
/// `Z_BLOCK`: the same final block, the same unused bits, the same length, for every kind of
/// block libdeflate writes; and a clear error, never a crash or a hang, for anything else.
@Suite(.needsLibdeflate) struct DeflateBlockScanTests {
    /// Text at every level (dynamic blocks; fixed ones for a few bytes; stored ones at level 0),
    /// noise (stored blocks between coded ones), and nothing at all.
    static let inputs: [(name: String, bytes: [UInt8])] = [
        ("empty", []), ("1 byte", [7]), ("100 bytes", GzipTests.sample(100)), ("5 kB", GzipTests.sample(5_000)),
        ("600 kB", GzipTests.sample(600_000)), ("noise", noise(150_000)),
        ("text, noise, text", GzipTests.sample(200_000) + noise(100_000) + GzipTests.sample(70_000)),
        ("one repeated byte", [UInt8](repeating: 65, count: 400_000)),
    ]

    @Test(arguments: [0, 1, 3, 6, 9, 12] as [Int32])
    func findsTheFinalBlockZlibFinds(level: Int32) throws {
        for (name, input) in Self.inputs {
            let deflated = try Self.deflate(input, level: level)
            let expected = try Self.zlibFinalBlock(deflated)
            #expect(expected.produced == input.count, "\(name)")
            let found = try deflated.withUnsafeBufferPointer { try DeflateBlockScan.finalBlock(of: $0, decodingTo: input.count) }
            #expect(found == expected.final, "\(name) at level \(level)")
        }
    }

    @Test func rejectsTheWrongLength() throws {
        let input = GzipTests.sample(70_000)
        let deflated = try Self.deflate(input, level: 6)
        for count in [input.count - 1, input.count + 1, 0] {
            #expect(throws: GzipError.self) {
                try deflated.withUnsafeBufferPointer { try DeflateBlockScan.finalBlock(of: $0, decodingTo: count) }
            }
        }
    }

    @Test func rejectsEveryTruncationAndTrailingByte() throws {
        let input = GzipTests.sample(3_000) + Self.noise(300)
        let deflated = try Self.deflate(input, level: 6)
        for count in 0..<deflated.count {
            #expect(throws: GzipError.self) {
                try Array(deflated.prefix(count)).withUnsafeBufferPointer { try DeflateBlockScan.finalBlock(of: $0, decodingTo: input.count) }
            }
        }
        #expect(throws: GzipError.self) {
            try (deflated + [0]).withUnsafeBufferPointer { try DeflateBlockScan.finalBlock(of: $0, decodingTo: input.count) }
        }
    }

    /// Damaged streams end in an error or, where the damage still decodes to a stream of the
    /// right length, in a result; the walk always ends.
    @Test func damagedStreamsEndTheWalk() throws {
        let input = GzipTests.sample(20_000)
        let deflated = try Self.deflate(input, level: 6)
        var state: UInt64 = 7
        var rejected = 0
        for _ in 0..<2_000 {
            var damaged = deflated
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let bit = Int(state >> 33) % (deflated.count * 8)
            damaged[bit >> 3] ^= 1 << UInt8(bit & 7)
            do {
                _ = try damaged.withUnsafeBufferPointer { try DeflateBlockScan.finalBlock(of: $0, decodingTo: input.count) }
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 1_000)
    }

    static func noise(_ count: Int) -> [UInt8] {
        var state: UInt64 = 42
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// `input` as libdeflate deflates it alone: its own final block, unmended.
    static func deflate(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        guard case .libdeflate(let library) = try #require(DeflateEngine.libdeflate).kind else { throw GzipError(message: "not libdeflate") }
        let api = library.functions
        let compressor = try #require(api.alloc_compressor(level))
        defer { api.free_compressor(compressor) }
        let bound = api.deflate_compress_bound(compressor, input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let count = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { api.deflate_compress(compressor, source.baseAddress, source.count, $0.baseAddress, bound) }
        }
        return Array(output.prefix(count))
    }

    /// What zlib's inflate says: where the final block starts, the unused bits after it, and
    /// the bytes the stream decodes to.
    static func zlibFinalBlock(_ deflated: [UInt8]) throws -> (final: DeflateBlockScan.FinalBlock, produced: Int) {
        let stream = try ZStream.inflating(windowBits: -15)
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var input = deflated
        return try input.withUnsafeMutableBufferPointer { input in
            let z = stream.pointer
            z.pointee.next_in = input.baseAddress
            z.pointee.avail_in = UInt32(input.count)
            var (headerBit, produced) = (0, 0)
            var unusedBits: Int?
            while true {
                let status = scratch.withUnsafeMutableBufferPointer { scratch in
                    z.pointee.next_out = scratch.baseAddress
                    z.pointee.avail_out = UInt32(scratch.count)
                    return inflate(z, Z_BLOCK)
                }
                produced += (1 << 16) - Int(z.pointee.avail_out)
                let consumed = input.count - Int(z.pointee.avail_in)
                if status == Z_STREAM_END {
                    try #require(z.pointee.avail_in == 0)
                    return (DeflateBlockScan.FinalBlock(headerBit: headerBit, unusedBits: try #require(unusedBits)), produced)
                }
                try #require(status == Z_OK)
                // 128: at a block boundary, `data_type & 7` bits of the last byte read unused;
                // 64: the block just read is the final one.
                let flags = z.pointee.data_type
                if flags & 128 != 0 {
                    let bits = Int(flags & 7)
                    if flags & 64 == 0 { headerBit = consumed * 8 - bits } else { unusedBits = bits }
                }
            }
        }
    }
}
