import Crypto
import FirestoreModel
import Foundation
import Testing
@testable import Publishing

@Suite("State for returning clients")
struct SiteHistoryTests {
    static let history = SiteHistory(
        siteTime: timestamp("2024-01-03T00:00:00.000001Z"), manifestSHA256: String(repeating: "a", count: 64),
        bundles: [
            "front": BundleHistory(
                createTime: timestamp("2024-01-03T00:00:00.000001Z"), contentDigest: String(repeating: "b", count: 64),
                current: [path("c/a"): .existing(updateTime: timestamp("2024-01-01T00:00:00Z"), fingerprint: DocumentFingerprint(hex: "0123456789abcdef")!),
                          path("c/gone"): .missing(readTime: timestamp("2024-01-02T00:00:00Z"))],
                earlier: [path("c/a"): [EarlierVersion(kind: .existing(updateTime: timestamp("2023-12-01T00:00:00Z")), until: timestamp("2024-01-01T00:00:00Z")),
                                        EarlierVersion(kind: .existing(updateTime: nil), until: timestamp("2024-01-01T00:00:00Z"))],
                          path("c/gone"): [EarlierVersion(kind: .missing(readTime: timestamp("2023-06-01T00:00:00Z")), until: timestamp("2023-07-01T00:00:00Z"))]]),
        ])

    @Test func theStateFileRoundTripsByteForByte() throws {
        let bytes = Self.history.encoded()
        #expect(try SiteHistory.decode(bytes, file: "state") == Self.history)
        #expect(try SiteHistory.decode(bytes, file: "state").encoded() == bytes)
        #expect(bytes.last == UInt8(ascii: "\n"))
    }

    /// A bundle's documents are listed in key order however they were given (a state file edited
    /// by hand, say), a path given twice keeps its last version, and the state file lists them
    /// in that order.
    @Test func documentsAreListedInKeyOrder() throws {
        let early = ShippedVersion.existing(updateTime: timestamp("2024-01-01T00:00:00Z"), fingerprint: DocumentFingerprint(bits: 1))
        let late = ShippedVersion.missing(readTime: timestamp("2024-01-02T00:00:00Z"))
        let documents = ShippedDocuments([(path("c/b"), early), (path("c/a"), early), (path("c/__id10__"), early), (path("c/__id9__"), early), (path("c/b"), late)])
        #expect(documents.map(\.path) == [path("c/__id9__"), path("c/__id10__"), path("c/a"), path("c/b")])
        #expect(documents[path("c/b")] == late && documents[path("c/a")] == early && documents[path("c/z")] == nil)
        #expect(documents == ShippedDocuments(inKeyOrder: [(path("c/__id9__"), early), (path("c/__id10__"), early), (path("c/a"), early), (path("c/b"), late)]))
        #expect(documents != ShippedDocuments(inKeyOrder: [(path("c/a"), early), (path("c/b"), late)]))

        var history = Self.history
        history.bundles["front"]!.current = documents
        let text = String(decoding: history.encoded(), as: UTF8.self)
        let listed = ["c/__id9__", "c/__id10__", "c/a", "c/b"].map { text.range(of: "\"\($0)\":[")!.lowerBound }
        #expect(listed == listed.sorted())
        let shuffled = text.replacingOccurrences(of: "\"c/__id9__\"", with: "\"c/__id99__\"")
        #expect(try SiteHistory.decode(Array(shuffled.utf8), file: "state").bundles["front"]!.current.map(\.path)
            == [path("c/__id10__"), path("c/__id99__"), path("c/a"), path("c/b")])
    }

    @Test func anUnreadableStateSaysWhereAndWhat() throws {
        let text = String(decoding: Self.history.encoded(), as: UTF8.self)
        for (edited, fragment) in [
            (text.replacingOccurrences(of: "\"schema_version\":1", with: "\"schema_version\":2"), "schema_version 1"),
            (text.replacingOccurrences(of: "\"2024-01-02T00:00:00.000000000Z\"", with: "\"yesterday\""), "a read time"),
            (text.replacingOccurrences(of: "\"c/a\":[\"2024", with: "\"c\":[\"2024"), "a document path"),
            (String(text.dropLast(5)), "byte"),
            (text.replacingOccurrences(of: "0123456789abcdef", with: "0123456789ABCDEF"), "a fingerprint of 16 lowercase hex digits"),
            (text.replacingOccurrences(of: "0123456789abcdef", with: "0123456789abcde"), "a fingerprint of 16 lowercase hex digits"),
        ] {
            do {
                _ = try SiteHistory.decode(Array(edited.utf8), file: "state.json")
                Issue.record("accepted: \(fragment)")
            } catch {
                #expect(error.description.hasPrefix("state.json: byte "), "\(error)")
                #expect(error.description.contains(fragment), "\(error)")
            }
        }
    }

    /// A fingerprint is held as a number and written as the 16 hex digits of the SHA-256's first
    /// 8 bytes, as states and content digests have always said it.
    @Test func aFingerprintIsTheFirstEightBytesOfItsHash() throws {
        let fields = Array(#"{"n":{"integerValue":"1"}}"#.utf8)
        let createTime = timestamp("2024-01-01T00:00:00Z")
        let fingerprint = DocumentFingerprint.of(createTime: createTime, encodedFields: fields)
        let hashed = SHA256.hash(data: Array("\"\(createTime.rfc3339)\"".utf8) + fields).hex
        #expect(fingerprint.description == String(hashed.prefix(16)))
        #expect(DocumentFingerprint(hex: fingerprint.description) == fingerprint)
        #expect(DocumentFingerprint(bits: 0x0F).description == "000000000000000f")
        for bad in ["", "000000000000000", "0000000000000000f", "000000000000000F", "000000000000000g", "-00000000000000f"] {
            #expect(DocumentFingerprint(hex: bad) == nil, "\(bad)")
        }
    }

    /// A state file that cannot be read is not trusted: the previous state is then what the
    /// output publishes, and the build says so.
    @Test func aCorruptStateFallsBackToThePublishedSite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let first = try build(config: config)
        try dir.write("site/\(SiteHistory.fileName)", "{\"schema_version\":1,")
        let second = try build(config: config)
        #expect(second.previousState == dir.file("site") + "/bundles/manifest.json")
        #expect(second.warnings.count == 1 && second.warnings[0].contains(SiteHistory.fileName), "\(second.warnings)")
        #expect(second.bundles.map(\.file) == first.bundles.map(\.file))
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)
    }
}
