import CZlib
import ParallelWork

/// Compresses a stream into one gzip member on several threads, pigz-style, with libdeflate
/// (or zlib where the process has no libdeflate: ``DeflateEngine``), and output that is
/// byte-identical whatever the thread count and however the input is cut into `append` calls.
///
/// The input is cut into fixed-size blocks (default 2 MiB), each compressed on its own by the
/// engine and joined into one deflate stream (``DeflateSegment``); their CRC-32s are combined
/// with `crc32_combine`. A block's bytes depend only on its input, so threads change the speed,
/// never the output. Blocks that do not share their history cost a little size: on the benchmark's
/// 158 MB bundle, 2 MiB blocks at libdeflate's level 6 are 0.65 % larger than zlib's level 9 on
/// one thread (`gzip -9`), 1 MiB blocks 0.9 %, and level 7 is 0.5 % smaller.
///
/// Blocks compress in the background, each on a thread of its own as soon as more input shows
/// it is not the last: `append` starts them and returns to its caller, which goes on (encoding,
/// hashing, writing) meanwhile. At most `threads + 1` blocks compress at once; `append` waits for
/// the oldest only to start one more, so every core has a block to work on while the caller waits.
///
/// A block's buffer is used again for the input after it, once the block is compressed: a new
/// one each time had the kernel map and zero 2 MiB of fresh pages per block (70 ms of page
/// faults for the benchmark's 158 MB bundle).
///
/// A reference type holding the pending input; use one instance from one thread at a time, and
/// none after it has thrown (its stream is then incomplete).
public final class ParallelGzipCompressor {
    /// libdeflate's levels: 1 is fastest, 6 its default, 9 about zlib's 9, 10–12 slower and smaller
    /// (zlib takes them as 9).
    public static let levels: ClosedRange<Int32> = 0...12

    public let engine: DeflateEngine
    public let level: Int32
    public let blockSize: Int
    public let threads: Int

    /// The last full block, held until more input shows whether it ends the stream.
    private var held: [UInt8]?
    private var current: [UInt8] = []
    /// Buffers of blocks compressed, to take the input after them.
    private var spare: [[UInt8]] = []
    private var crc: UInt = 0
    private var length = 0
    private var wroteHeader = false
    /// The blocks compressing, oldest first: their bytes come out in this order, each with its
    /// input's buffer.
    private var inFlight: [(segment: BackgroundMap<Result<DeflateSegment, GzipError>>, input: HandedBuffer)] = []

    /// - Parameters:
    ///   - level: libdeflate level 0…12 (0 stores without compressing).
    ///   - blockSize: bytes per independently compressed block (≥ 64 KiB); part of the output
    ///     format, so keep it fixed for reproducible files.
    ///   - threads: worker threads (default: every active core).
    ///   - engine: what deflates the blocks (default: the fastest this process has).
    public init(level: Int32 = 6, blockSize: Int = 2 << 20, threads: Int = Processors.online, engine: DeflateEngine = .fastest) throws(GzipError) {
        guard Self.levels.contains(level) else { throw GzipError(message: "compression level \(level) is not in 0…12") }
        guard blockSize >= 1 << 16 else { throw GzipError(message: "block size \(blockSize) is smaller than 64 KiB") }
        self.engine = engine
        self.level = level
        self.blockSize = blockSize
        self.threads = max(1, threads)
        current.reserveCapacity(blockSize)
    }

    /// Adds input; returns compressed bytes as soon as earlier blocks are compressed (possibly none).
    public func append(_ input: [UInt8]) throws(GzipError) -> [UInt8] {
        var output = header()
        var index = 0
        while index < input.count {
            // More input follows the held block: it is not the last.
            if let block = held {
                held = nil
                Self.join(&output, try start(block, endsStream: false))
            }
            let take = min(blockSize - current.count, input.count - index)
            current.append(contentsOf: input[index..<(index + take)])
            index += take
            if current.count == blockSize {
                held = current
                current = spare.popLast() ?? []
                current.reserveCapacity(blockSize)
            }
        }
        return output
    }

    /// Compresses what is left, ends the member and returns the remaining bytes.
    public func finish() throws(GzipError) -> [UInt8] {
        var output = header()
        // A block is held only until input follows it, so `current` is empty behind one: the
        // held block ends the stream, or else `current` does (empty for an empty stream).
        Self.join(&output, try start(held ?? current, endsStream: true))
        held = nil
        current = []
        while !inFlight.isEmpty { Self.join(&output, try collectOldest()) }
        spare = []
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: crc >> UInt(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { output.append(UInt8(truncatingIfNeeded: length >> shift)) }
        return output
    }

    /// Compresses complete input into one gzip member.
    public static func compress(
        _ input: [UInt8], level: Int32 = 6, blockSize: Int = 2 << 20, threads: Int = Processors.online, engine: DeflateEngine = .fastest
    ) throws(GzipError) -> [UInt8] {
        let compressor = try ParallelGzipCompressor(level: level, blockSize: blockSize, threads: threads, engine: engine)
        return try compressor.append(input) + compressor.finish()
    }

    /// `bytes` after `output`, adopted rather than copied when `output` is empty (a segment of
    /// half a megabyte usually is all an `append` returns).
    private static func join(_ output: inout [UInt8], _ bytes: [UInt8]) {
        if output.isEmpty { output = bytes } else { output += bytes }
    }

    /// The 10-byte header once: no name, mtime 0, XFL as libdeflate's own gzip header sets it
    /// (2: slowest, from level 8; 4: fastest, below 2) whatever the engine, OS 3 (Unix).
    private func header() -> [UInt8] {
        guard !wroteHeader else { return [] }
        wroteHeader = true
        let extraFlags: UInt8 = level >= 8 ? 2 : (level < 2 ? 4 : 0)
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, extraFlags, 3]
    }

    /// Starts deflating `block` on a thread of its own, ending the stream when `endsStream`,
    /// after collecting the oldest block in flight if as many as the cores and one more are.
    private func start(_ block: consuming [UInt8], endsStream: Bool) throws(GzipError) -> [UInt8] {
        let output = inFlight.count > threads ? try collectOldest() : []
        let (level, engine) = (level, engine)
        // The buffer goes in a box the thread reads it from, not in the thread's closure: the
        // closure outlives the result by a moment, and a buffer it still held would be copied
        // when used again.
        let input = HandedBuffer()
        input.bytes = consume block
        inFlight.append((BackgroundMap(count: 1) { _ in
            Result { () throws(GzipError) in try engine.segment(input.bytes, level: level, last: endsStream) }
        }, input))
        return output
    }

    /// Waits for the oldest block in flight and returns its bytes, adding it to the trailer's
    /// CRC-32 and length; its input's buffer is kept for the input to come.
    private func collectOldest() throws(GzipError) -> [UInt8] {
        let (compressing, input) = inFlight.removeFirst()
        let segment = try compressing.results()[0].get()
        spare.append(input.take())
        crc = UInt(crc32_combine(uLong(crc), uLong(segment.crc), off_t(segment.inputCount)))
        length += segment.inputCount
        return segment.bytes
    }
}
