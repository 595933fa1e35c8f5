import ParallelWork
import Testing

@Suite("HandedBuffer")
struct HandedBufferTests {
    /// Where the buffer's storage is.
    private static func address(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }

    /// A buffer handed to another thread and back is the same memory each time: taken empty with
    /// its capacity, written into without a new allocation, the box left empty meanwhile.
    @Test func theSameStorageGoesRoundAndRound() {
        let handed = HandedBuffer()
        handed.bytes.reserveCapacity(1 << 20)
        handed.bytes += [1, 2, 3]
        let storage = Self.address(handed.bytes)
        for round in 0..<3 {
            let writes = BackgroundMap(count: 1) { _ in
                var bytes = handed.take()
                let taken = (empty: bytes.isEmpty, capacity: bytes.capacity, address: Self.address(bytes))
                bytes += [UInt8](repeating: UInt8(round), count: 100_000)
                let written = Self.address(bytes)
                handed.bytes = bytes
                return taken.empty && taken.capacity >= 1 << 20 && taken.address == storage && written == storage
            }
            #expect(writes.results() == [true], "round \(round)")
        }
        #expect(handed.bytes == [UInt8](repeating: 2, count: 100_000))
        _ = handed.take()
        #expect(handed.bytes.isEmpty)
    }
}
