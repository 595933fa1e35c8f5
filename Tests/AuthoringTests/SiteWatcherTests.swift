import Foundation
import Testing
@testable import Authoring
import Publishing

/// `serve --watch`'s rebuild loop over a real project folder: the first build, a rebuild per
/// change (an input edited, a new input file a pattern matches, the config), and a broken config
/// that fails with its location while the published site stays as it was.
@Suite(.timeLimit(.minutes(2))) struct SiteWatcherTests {
    static func story(_ id: String, score: Int, updated: String = "2024-05-01T10:00:00Z") -> String {
        #"{"name":"projects/demo/databases/(default)/documents/stories/\#(id)","fields":{"score":{"integerValue":"\#(score)"}},"createTime":"2024-01-01T00:00:00Z","updateTime":"\#(updated)"}"#
    }

    /// Writes `text` at `path` as editors do: to a new file renamed over the old, so the watcher
    /// never sees it half-written (however loaded the machine).
    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    static let config = """
        project: demo
        output: site
        previous: none
        inputs: [exports/*.ndjson]
        bundles:
          - id: top
            queries:
              top-stories: {collection: stories, order_by: [[score, desc]], limit: 2}

        """

    /// The events of a watcher running over `directory`, as they happen; the watcher stops when
    /// the test's task ends.
    struct Watching {
        var events: AsyncStream<SiteWatcher.Event>.Iterator
        let task: Task<Void, Never>

        init(_ directory: String) {
            let watcher = SiteWatcher(
                configFile: (directory as NSString).appendingPathComponent("pipeline.yml"), interval: .milliseconds(50), settle: .milliseconds(50))
            let (stream, continuation) = AsyncStream.makeStream(of: SiteWatcher.Event.self)
            events = stream.makeAsyncIterator()
            task = Task {
                await watcher.run { continuation.yield($0) }
                continuation.finish()
            }
        }

        /// The next build's announcement and outcome.
        mutating func nextBuild() async throws -> (changed: [String], outcome: SiteWatcher.Event) {
            guard case .building(let changed) = try #require(await events.next()) else {
                Issue.record("a build's outcome came without its announcement")
                throw CancellationError()
            }
            return (changed, try #require(await events.next()))
        }
    }

    @Test func rebuildsOnEveryChangeAndKeepsTheSiteWhenTheConfigBreaks() async throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        try Self.write([Self.story("a", score: 1), Self.story("b", score: 2)].joined(separator: "\n"), to: file("exports/stories.ndjson"))
        try Self.write(Self.config, to: file("pipeline.yml"))

        var watching = Watching(directory)
        defer { watching.task.cancel() }
        var build = try await watching.nextBuild()
        #expect(build.changed == [])
        guard case .built(let first, _) = build.outcome else { Issue.record("the first build failed: \(build.outcome)"); return }
        #expect(first.bundles.map(\.status) == [.new])

        // An input edited: one rebuild, naming it.
        try Self.write([Self.story("a", score: 9, updated: "2024-05-02T10:00:00Z"), Self.story("b", score: 2)].joined(separator: "\n"), to: file("exports/stories.ndjson"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/stories.ndjson")])
        guard case .built(let edited, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(edited.bundles.map(\.status) == [.changed])

        // A new file that the inputs' pattern matches.
        try Self.write(Self.story("c", score: 5, updated: "2024-05-03T10:00:00Z"), to: file("exports/more.ndjson"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/more.ndjson")])
        guard case .built(let added, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(added.inputDocuments == 3)

        // A broken config: the error names the place, and the published site is untouched.
        let manifest = try Data(contentsOf: URL(fileURLWithPath: file("site/bundles/manifest.json")))
        try Self.write(Self.config.replacingOccurrences(of: "limit: 2", with: "limit: two"), to: file("pipeline.yml"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("pipeline.yml")])
        guard case .failed(let message) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(message.hasPrefix("\(file("pipeline.yml")):8:76: "), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file("site/bundles/manifest.json"))) == manifest)

        // While the config is broken the inputs stay watched; fixing it builds everything.
        try Self.write(Self.story("d", score: 7, updated: "2024-05-04T10:00:00Z"), to: file("exports/even-more.ndjson"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/even-more.ndjson")])
        guard case .failed = build.outcome else { Issue.record("\(build.outcome)"); return }
        try Self.write(Self.config, to: file("pipeline.yml"))
        build = try await watching.nextBuild()
        guard case .built(let fixed, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(fixed.inputDocuments == 4)
        #expect(fixed.bundles.map(\.status) == [.changed])
    }
}

/// Another process building the same output is not a failed build (issue 32, point 6).
@Suite(.timeLimit(.minutes(2))) struct SiteWatcherLockTests {
    @Test func anotherBuildHoldingTheLockIsNotAFailure() async throws {
        let directory = try StarterConfigTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        try SiteWatcherTests.write(SiteWatcherTests.story("a", score: 1), to: file("exports/stories.ndjson"))
        try SiteWatcherTests.write(SiteWatcherTests.config, to: file("pipeline.yml"))
        try FileManager.default.createDirectory(atPath: file("site"), withIntermediateDirectories: true)
        // A lock on another open file description conflicts as another process's would.
        let descriptor = open(file("site/.bundlepress.lock"), O_CREAT | O_RDWR, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        var watching = SiteWatcherTests.Watching(directory)
        defer { watching.task.cancel() }
        let build = try await watching.nextBuild()
        guard case .otherBuildRunning = build.outcome else {
            Issue.record("expected another build running, found \(build.outcome)")
            return
        }
    }
}
