import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The content-hashed files in `site/bundles`.
private func hashedFiles(_ dir: TemporaryDirectory) throws -> Set<String> {
    Set(try FileManager.default.contentsOfDirectory(atPath: dir.file("site/bundles")).filter(RetentionSweep.isContentHashed))
}

/// Rewrites the site title in SmallSite's data (only the `front` bundle changes) and builds.
private func buildWithTitle(_ title: String, _ dir: TemporaryDirectory, config: String) throws -> BuildReport {
    try dir.write("data.ndjson", SmallSite.data.replacingOccurrences(of: "\"Demo\"", with: "\"\(title)\""))
    return try build(config: config)
}

/// Both files of a bundle, as the manifest and retention name them.
private func pair(_ file: String) -> [String] { [file, file + ".gz"] }

@Suite("Retention of old bundle files")
struct RetentionTests {
    @Test func oldFilesOutliveTheConfiguredBuildsThenGo() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 1, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        let first = try build(config: config)
        let second = try buildWithTitle("Demo 2", dir, config: config)
        #expect(second.retention == BuildReport.Retention(retained: pair(first.bundles[0].file), deleted: []))

        let third = try buildWithTitle("Demo 3", dir, config: config)
        #expect(third.retention == BuildReport.Retention(retained: pair(second.bundles[0].file), deleted: pair(first.bundles[0].file)))
        #expect(try hashedFiles(dir) == Set(pair(second.bundles[0].file) + pair(third.bundles[0].file) + pair(third.bundles[1].file)))
        #expect(SiteVerifier(siteDirectory: dir.file("site")).verify().isValid)

