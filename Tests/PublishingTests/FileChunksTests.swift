import Foundation
import Testing
@testable import Publishing

@Suite("Files read a chunk at a time")
struct FileChunksTests {
    /// Files compare equal exactly when their bytes are, whatever the chunk boundaries: a last
    /// byte changed, one file a prefix of the other and a file missing all compare unequal.
    @Test func filesAreTheSameOnlyByteForByte() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        func write(_ name: String, _ content: [UInt8]) throws -> String {
            try Data(content).write(to: URL(fileURLWithPath: directory.file(name)))
            return directory.file(name)
        }
        let original = try write("a", bytes)
        let same = try write("b", bytes)
        let lastChanged = try write("c", bytes.dropLast() + [bytes.last! &+ 1])
        let prefix = try write("d", Array(bytes.prefix(8_192)))
        let empty = try write("e", [])
        for chunkSize in [1, 4_096, 1 << 20] {
            #expect(FileChunks.sameContent(original, same, chunkSize: chunkSize))
            #expect(!FileChunks.sameContent(original, lastChanged, chunkSize: chunkSize))
            #expect(!FileChunks.sameContent(original, prefix, chunkSize: chunkSize) && !FileChunks.sameContent(prefix, original, chunkSize: chunkSize))
            #expect(FileChunks.sameContent(empty, empty, chunkSize: chunkSize) && !FileChunks.sameContent(empty, original, chunkSize: chunkSize))
            #expect(!FileChunks.sameContent(original, directory.file("missing"), chunkSize: chunkSize))
        }
        // A range reads its bytes only, and stops where the file does.
        var read: [UInt8] = []
        try FileChunks.forEach(ofFile: original, in: 9_000..<20_000, chunkSize: 300) { read += $0 }
        #expect(read == Array(bytes[9_000...]))
    }

    /// An input's digest is by 16 MiB pieces: it changes with a byte in any piece, with the size,
    /// and is the same for the same bytes; what is not a regular file is read to its end.
    @Test func inputDigestsSeeEveryPiece() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var bytes = [UInt8](repeating: 7, count: (16 << 20) + 5)
        let file = directory.file("input")
        func digest() throws -> String? {
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return FileDigest.contentDigest(of: file)
        }
        let first = try #require(try digest())
        #expect(try digest() == first)
        bytes[(16 << 20) + 2] = 8
        let changedInSecondPiece = try digest()
        bytes[(16 << 20) + 2] = 7
        bytes[3] = 8
        let changedInFirstPiece = try digest()
        bytes.removeLast()
        let shorter = try digest()
        #expect(Set([first, changedInSecondPiece, changedInFirstPiece, shorter].compactMap { $0 }).count == 4)
        #expect(FileDigest.contentDigest(of: directory.file("missing")) == nil)
        #expect(FileDigest.contentDigest(of: "/dev/null")?.hasPrefix("stream ") == true)
    }
}

@Suite("Files written for the site")
struct OutputFileTests {
    /// A file larger than the writeback step, appended in pieces that straddle the step, holds
    /// every byte in order once finished, and counts them.
    @Test func aLargeFileKeepsEveryByteWhileItsPagesGoToDisk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pieceSize = (3 << 20) + 1
        let pieces = 2 * OutputFile.writebackStep / pieceSize + 2
        let file = try OutputFile(creating: directory.file("large.bundle"))
        for index in 0..<pieces { try file.append([UInt8](repeating: UInt8(index + 1), count: pieceSize)) }
        try file.finish()
        #expect(file.byteCount == pieces * pieceSize)
        let written = try Data(contentsOf: URL(fileURLWithPath: directory.file("large.bundle")))
        #expect(written.count == file.byteCount)
        for index in 0..<pieces {
            let range = (index * pieceSize)..<((index + 1) * pieceSize)
            #expect(written.subdata(in: range) == Data(repeating: UInt8(index + 1), count: pieceSize), "piece \(index)")
        }
    }
}
