import FirestoreModel
import Testing
@testable import Publishing

@Suite("PathTable: document paths, each once, in one buffer")
struct PathTableTests {
    /// Paths come back as they went in, numbered in the order first added, across the table's
    /// growth; segments of 127, 128 and 20,000 bytes (one, two and three length bytes) round-trip.
    @Test func pathsComeBackNumberedInOrder() throws {
        var table = PathTable()
        var paths: [ResourcePath] = []
        for index in 0..<5_000 {
            paths.append(try ResourcePath(parsing: index % 2 == 0 ? "stories/s\(index)" : "stories/s\(index / 2)/comments/c\(index)"))
        }
        for long in [127, 128, 20_000] { paths.append(ResourcePath(segments: ["c", String(repeating: "x", count: long)])) }
        for (number, path) in paths.enumerated() {
            let added = table.insert(path)
            #expect(added.number == number && added.inserted, "\(path)")
        }
        #expect(table.count == paths.count)
        for (number, path) in paths.enumerated().reversed() {
            #expect(table[number] == path)
            let again = table.insert(path)
            #expect(again.number == number && !again.inserted)
        }
        #expect(table.count == paths.count)
    }

    /// IDs that are the same text in Unicode but different bytes (é precomposed and decomposed)
    /// are two documents, as the store and Firestore tell them apart; so are segments that
    /// concatenate alike ("ab" + "c" and "a" + "bc").
    @Test func pathsAreToldApartByteForByte() {
        var table = PathTable()
        let precomposed = ResourcePath(segments: ["c", "caf\u{E9}"])
        let decomposed = ResourcePath(segments: ["c", "cafe\u{301}"])
        #expect(table.insert(precomposed).inserted)
        #expect(table.insert(decomposed).inserted)
        #expect(Array(table[1].segments[1].utf8) == Array("cafe\u{301}".utf8))
        #expect(table.insert(ResourcePath(segments: ["ab", "c"])).inserted)
        #expect(table.insert(ResourcePath(segments: ["a", "bc"])).inserted)
        #expect(table.count == 4)
    }
}

extension PathTableTests {
    /// Among 300,000 paths some share a 32-bit hash (about ten, for any seed of the process's
    /// hasher): their bytes tell them apart.
    @Test func pathsWhoseHashesCollideAreToldApart() {
        var table = PathTable()
        let paths = (0..<300_000).map { ResourcePath(segments: ["c", "d\($0)"]) }
        for (number, path) in paths.enumerated() { #expect(table.insert(path) == (number, true)) }
        for (number, path) in paths.enumerated() where table.insert(path) != (number, false) {
            Issue.record("\(path) was found as \(table.insert(path))")
        }
        #expect(table.count == paths.count)
    }
}
