@testable import Gzip
import Testing

/// What the parallel compressor's stream is made of, whatever its scheduling: the gzip header,
/// then each block of the input deflated on its own (``DeflateSegment``, the last one ending the
/// stream), then the trailer. The `.gz` files a site publishes depend on this, not on threads.
@Suite struct GzipBlockTests {
    @Test(arguments: [0, 1, 65_536, 4 * 65_536, 600_000], DeflateEngines.available)
    func streamIsItsBlocksDeflatedOnTheirOwn(count: Int, engine: DeflateEngine) throws {
        let input = GzipTests.sample(count).prefix(count)
        let blockSize = 65_536
        let starts = count == 0 ? [0] : Array(stride(from: 0, to: count, by: blockSize))
        var expected: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        for (index, start) in starts.enumerated() {
            let block = Array(input[start..<min(count, start + blockSize)])
            expected += try engine.segment(block, level: 6, last: index == starts.count - 1).bytes
        }
        for threads in [1, 2, 5] {
            let compressed = try ParallelGzipCompressor.compress(Array(input), level: 6, blockSize: blockSize, threads: threads, engine: engine)
            #expect(Array(compressed.dropLast(8)) == expected)
            let decompressor = try GzipDecompressor()
            let decompressed = try decompressor.append(compressed)
            try decompressor.finish()
            #expect(decompressed == Array(input))
        }
    }
}
