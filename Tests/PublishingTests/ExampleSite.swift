import BundleFormat
import FirestoreModel
import Foundation
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The repository's example project (pipeline.yml and exports/), or the benchmark's, copied
/// into a temporary directory, edited between builds the way a site's data and config change,
/// with a copy of every build's bundles kept (retention deletes old files; clients still hold them).
struct ExampleSite {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let directory: TemporaryDirectory
    /// The project the site belongs to.
    let database: DatabaseID
    /// The export file holding the stories, under exports/.
    let storiesFile: String
    /// The stories' publication-time field, newest first in ``publishedStories()``.
    let publishedAt: String
    /// Each build's bundles: its manifest and every bundle it lists, read back.
    private(set) var builds: [[String: BundleContents]] = []
    /// Each build's bundle files by id: copies under `builds/<n>/`, which retention never deletes.
    private(set) var files: [[String: String]] = []

    init(_ label: String = #function) throws {
        directory = try TemporaryDirectory(label)
        try FileManager.default.copyItem(atPath: Self.repository.appendingPathComponent("pipeline.yml").path, toPath: directory.file("pipeline.yml"))
        try FileManager.default.copyItem(atPath: Self.repository.appendingPathComponent("exports").path, toPath: directory.file("exports"))
        (database, storiesFile, publishedAt) = (DatabaseID(project: "bundlepress-demo"), "stories.ndjson", "publishedAt")
    }

