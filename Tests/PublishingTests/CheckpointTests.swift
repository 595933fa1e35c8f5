import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// What `bundles/` holds at a checkpoint: published names (staging excluded), the manifest's
/// text, and what the staging directory holds.
private struct DirectoryState: Equatable {
    var published: [String]
    var manifest: String
    var staged: [String]
}

extension DirectoryState {
    init(_ bundles: String) throws {
        let entries = try FileManager.default.contentsOfDirectory(atPath: bundles).sorted()
        published = entries.filter { !$0.hasPrefix(SitePublisher.stagingPrefix) }
        manifest = try String(contentsOfFile: (bundles as NSString).appendingPathComponent("manifest.json"), encoding: .utf8)
        staged = try entries.filter { $0.hasPrefix(SitePublisher.stagingPrefix) }.flatMap { staging in
            try FileManager.default.contentsOfDirectory(atPath: (bundles as NSString).appendingPathComponent(staging)).sorted()
        }
    }
}

@Suite("Publish checkpoints")
struct CheckpointTests {
    @Test func theOldManifestAndItsFilesStayUntilTheLastRename() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let publisher = SitePublisher(outputDirectory: dir.path)
        _ = try publisher.publish(files: [.init(name: "a.bundle", chunks: [[1]])], manifest: Data("one\n".utf8), history: .empty)

        var states: [BuildCheckpoint: DirectoryState] = [:]
        var order: [BuildCheckpoint] = []
        var failure: (any Error)?
        let outcome = try publisher.publish(files: [.init(name: "a.bundle", chunks: [[1]]), .init(name: "b.bundle", chunks: [[2]])], manifest: Data("two\n".utf8), history: .empty) { checkpoint in
            order.append(checkpoint)
            do {
                states[checkpoint] = try DirectoryState(publisher.bundlesDirectory)
            } catch {
                failure = error
            }
        }
        #expect(failure == nil)
        #expect(order == [.staged, .bundlesInPlace, .stateStaged, .manifestStaged, .manifestInPlace])
        #expect(outcome.written == ["b.bundle"])
        #expect(states[.staged] == DirectoryState(published: ["a.bundle", "manifest.json"], manifest: "one\n", staged: ["b.bundle"]))
        #expect(states[.bundlesInPlace] == DirectoryState(published: ["a.bundle", "b.bundle", "manifest.json"], manifest: "one\n", staged: []))
        #expect(states[.manifestStaged] == DirectoryState(published: ["a.bundle", "b.bundle", "manifest.json"], manifest: "one\n", staged: ["manifest.json"]))
        #expect(try DirectoryState(publisher.bundlesDirectory) == DirectoryState(published: ["a.bundle", "b.bundle", "manifest.json"], manifest: "two\n", staged: []))
    }

    @Test func buildReportsEveryCheckpointInOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try PipelineConfig.load(file: try SmallSite.write(into: dir))
        var checkpoints: [BuildCheckpoint] = []
        let record: (BuildEvent) -> Void = { event in
            if case .checkpoint(let checkpoint) = event { checkpoints.append(checkpoint) }
        }
        _ = try SiteBuilder(config: config).build(progress: record)
        #expect(checkpoints == BuildCheckpoint.allCases)
        // Nothing changed: no manifest to stage (built anyway), or nothing at all (up to date).
        checkpoints = []
        _ = try SiteBuilder(config: config).build(evenIfUpToDate: true, progress: record)
        #expect(checkpoints == [.locked, .staged, .bundlesInPlace, .published])
        checkpoints = []
        #expect(try SiteBuilder(config: config).build(progress: record).upToDate)
        #expect(checkpoints == [.locked])
        // A dry run has none.
        checkpoints = []
        _ = try SiteBuilder(config: config).build(dryRun: true, progress: record)
        #expect(checkpoints == [])
    }

    /// Reading reports bytes of all inputs, up to their total; each bundle reports its bytes
    /// encoded, hashed and compressed, up to its size.
    @Test func buildReportsHowFarItIs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = try PipelineConfig.load(file: try SmallSite.write(into: dir))
        var reading: [BuildEvent.InputProgress] = []
        var bundles: [(id: String, written: [Int], bytes: Int)] = []
        let report = try SiteBuilder(config: config).build { event in
            switch event {
            case .readingInput(let progress): reading.append(progress)
            case .buildingBundle(let id, _, _): bundles.append((id, [], 0))
            case .writingBundle(let done, let bytes):
                bundles[bundles.count - 1].written.append(done)
                bundles[bundles.count - 1].bytes = bytes
            default: break
            }
        }
        let size = SmallSite.data.utf8.count
        #expect(reading.first == BuildEvent.InputProgress(
            path: "\(dir.path)/data.ndjson", index: 0, count: 1, bytesRead: 0, bytes: size, totalBytesRead: 0, totalBytes: size))
        #expect(reading.last?.totalBytesRead == size)
        #expect(bundles.map(\.id) == report.bundles.map(\.id))
        for (bundle, built) in zip(bundles, report.bundles) {
            #expect(bundle.written == bundle.written.sorted() && bundle.written.last == built.bytes && bundle.bytes == built.bytes)
        }
    }

    @Test func leftoverStagingDirectoriesAreRemoved() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("bundles/.staging-1-2/x.bundle", "x")
        try dir.write("bundles/.staging-3-4/manifest.json", "{}")
        try dir.write("bundles/keep.bundle", "k")
        let publisher = SitePublisher(outputDirectory: dir.path)
        #expect(publisher.removeLeftoverStaging() == [".staging-1-2", ".staging-3-4"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("bundles")) == ["keep.bundle"])
    }
}
