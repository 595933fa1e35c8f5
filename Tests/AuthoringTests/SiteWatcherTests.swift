import Foundation
import Testing
@testable import Authoring
import Publishing

/// `serve --watch`'s rebuild loop over a real project folder: the first build, a rebuild per
/// change (an input edited, added or deleted, the config edited or removed), a burst of changes
/// built once, a broken config that fails with its location while the published site stays as
/// it was, and the loop ending when its task is cancelled.
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

        init(_ directory: String, settle: Duration = .milliseconds(50)) {
            let watcher = SiteWatcher(
                configFile: (directory as NSString).appendingPathComponent("pipeline.yml"), interval: .milliseconds(50), settle: settle)
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

    /// A project folder with `stories` (one file each) and the config, and a path maker.
    static func project(_ stories: [String: String]) throws -> (directory: String, file: (String) -> String) {
        let directory = try StarterConfigTests.scratch()
        let file = { (name: String) in (directory as NSString).appendingPathComponent(name) }
        for (name, text) in stories { try write(text, to: file(name)) }
        try write(config, to: file("pipeline.yml"))
        return (directory, file)
    }

    @Test func aDeletedInputIsAChange() async throws {
        let (directory, file) = try Self.project(["exports/a.ndjson": Self.story("a", score: 1), "exports/b.ndjson": Self.story("b", score: 2)])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var watching = Watching(directory)
        defer { watching.task.cancel() }
        guard case .built(let first, _) = try await watching.nextBuild().outcome else { Issue.record("the first build failed"); return }
        #expect(first.inputDocuments == 2)

        try FileManager.default.removeItem(atPath: file("exports/b.ndjson"))
        let build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/b.ndjson")])
        guard case .built(let fewer, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(fewer.inputDocuments == 1)
        #expect(fewer.bundles.map(\.status) == [.changed])
    }

    /// A removed config fails the build with the reason, keeps the site and the inputs watched,
    /// and its return builds again.
    @Test func aRemovedConfigFailsUntilItIsBack() async throws {
        let (directory, file) = try Self.project(["exports/a.ndjson": Self.story("a", score: 1)])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var watching = Watching(directory)
        defer { watching.task.cancel() }
        guard case .built = try await watching.nextBuild().outcome else { Issue.record("the first build failed"); return }
        let manifest = try Data(contentsOf: URL(fileURLWithPath: file("site/bundles/manifest.json")))

        try FileManager.default.removeItem(atPath: file("pipeline.yml"))
        var build = try await watching.nextBuild()
        #expect(build.changed == [file("pipeline.yml")])
        guard case .failed(let message) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(message.hasPrefix("cannot read the config file \(file("pipeline.yml")): "), "\(message)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file("site/bundles/manifest.json"))) == manifest)

        try Self.write(Self.story("b", score: 2), to: file("exports/b.ndjson"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/b.ndjson")])
        guard case .failed = build.outcome else { Issue.record("\(build.outcome)"); return }

        try Self.write(Self.config, to: file("pipeline.yml"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("pipeline.yml")])
        guard case .built(let back, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(back.inputDocuments == 2)
    }

    /// Changes closer together than the settle time are one build, naming all of them: the build
    /// after it names only the change that follows.
    @Test func aBurstOfChangesIsOneBuild() async throws {
        let (directory, file) = try Self.project(["exports/a.ndjson": Self.story("a", score: 1)])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var watching = Watching(directory, settle: .seconds(1))
        defer { watching.task.cancel() }
        guard case .built = try await watching.nextBuild().outcome else { Issue.record("the first build failed"); return }

        let burst = (1...5).map { "exports/burst-\($0).ndjson" }
        for (index, name) in burst.enumerated() {
            try Self.write(Self.story("burst\(index)", score: 10 + index), to: file(name))
            try await Task.sleep(for: .milliseconds(20))
        }
        var build = try await watching.nextBuild()
        #expect(build.changed == burst.map(file))
        guard case .built(let settled, _) = build.outcome else { Issue.record("\(build.outcome)"); return }
        #expect(settled.inputDocuments == 6)

        try Self.write(Self.story("a", score: 99, updated: "2024-05-02T10:00:00Z"), to: file("exports/a.ndjson"))
        build = try await watching.nextBuild()
        #expect(build.changed == [file("exports/a.ndjson")])
    }

    /// Cancelling the task ends the loop while it waits for a change: the stream of events
    /// finishes, where a loop that went on would announce another build.
    @Test func cancellingTheTaskStopsWatching() async throws {
        let (directory, _) = try Self.project(["exports/a.ndjson": Self.story("a", score: 1)])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var watching = Watching(directory)
        guard case .built = try await watching.nextBuild().outcome else { Issue.record("the first build failed"); return }
        watching.task.cancel()
        let next = await watching.events.next()
        #expect(next == nil, "\(String(describing: next))")
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
