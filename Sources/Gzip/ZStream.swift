import CZlib

/// A heap-allocated `z_stream`: zlib keeps a pointer back to the stream it was initialised
/// with, so the struct must never move.
final class ZStream {
    let pointer: UnsafeMutablePointer<z_stream>
    private let end: (UnsafeMutablePointer<z_stream>) -> Int32

    /// Initialises a deflate stream (`windowBits` 31 = gzip, -15 = raw deflate).
    static func deflating(level: Int32, windowBits: Int32) throws(GzipError) -> ZStream {
        guard (0...9).contains(level) else { throw GzipError(message: "compression level \(level) is not in 0…9") }
        let stream = ZStream(end: deflateEnd)
        let status = deflateInit2_(stream.pointer, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GzipError(message: "deflateInit2 failed (\(status))") }
        return stream
    }

    /// Initialises an inflate stream (`windowBits` 31 = gzip, -15 = raw deflate).
    static func inflating(windowBits: Int32) throws(GzipError) -> ZStream {
        let stream = ZStream(end: inflateEnd)
        let status = inflateInit2_(stream.pointer, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GzipError(message: "inflateInit2 failed (\(status))") }
        return stream
    }

    private init(end: @escaping (UnsafeMutablePointer<z_stream>) -> Int32) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        self.end = end
    }

    deinit {
        _ = end(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Runs `step` (deflate or inflate) until it has consumed all of `input` and flushed its
    /// output or, when `untilEnd` (deflate with `Z_FINISH`), until the stream ends. Appends what
    /// it produces to `output` and returns the last status.
    func pump(
        _ input: UnsafeRawBufferPointer, into output: inout [UInt8], untilEnd: Bool,
        _ step: (UnsafeMutablePointer<z_stream>) -> Int32
    ) -> Int32 {
        pointer.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
        pointer.pointee.avail_in = UInt32(input.count)
        let chunk = max(16_384, input.count / 2)
        while true {
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: chunk))
            let status = output.withUnsafeMutableBufferPointer { buffer in
                pointer.pointee.next_out = buffer.baseAddress! + start
                pointer.pointee.avail_out = UInt32(chunk)
                return step(pointer)
            }
            let unused = Int(pointer.pointee.avail_out)
            output.removeLast(unused)
            if status == Z_STREAM_END || (status != Z_OK && status != Z_BUF_ERROR) { return status }
            if !untilEnd, unused != 0, pointer.pointee.avail_in == 0 { return status }
        }
    }
}