    /// The benchmark site (bench/pipeline.yml) over `export`, an export of gen_export.py, as a
    /// site never published before.
    init(benchmarkExport export: String, _ label: String = #function) throws {
        directory = try TemporaryDirectory(label)
        let config = try String(contentsOf: Self.repository.appendingPathComponent("bench/pipeline.yml"), encoding: .utf8)
        try directory.write("pipeline.yml", config.replacingOccurrences(of: "path: export.ndjson", with: "path: exports/export.ndjson") + "previous: none\n")
        try FileManager.default.createDirectory(atPath: directory.file("exports"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: export, toPath: directory.file("exports/export.ndjson"))
        (database, storiesFile, publishedAt) = (DatabaseID(project: "demo"), "export.ndjson", "timestamp")
    }

    /// Removes the project, unless its bundles are kept for a comparison with the real SDK.
    func remove() {
        if ProcessInfo.processInfo.environment[Self.dumpVariable] == nil { directory.remove() }
    }

    /// Builds into `output` (relative to the project), with `previous` overriding the config's.
    @discardableResult
    mutating func build(output: String = "site", previous: PreviousSite?? = nil) throws -> BuildReport {
        var config = try PipelineConfig.load(file: directory.file("pipeline.yml"))
        if let previous { config.previous = previous }
        let report = try SiteBuilder(config: config, outputDirectory: directory.file(output)).build()
        let manifest = try readManifest(site: directory.file(output))
        var bundles: [String: BundleContents] = [:]
        var copies: [String: String] = [:]
        for entry in manifest.bundles {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("\(output)/\(entry.url)")))
            bundles[entry.id] = try BundleReader.read(Array(bytes), database: database, missingDocuments: .accepted)
            copies[entry.id] = try directory.write("builds/\(builds.count)/\(entry.id).bundle", "")
            try bytes.write(to: URL(fileURLWithPath: copies[entry.id]!))
        }
        builds.append(bundles)
        files.append(copies)
        return report
    }

    // MARK: - Edits

    /// The export lines of `file` (under exports/).
    func lines(_ file: String) throws -> [String] {
        try String(contentsOfFile: directory.file("exports/\(file)"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func write(_ file: String, lines: [String]) throws {
        try directory.write("exports/\(file)", lines.joined(separator: "\n") + "\n")
    }

    /// The document path of an export line.
    static func path(of line: String) -> String {
        let name = line.split(separator: "\"name\":\"", maxSplits: 1)[1].prefix { $0 != "\"" }
        return String(name.split(separator: "/documents/", maxSplits: 1)[1])
    }

    /// The published stories, newest ``publishedAt`` first.
    func publishedStories() throws -> [String] {
        let field = "\"\(publishedAt)\":{\"timestampValue\":\""
        let published = try lines(storiesFile).filter { $0.contains("/documents/stories/") && $0.contains("\"published\":{\"booleanValue\":true}") }
        // Each line's time once (a benchmark export has 50,000 stories), then sorted by it.
        return published.map { (time: String($0.split(separator: field, maxSplits: 1)[1].prefix(30)), path: Self.path(of: $0)) }
            .sorted { $0.time > $1.time }.map(\.path)
    }

    /// Replaces `old` with `new` in the line of document `path` and, when `updateTime` is given,
    /// sets its updateTime.
    func edit(_ path: String, in file: String? = nil, replacing old: String, with new: String, updateTime: String?) throws {
        let file = file ?? storiesFile
        var lines = try lines(file)
        let index = try #require(lines.firstIndex { Self.path(of: $0) == path })
        #expect(lines[index].contains(old), "\(path) has no \(old)")
        lines[index] = lines[index].replacingOccurrences(of: old, with: new)
        if let updateTime {
            let current = lines[index].split(separator: "\"updateTime\":\"", maxSplits: 1)[1].prefix { $0 != "\"" }
            lines[index] = lines[index].replacingOccurrences(of: "\"updateTime\":\"\(current)\"", with: "\"updateTime\":\"\(updateTime)\"")
        }
        try write(file, lines: lines)
    }

    func delete(_ path: String, from file: String? = nil) throws {
        try write(file ?? storiesFile, lines: try lines(file ?? storiesFile).filter { Self.path(of: $0) != path })
    }

    func editConfig(replacing old: String, with new: String) throws {
        let text = try String(contentsOfFile: directory.file("pipeline.yml"), encoding: .utf8)
        #expect(text.contains(old))
        try directory.write("pipeline.yml", text.replacingOccurrences(of: old, with: new))
    }

    // MARK: - The invariant

    /// Bundles a client loaded, in order, as (build index, bundle id).
    typealias Loads = [(build: Int, id: String)]

    /// For every bundle id of the last build and every sequence of builds a client may have
    /// loaded it from (each earlier build then the last, and all of them in order): the named
    /// queries whose results from the cache differ from a fresh client's that loaded only the
    /// last build, and how many results were compared (see ``mismatches(after:dumpSuffix:)``).
    func returningClientMismatches() -> (compared: Int, mismatches: [String]) {
        let last = builds.count - 1
        var sequences = (0..<last).map { [$0] }
        if builds.count > 2 { sequences.append(Array(0..<last)) }
        return mismatches(dumpSuffix: "") { id in
            sequences.map { sequence in sequence.filter { builds[$0][id] != nil }.map { (build: $0, id: id) } }
        }
    }

    /// Across bundles (issue 33): for every bundle id of the last build and every set of bundles
    /// of earlier builds a client may have loaded before it (each earlier bundle alone; each
    /// earlier build's bundles together; every earlier bundle, oldest build first and newest
    /// first), the named queries whose results from the cache differ from a fresh client's that
    /// loaded only the last build's bundle, and how many results were compared.
    func crossBundleMismatches() -> (compared: Int, mismatches: [String]) {
        let last = builds.count - 1
        var befores: [Loads] = []
        for build in 0..<last {
            let ids = builds[build].keys.sorted()
            befores += ids.map { [(build, $0)] }
            befores.append(ids.map { (build, $0) })
        }
        let all = (0..<last).flatMap { build in builds[build].keys.sorted().map { (build: build, id: $0) } }
        befores.append(all)
        befores.append((0..<last).reversed().flatMap { build in builds[build].keys.sorted().map { (build: build, id: $0) } })
        return mismatches(dumpSuffix: "-across") { _ in befores }
    }

    /// For every bundle of the last build and every sequence `befores(id)` of earlier bundles,
    /// loads the sequence then that bundle into one client model and compares the bundle's named
    /// queries with a fresh client's that loaded only the bundle. Returns how many results were
    /// compared and the mismatches as `bundle / query / after [build:id, …]`. With
    /// ``dumpVariable`` set, the sequences, a fresh app's answers (what the SDK must return) and
    /// the model's are kept in `<folder>/<site><dumpSuffix>.json` for the local SDK checks.
    private func mismatches(dumpSuffix: String, after befores: (String) -> [Loads]) -> (compared: Int, mismatches: [String]) {
        let last = builds.count - 1
        let dumpFolder = ProcessInfo.processInfo.environment[Self.dumpVariable]
        var compared = 0
        var mismatches: [String] = []
        var dump: [[String: Any]] = []
        for (id, bundle) in builds[last].sorted(by: { $0.key < $1.key }) {
            var fresh = ClientCacheModel(database: database)
            fresh.load(bundle)
            let expected = fresh.results()
            for before in befores(id) {
                var returning = ClientCacheModel(database: database)
                for (build, earlier) in before { returning.load(builds[build][earlier]!) }
                returning.load(bundle)
                let got = returning.results()
                for (name, results) in expected.sorted(by: { $0.key < $1.key }) {
                    compared += 1
                    if got[name] != results {
                        mismatches.append("\(id) / \(name) / after [\(before.map { "\($0.build):\($0.id)" }.joined(separator: ", "))]")
                    }
                }
                if dumpFolder != nil {
                    let loaded = before.compactMap { files[$0.build][$0.id] } + [files[last][id]!]
                    let paths = { (answers: [String: [String]]) in
                        expected.keys.reduce(into: [String: [String]]()) { $0[$1] = answers[$1]?.map { String($0.prefix { $0 != " " }) } }
                    }
                    dump.append(["bundles": loaded, "results": paths(expected), "model": paths(got)])
                }
            }
        }
        if let folder = dumpFolder {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let data = try? JSONSerialization.data(withJSONObject: ["project": database.project, "sequences": dump], options: [.sortedKeys])
            let name = "\(directory.path.split(separator: "/").last!)\(dumpSuffix).json"
            _ = FileManager.default.createFile(atPath: (folder as NSString).appendingPathComponent(name), contents: data)
        }
        return (compared, mismatches)
    }

    /// Set to a folder, the model's answers and the bundles they came from are kept there.
    static let dumpVariable = "BUNDLEPRESS_MODEL_DUMP"

    /// Expects no mismatch (``returningClientMismatches()``) among at least `least` results.
    func expectReturningClientsSeeWhatFreshClientsSee(least: Int = 13, sourceLocation: SourceLocation = #_sourceLocation) {
        let (compared, mismatches) = returningClientMismatches()
        #expect(compared >= least, sourceLocation: sourceLocation)
        #expect(mismatches == [], sourceLocation: sourceLocation)
        let across = crossBundleMismatches()
        #expect(across.compared >= least, sourceLocation: sourceLocation)
        #expect(across.mismatches == [], sourceLocation: sourceLocation)
    }
}
