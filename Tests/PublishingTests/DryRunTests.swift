import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

@Suite("Dry runs")
struct DryRunTests {
    @Test func dryRunOnANewOutputWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        let report = try SiteBuilder(config: try PipelineConfig.load(file: config)).build(dryRun: true)
        #expect(report.dryRun)
        #expect(report.bundles.map(\.status) == [.new, .new])
        #expect(report.manifestChanged)
        #expect(!FileManager.default.fileExists(atPath: dir.file("site")))
    }

    @Test func dryRunReportsChangesRemovalsAndRetentionWithoutWriting() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        let published = try build(config: config)
        let site = TemporaryDirectory(existing: dir.file("site"))
        let before = try site.snapshot()

        // Change the data of `front` and drop the `lists` bundle.
        try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"Demo 2\""))
        let withoutLists = String(SmallSite.config[..<(try #require(SmallSite.config.range(of: "  - id: lists"))).lowerBound])
        try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 0s}\nsnapshots: false\n" + withoutLists, data: try String(contentsOfFile: dir.file("data.ndjson"), encoding: .utf8))
        let report = try SiteBuilder(config: try PipelineConfig.load(file: config)).build(dryRun: true)
        #expect(report.bundles.map(\.status) == [.changed])
        #expect(report.removedBundles == ["lists"])
        #expect(report.manifestChanged)
        let old = published.bundles.flatMap { [$0.file, $0.file + ".gz"] }.sorted()
        #expect(report.retention == BuildReport.Retention(retained: [], deleted: old))
        #expect(try site.snapshot() == before)
    }

    @Test func dryRunNeedsNoLock() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try PipelineConfig.load(file: try SmallSite.write(into: dir))
        let report = try BuildLock.withLock(outputDirectory: dir.file("site")) { _ throws(BuildError) in
            try SiteBuilder(config: config).build(dryRun: true)
        }
        #expect(report.dryRun)
    }
}
