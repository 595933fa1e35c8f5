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
                current: [path("c/a"): .existing(updateTime: timestamp("2024-01-01T00:00:00Z"), fingerprint: "0123456789abcdef"),
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

    @Test func anUnreadableStateSaysWhereAndWhat() throws {
        let text = String(decoding: Self.history.encoded(), as: UTF8.self)
        for (edited, fragment) in [
            (text.replacingOccurrences(of: "\"schema_version\":1", with: "\"schema_version\":2"), "schema_version 1"),
            (text.replacingOccurrences(of: "\"2024-01-02T00:00:00.000000000Z\"", with: "\"yesterday\""), "a read time"),
            (text.replacingOccurrences(of: "\"c/a\":[\"2024", with: "\"c\":[\"2024"), "a document path"),
            (String(text.dropLast(5)), "byte"),
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