        // Back to "Demo 2": clients hold "Demo 3" now, so the bundle takes a later createTime, hence
        // a new file; "Demo 3" retires and "Demo 2"'s old file goes.
        let fourth = try buildWithTitle("Demo 2", dir, config: config)
        #expect(fourth.bundles[0].file != second.bundles[0].file)
        #expect(fourth.bundles[0].createTime > third.bundles[0].createTime)
        #expect(fourth.bundles.map(\.status) == [.changed, .unchanged])
        #expect(fourth.retention == BuildReport.Retention(retained: pair(third.bundles[0].file), deleted: pair(second.bundles[0].file)))
    }

    @Test func minAgeKeepsFilesHoweverManyBuildsPass() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 1h}\nsnapshots: false\n" + SmallSite.config)
        var files = [try build(config: config).bundles[0].file]
        for title in ["Demo 2", "Demo 3", "Demo 4"] {
            files.append(try buildWithTitle(title, dir, config: config).bundles[0].file)
        }
        let last = try build(config: config)
        #expect(last.retention.deleted == [])
        #expect(last.retention.retained == files.dropLast().flatMap(pair).sorted())
    }

    @Test func unchangedRebuildChangesNoFileOfTheOutput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir)
        _ = try build(config: config)
        _ = try buildWithTitle("Demo 2", dir, config: config)  // so that a retired file and a ledger entry exist
        let site = TemporaryDirectory(existing: dir.file("site"))
        let before = try site.snapshot()
        #expect(before.keys.contains(RetentionLedger.fileName))
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for name in before.keys {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: site.file(name))
        }
        // The times just set make the published site differ from the last build's record, so this
        // is a full build (not an up-to-date one) that finds nothing changed. It writes only the
        // lock and its record (which holds the report's timings).
        let report = try build(config: config)
        #expect(!report.upToDate && !report.manifestChanged)
        #expect(report.retention.retained.count == 6)  // the old front and its gzip copy, and the 4 snapshots of the old site time
        #expect(try site.snapshot().filter { $0.key != BuildRecord.fileName } == before.filter { $0.key != BuildRecord.fileName })
        for name in before.keys where name != BuildLock.fileName && name != BuildRecord.fileName {
            #expect(try FileManager.default.attributesOfItem(atPath: site.file(name))[.modificationDate] as? Date == old, "\(name) was rewritten")
        }
    }

    @Test func onlyContentHashedBundleFilesAreEverDeleted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        let keep = ["notes.txt", "front.bundle", "front.0123456789ABCDEF.bundle", "index.html"]
        for name in keep { try dir.write("site/bundles/\(name)", "keep") }
        let first = try build(config: config)
        let second = try buildWithTitle("Demo 2", dir, config: config)
        // builds: 0 and min_age: 0s let the old front go at once.
        #expect(second.retention == BuildReport.Retention(retained: [], deleted: pair(first.bundles[0].file)))
        for name in keep { #expect(FileManager.default.fileExists(atPath: dir.file("site/bundles/\(name)")), "\(name) was deleted") }
    }

    @Test func filesBundlePressDidNotWriteAreNeverDeleted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        // Named as BundlePress names its bundles, but another tool's.
        let foreign = ["old.0123456789abcdef.bundle", "old.0123456789abcdef.bundle.gz"]
        for name in foreign { try dir.write("site/bundles/\(name)", "another tool's") }
        let first = try build(config: config)
        let second = try buildWithTitle("Demo 2", dir, config: config)
        #expect(first.retention == BuildReport.Retention(retained: [], deleted: []))
        #expect(second.retention == BuildReport.Retention(retained: [], deleted: pair(first.bundles[0].file)))
        for name in foreign { #expect(try String(contentsOfFile: dir.file("site/bundles/\(name)"), encoding: .utf8) == "another tool's") }
    }

    @Test func ledgerWithoutOwnedFilesInfersThemFromThePublishedSite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 0, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        let first = try build(config: config)
        // As an older BundlePress left it: no owned_files.
        let ledgerPath = dir.file("site/\(RetentionLedger.fileName)")
        var ledger = try JSONDecoder().decode(RetentionLedger.self, from: Data(contentsOf: URL(fileURLWithPath: ledgerPath)))
        #expect(ledger.owned?.contains("bundles/\(first.bundles[0].file)") == true)
        ledger.owned = nil
        let old = String(decoding: ledger.encoded(), as: UTF8.self)
        #expect(!old.contains("owned_files"))
        try dir.write("site/\(RetentionLedger.fileName)", old)
        let second = try buildWithTitle("Demo 2", dir, config: config)
        #expect(second.retention == BuildReport.Retention(retained: [], deleted: pair(first.bundles[0].file)))
        let rewritten = try JSONDecoder().decode(RetentionLedger.self, from: Data(contentsOf: URL(fileURLWithPath: ledgerPath)))
        #expect(rewritten.owned?.contains("bundles/\(second.bundles[0].file)") == true)
        #expect(rewritten.owned?.contains("bundles/\(first.bundles[0].file)") == false)
    }

    @Test func lostOrUnreadableStateKeepsOldFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try SmallSite.write(into: dir, config: "retention: {builds: 1, min_age: 0s}\nsnapshots: false\n" + SmallSite.config)
        let first = try build(config: config)
        _ = try buildWithTitle("Demo 2", dir, config: config)
        try dir.write("site/\(RetentionLedger.fileName)", "{not json")
        let third = try buildWithTitle("Demo 3", dir, config: config)
        // With no record, the two old fronts count as retired now: kept for the full policy.
        #expect(third.retention.deleted == [])
        #expect(third.retention.retained.contains(first.bundles[0].file))
        #expect(third.warnings.count == 1)
        #expect(third.warnings.first?.contains("\(RetentionLedger.fileName) is not readable") == true)
        #expect(third.warnings.first?.contains("retention starts afresh") == true)
    }

    @Test func ledgerCountsPublishedManifestsAndNeverRetiresReferencedFiles() {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let first = RetentionLedger().advanced(manifestSHA256: "m1", referenced: ["a"], present: ["a"], now: now)
        #expect(first.generation == 1)
        #expect(first.retired.isEmpty)
        let second = first.advanced(manifestSHA256: "m2", referenced: ["b"], present: ["a", "b"], now: now)
        #expect(second.generation == 2)
        #expect(second.retired == ["a": .init(lastGeneration: 1, since: "2033-05-18T03:33:20Z")])
        // The same manifest again changes nothing.
        #expect(second.advanced(manifestSHA256: "m2", referenced: ["b"], present: ["a", "b"], now: now.addingTimeInterval(60)) == second)
        // A file referenced again, or gone from the directory, is no longer retired.
        #expect(second.advanced(manifestSHA256: "m3", referenced: ["a", "b"], present: ["a", "b"], now: now).retired.isEmpty)
        #expect(second.advanced(manifestSHA256: "m3", referenced: ["b"], present: ["b"], now: now).retired.isEmpty)
    }

    @Test func expiryNeedsBothTheBuildsAndTheAge() {
        let formatter = ISO8601DateFormatter()
        let start = Date(timeIntervalSince1970: 2_000_000_000)
        var ledger = RetentionLedger()
        ledger.generation = 5
        ledger.retired = [
            "recent-build": .init(lastGeneration: 4, since: formatter.string(from: start)),
            "old-enough": .init(lastGeneration: 2, since: formatter.string(from: start)),
            "too-young": .init(lastGeneration: 2, since: formatter.string(from: start.addingTimeInterval(3_000))),
        ]
        let policy = RetentionPolicy(builds: 2, minAge: 3_600)
        #expect(ledger.expired(under: policy, now: start.addingTimeInterval(3_600)) == ["old-enough"])
        #expect(ledger.expired(under: policy, now: start.addingTimeInterval(3_599)) == [])
        #expect(ledger.expired(under: RetentionPolicy(builds: 0, minAge: 0), now: start) == ["old-enough", "recent-build"])
        #expect(ledger.expired(under: RetentionPolicy(builds: 0, minAge: 0), now: start.addingTimeInterval(3_000)) == ["old-enough", "recent-build", "too-young"])
    }

    @Test(arguments: [
        ("a.0123456789abcdef.bundle", true), ("a.0123456789abcdef.bundle.gz", true), ("x.y.0123456789abcdef.bundle", true),
        (".0123456789abcdef.bundle", false), ("a.0123456789ABCDEF.bundle", false), ("a.0123456789abcde.bundle", false),
        ("a.bundle", false), ("manifest.json", false), ("a.0123456789abcdef.bundle.tmp", false),
    ])
    func contentHashedNames(_ name: String, _ expected: Bool) {
        #expect(RetentionSweep.isContentHashed(name) == expected)
    }
}
