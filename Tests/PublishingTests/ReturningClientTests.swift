import BundleFormat
import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// Apps keep their cache across builds and run named queries over all of it: after loading any
/// earlier build and then the current one, they must see exactly what a new install sees
/// (docs/returning-clients.md). Each test edits the example site between builds and applies
/// the SDKs' load rules (``ClientCacheModel``) to every sequence of published bundles.
@Suite("Returning clients")
struct ReturningClientTests {
    static let later = "2026-11-02T00:00:00Z"

    @Test func aDeletedStoryIsDeletedFromTheirCache() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let newest = try #require(try site.publishedStories().first)
        try site.delete(newest)
        let report = try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
        // The newest updateTime may have left with the story: the time still moves on.
        #expect(report.bundles.filter { $0.status == .changed }.allSatisfy { $0.createTime > report.snapshotTime || $0.createTime == report.siteTime })
        let front = try #require(site.builds[1]["front-page"])
        let marker = try #require(front.documents.first { $0.metadata.name.path.description == newest })
        #expect(marker.document == nil && marker.metadata.queries == [])
        #expect(front.metadata.createTime > site.builds[0]["front-page"]!.metadata.createTime)
        #expect(report.bundles.first { $0.id == "front-page" }?.missing == 1)
    }

    @Test func anUnpublishedStoryShipsAsALeaver() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let story = try #require(try site.publishedStories().first)
        try site.edit(story, replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: Self.later)
        let report = try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
        let leaver = try #require(site.builds[1]["front-page"]?.documents.first { $0.metadata.name.path.description == story })
        #expect(leaver.metadata.queries == [] && leaver.document?.fields["published"] == .boolean(false))
        #expect(report.bundles.first { $0.id == "front-page" }?.leavers == 1)
    }

    @Test func aStoryMovesBetweenFanOutBundles() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let line = try #require(try site.lines("stories.ndjson").first { $0.contains("\"category\":{\"stringValue\":\"tech\"}") && $0.contains("\"published\":{\"booleanValue\":true}") })
        try site.edit(ExampleSite.path(of: line), replacing: "\"category\":{\"stringValue\":\"tech\"}", with: "\"category\":{\"stringValue\":\"sport\"}", updateTime: Self.later)
        try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
    }

    @Test func aConfigOnlyChangeGetsANewerTime() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        let first = try site.build()
        try site.editConfig(replacing: "          - [publishedAt, desc]\n        limit: 20", with: "          - [publishedAt, desc]\n        limit: 5")
        let second = try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
        // Same data, so the same snapshot time: the changed bundle takes the next microsecond.
        #expect(second.snapshotTime == first.snapshotTime)
        let front = try #require(second.bundles.first { $0.id == "front-page" })
        #expect(front.status == .changed)
        #expect(front.createTime == (try Timestamp(rfc3339: first.siteTime)).nextMicrosecond.rfc3339)
        #expect(second.bundles.filter { $0.id != "front-page" }.allSatisfy { $0.status == .unchanged })
    }

    @Test func contentChangedWithoutANewerUpdateTimeGetsOne() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let story = try #require(try site.publishedStories().first)
        try site.edit(story, replacing: "\"title\":{\"stringValue\":\"", with: "\"title\":{\"stringValue\":\"Edited: ", updateTime: nil)
        let report = try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
        let shipped = try #require(site.builds[1]["front-page"]?.documents.first { $0.metadata.name.path.description == story }?.document)
        #expect(shipped.updateTime?.rfc3339 == report.siteTime)
    }

    @Test func clientsThatSkippedBuildsCatchUp() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let stories = try site.publishedStories()
        try site.edit(stories[0], replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: Self.later)
        try site.build()
        try site.delete(stories[1])
        try site.editConfig(replacing: "limit: 6", with: "limit: 3")
        try site.build()
        try site.edit(stories[0], replacing: "\"published\":{\"booleanValue\":false}", with: "\"published\":{\"booleanValue\":true}", updateTime: "2026-11-03T00:00:00Z")
        try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee(least: 52)
    }

    @Test func anUnchangedRebuildKeepsBytesTimesAndState() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        let first = try site.build()
        let state = try #require(FileManager.default.contents(atPath: site.directory.file("site/\(SiteHistory.fileName)")))
        let second = try site.build()
        #expect(second.bundles.map(\.file) == first.bundles.map(\.file))
        #expect(second.bundles.allSatisfy { $0.status == .unchanged } && !second.manifestChanged)
        #expect(second.siteTime == first.siteTime)
        #expect(FileManager.default.contents(atPath: site.directory.file("site/\(SiteHistory.fileName)")) == state)
    }

    @Test func aFreshCheckoutTakesThePreviousStateFromADirectory() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let newest = try #require(try site.publishedStories().first)
        try site.delete(newest)
        let report = try site.build(output: "fresh", previous: .directory(site.directory.file("site")))
        #expect(report.previousState == site.directory.file("site/\(SiteHistory.fileName)"))
        #expect(report.warnings == [])
        site.expectReturningClientsSeeWhatFreshClientsSee()
    }

    /// Without its state file, a site's previous state is what it publishes: the same bundles
    /// come out as with the state, for a build that follows the published one, and an
    /// unchanged rebuild changes nothing (bundles whose documents are results of several
    /// queries included).
    @Test func withoutTheStateFileThePublishedSiteIsThePreviousState() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        try FileManager.default.copyItem(atPath: site.directory.file("site"), toPath: site.directory.file("unchanged"))
        try FileManager.default.removeItem(atPath: site.directory.file("unchanged/\(SiteHistory.fileName)"))
        let unchanged = try site.build(output: "unchanged")
        #expect(unchanged.bundles.filter { $0.status != .unchanged }.map(\.id) == [])
        #expect(!unchanged.manifestChanged)
        try FileManager.default.copyItem(atPath: site.directory.file("site"), toPath: site.directory.file("stateless"))
        try FileManager.default.removeItem(atPath: site.directory.file("stateless/\(SiteHistory.fileName)"))
        try site.delete(try #require(try site.publishedStories().first))
        let withState = try site.build()
        let derived = try site.build(output: "stateless")
        #expect(derived.previousState == site.directory.file("stateless") + "/bundles/manifest.json")
        #expect(derived.bundles.map(\.file) == withState.bundles.map(\.file))
        site.expectReturningClientsSeeWhatFreshClientsSee()
    }

    /// With nothing known of earlier publishes, bundles are dated by the wall clock (later than
    /// anything published before), and the build says which setting fixes it.
    @Test func unknownEarlierPublishesDateBundlesByTheWallClock() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        let before = Timestamp(secondsSinceEpoch: Date().timeIntervalSince1970)
        let report = try site.build(previous: .some(nil))
        #expect(report.previousState == "unknown")
        #expect(report.bundles.allSatisfy { (try? Timestamp(rfc3339: $0.createTime)).map { $0 >= before } ?? false })
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.contains("Set previous: (or --previous) to the deployed site's URL") == true)
        try SiteVerifier(siteDirectory: site.directory.file("site")).verify().problems.forEach { Issue.record("\($0)") }
    }

    /// Leavers are carried for `leavers.keep` of snapshot time, then dropped.
    @Test func leaversAreCarriedForTheHorizon() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.editConfig(replacing: "leavers: {keep: 30d}", with: "leavers: {keep: 2d}")
        try site.build()
        let story = try #require(try site.publishedStories().first)
        try site.edit(story, replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: Self.later)
        #expect(try site.build().bundles.first { $0.id == "front-page" }?.leavers == 1)
        // The first build is dated 2026-10-31T23:23:09Z (the example's newest updateTime): the
        // version clients got from it stays within two days until 2026-11-02T23:23:09Z.
        try site.editConfig(replacing: "previous: none", with: "previous: none\nsnapshot_time: 2026-11-02T23:00:00Z")
        #expect(try site.build().bundles.first { $0.id == "front-page" }?.leavers == 1)
        try site.editConfig(replacing: "snapshot_time: 2026-11-02T23:00:00Z", with: "snapshot_time: 2026-11-02T23:30:00Z")
        let expired = try site.build()
        #expect(expired.bundles.first { $0.id == "front-page" }?.leavers == 0)
    }

    /// The benchmark site (an export of `bench/gen_export.py`): a deletion, an unpublished story
    /// and a config change, every sequence checked. CI runs it on 2,000 documents (`.ci/run`);
    /// on the benchmark's 100,000 it takes minutes:
    /// `BUNDLEPRESS_BENCH_EXPORT=/tmp/bundlepress-bench/export-100000.ndjson swift test --filter theBenchmarkSite`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUNDLEPRESS_BENCH_EXPORT"] != nil, "set BUNDLEPRESS_BENCH_EXPORT to an export of gen_export.py"))
    func theBenchmarkSite() throws {
        var site = try ExampleSite(benchmarkExport: ProcessInfo.processInfo.environment["BUNDLEPRESS_BENCH_EXPORT"]!)
        defer { site.remove() }
        try site.build()
        let stories = try site.publishedStories()
        try site.delete(stories[0])
        // After the export's newest update (2025-01-29T19:02:56Z for 100,000 documents, earlier
        // for fewer; gen_export.py's end is 2025-01-31) and within leavers' 30 days: a time years later
        // would move the snapshot time past the first build's horizon, and rightly drop its leavers.
        try site.edit(stories[1], replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: "2025-01-29T20:00:00Z")
        try site.build()
        try site.editConfig(replacing: "limit: 50", with: "limit: 20")
        let last = try site.build()
        #expect(last.bundles.first { $0.id == "all" }?.missing == 1)
        site.expectReturningClientsSeeWhatFreshClientsSee(least: 3 * 4)
    }

    /// Issue 33's measurement: the 5 newest stories deleted and the 25th unpublished. An app that
    /// opened the sections page at build 1 and the home page at build 2 held the unpublished
    /// story from `sections` (a bundle `front-page` never shipped it in): the ledger makes
    /// `front-page` carry it as a leaver, and only what can change a result.
    @Test func documentsCachedFromAnotherBundleAreMadeCurrent() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build()
        let stories = try site.publishedStories()
        for story in stories.prefix(5) { try site.delete(story) }
        try site.edit(stories[24], replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: Self.later)
        try site.build()
        site.expectReturningClientsSeeWhatFreshClientsSee()
        let front = try #require(site.builds[1]["front-page"])
        let leaver = try #require(front.documents.first { $0.metadata.name.path.description == stories[24] })
        #expect(leaver.metadata.queries == [] && leaver.document?.fields["published"] == .boolean(false))
        #expect(site.builds[0]["front-page"]?.documents.contains { $0.metadata.name.path.description == stories[24] } == false)
        // Community's queries read no story: it gets none of them.
        #expect(site.builds[1]["community"]?.documents.contains { $0.metadata.name.path.count == 2 && $0.metadata.name.path.description.hasPrefix("stories/") } == false)
    }

    /// Generated edit histories of the example site: over four builds, each edits stories at
    /// random (deletes, unpublishes, republishes, moves between categories, rescores, retitles
    /// without a newer updateTime) and sometimes the config (a limit); every set of earlier
    /// bundles a client may hold is checked after each build.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func generatedHistories(seed: UInt64) throws {
        var site = try ExampleSite("generatedHistories-\(seed)")
        defer { site.remove() }
        var random = SplitMix(seed: seed)
        try site.build()
        let categories = ["tech", "science", "world", "culture", "sport"]
        for round in 1...3 {
            var lines = try site.lines(site.storiesFile)
            let stories = lines.indices.filter { lines[$0].contains("/documents/stories/") && !lines[$0].contains("/comments/") }
            var deleted = Set<Int>()
            for _ in 0..<(2 + Int(random.next() % 5)) {
                let index = stories[Int(random.next() % UInt64(stories.count))]
                let time = "\"updateTime\":\"2026-11-0\(round + 1)T0\(random.next() % 10):00:00Z\""
                let line = lines[index]
                let stamped = { (text: String) -> String in
                    text.replacing(#/"updateTime":"[^"]*"/#, with: time)
                }
                switch random.next() % 6 {
                case 0: deleted.insert(index)
                case 1: lines[index] = stamped(line.replacingOccurrences(of: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}"))
                case 2: lines[index] = stamped(line.replacingOccurrences(of: "\"published\":{\"booleanValue\":false}", with: "\"published\":{\"booleanValue\":true}"))
                case 3:
                    let category = categories[Int(random.next() % UInt64(categories.count))]
                    lines[index] = stamped(line.replacing(#/"category":\{"stringValue":"[a-z]*"\}/#, with: "\"category\":{\"stringValue\":\"\(category)\"}"))
                case 4: lines[index] = stamped(line.replacing(#/"score":\{"integerValue":"[0-9]*"\}/#, with: "\"score\":{\"integerValue\":\"\(random.next() % 1000)\"}"))
                default: lines[index] = line.replacingOccurrences(of: "\"title\":{\"stringValue\":\"", with: "\"title\":{\"stringValue\":\"Edited \(round): ")
                }
            }
            try site.write(site.storiesFile, lines: lines.indices.filter { !deleted.contains($0) }.map { lines[$0] })
            if random.next() % 3 == 0 {
                let limit = [3, 10, 20, 40][Int(random.next() % 4)]
                let text = try String(contentsOfFile: site.directory.file("pipeline.yml"), encoding: .utf8)
                try site.directory.write("pipeline.yml", text.replacing(#/- \[publishedAt, desc\]\n        limit: [0-9]+/#, with: "- [publishedAt, desc]\n        limit: \(limit)"))
            }
            try site.build()
            let (compared, mismatches) = site.crossBundleMismatches()
            #expect(compared > 0)
            #expect(mismatches == [], "seed \(seed), build \(round)")
        }
    }

    /// What builds did before: every build dated by its data, no leavers. A returning client
    /// then sees deleted and unpublished stories, which is what the checks above would catch.
    @Test func theModelCatchesWhatStatelessBuildsGetWrong() throws {
        var site = try ExampleSite()
        defer { site.remove() }
        try site.build(output: "one", previous: .some(PreviousSite.none))
        let stories = try site.publishedStories()
        try site.delete(stories[0])
        try site.edit(stories[1], replacing: "\"published\":{\"booleanValue\":true}", with: "\"published\":{\"booleanValue\":false}", updateTime: Self.later)
        try site.build(output: "two", previous: .some(PreviousSite.none))
        let (compared, mismatches) = site.returningClientMismatches()
        #expect(compared == 13)
        #expect(mismatches.contains("front-page / latest-stories / after [0:front-page]"))
    }
}

/// A small seeded generator (SplitMix64), so that a failing history can be run again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
