import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing
import SystemSupport

/// Every file of the output with its stamp, but the lock (which each build takes).
private func stamps(_ dir: TemporaryDirectory) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    let site = dir.file("site")
    for relative in FileManager.default.enumerator(atPath: site)?.compactMap({ $0 as? String }) ?? [] where relative != ".bundlepress.lock" {
        stamps[relative] = FileStamp(path: (site as NSString).appendingPathComponent(relative))
    }
    return stamps
}

/// A cron run with nothing changed since the last build: it builds nothing, writes nothing, and
/// is never wrong about "nothing changed".
@Suite("Up-to-date builds")
struct UpToDateTests {
    @Test func aSecondBuildWithNothingChangedWritesNothingAndAnswersWithTheLastReport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let first = try build(config: config)
        #expect(!first.upToDate)
        let before = stamps(dir)
        let second = try build(config: config)
        #expect(second.upToDate)
        #expect(stamps(dir) == before)
        #expect(second.bundles.map(\.file) == first.bundles.map(\.file))
        #expect(second.bundles.map(\.status) == [.unchanged, .unchanged])
        #expect(!second.manifestChanged)
        #expect(second.inputDocuments == first.inputDocuments)
        // A dry run and a forced build still build.
        let loaded = try PipelineConfig.load(file: config)
        #expect(!(try SiteBuilder(config: loaded).build(dryRun: true).upToDate))
        #expect(!(try SiteBuilder(config: loaded).build(evenIfUpToDate: true).upToDate))
        #expect(try build(config: config).upToDate)
    }

    @Test func anInputRewrittenWithTheSameSizeAndTimesIsSeenByItsContent() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        let data = dir.file("data.ndjson")
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: data)[.modificationDate] as? Date)
        // Same bytes again, then different bytes of the same length, each time with the old mtime.
        try dir.write("data.ndjson", SmallSite.data)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: data)
        #expect(try build(config: config).upToDate)
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Omed\""))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: data)
        let rebuilt = try build(config: config)
        #expect(!rebuilt.upToDate)
        #expect(rebuilt.bundles.map(\.status) == [.changed, .unchanged])
    }

    @Test func theConfigTheCommandLineAndANewInputFileEachCount() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: SmallSite.config.replacingOccurrences(of: "inputs: [data.ndjson]", with: "inputs: ['*.ndjson']"))
        _ = try build(config: config)
        #expect(try build(config: config).upToDate)
        // The config's text (a comment too: the fingerprint does not guess what matters).
        try dir.write("pipeline.yml", try String(contentsOfFile: config, encoding: .utf8) + "# a comment\n")
        #expect(!(try build(config: config).upToDate))
        #expect(try build(config: config).upToDate)
        // An override on the command line.
        var loaded = try PipelineConfig.load(file: config)
        loaded.snapshotTime = try Timestamp(rfc3339: "2024-02-01T00:00:00Z")
        #expect(!(try SiteBuilder(config: loaded).build().upToDate))
        // A new file the inputs' pattern matches.
        try dir.write("more.ndjson", NDJSON.file(NDJSON.document("c/d", NDJSON.fields(["n": NDJSON.int(4), "tag": NDJSON.string("x")]))))
        let grown = try build(config: config)
        #expect(!grown.upToDate && grown.inputDocuments == 5)
    }

    @Test func aPublishedFileTouchedOrLostMakesItBuild() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let first = try build(config: config)
        let bundle = dir.file("site/bundles/\(first.bundles[0].file)")
        try FileManager.default.removeItem(atPath: bundle)
        let repaired = try build(config: config)
        #expect(!repaired.upToDate)
        #expect(FileManager.default.fileExists(atPath: bundle))
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)
        #expect(try build(config: config).upToDate)
        // A header file or the loader deleted is put back without building.
        try FileManager.default.removeItem(atPath: dir.file("site/_headers"))
        try FileManager.default.removeItem(atPath: dir.file("site/bundles/bundlepress.js"))
        #expect(try build(config: config).upToDate)
        #expect(FileManager.default.fileExists(atPath: dir.file("site/_headers")))
        #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/bundlepress.js")))
    }

    /// An up-to-date build says again what the data and config say (here the exposure guard),
    /// not what the last run said about itself (the previous state it started without).
    @Test func warningsAreTheDatasNotTheLastRuns() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(
            into: dir, config: SmallSite.config.replacingOccurrences(of: "previous: none\n", with: ""),
            data: SmallSite.data + NDJSON.file(NDJSON.document("c/e", NDJSON.fields(["n": NDJSON.int(5), "email": NDJSON.string("ada@example.com")]))))
        let first = try build(config: config)
        #expect(first.warnings.contains { $0.contains("holds no previous state") })
        let again = try build(config: config)
        #expect(again.upToDate)
        #expect(!again.warnings.contains { $0.contains("holds no previous state") })
        #expect(again.warnings == first.exposure.map(\.description) && !again.warnings.isEmpty)
    }

    @Test func retentionStillRunsWhenNothingChanged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 1s}\nsnapshots: false\n" + SmallSite.config)
        let first = try build(config: config)
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
        let second = try build(config: config)
        let old = [first.bundles[0].file, first.bundles[0].file + ".gz"]
        #expect(second.retention.retained == old)
        Thread.sleep(forTimeInterval: 1.2)
        let third = try build(config: config)
        #expect(third.upToDate)
        #expect(third.retention.deleted == old)
        #expect(!FileManager.default.fileExists(atPath: dir.file("site/bundles/\(old[0])")))
    }
}
