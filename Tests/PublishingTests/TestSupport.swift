import BundleFormat
import FirestoreModel
import Foundation
import JSONCore
import Testing
@testable import PipelineLanguage
@testable import Publishing

/// The database every fixture uses.
let demo = DatabaseID(project: "demo")

/// A fresh directory under the system's temporary directory. Call ``remove()`` (in a `defer`).
struct TemporaryDirectory {
    let path: String

    init(_ label: String = #function) throws {
        let safe = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("PublishingTests-\(safe.prefix(40))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ relative: String) -> String {
        (path as NSString).appendingPathComponent(relative)
    }

    /// Writes `text` at `relative` (creating folders) and returns the absolute path.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        let target = file(relative)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Every regular file below the directory, by relative path, with its bytes.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return files }
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let absolute = file(relative)
            if FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: absolute))
            }
        }
        return files
    }
}

/// Builders for tiny Firestore REST NDJSON exports.
enum NDJSON {
    /// One REST document line; `fields` is the proto3 JSON `fields` object.
    static func document(
        _ path: String, _ fields: String = "{}", create: String? = "2024-01-01T00:00:00Z", update: String? = "2024-01-02T00:00:00Z",
        project: String = "demo"
    ) -> String {
        var line = "{\"name\":\"projects/\(project)/databases/(default)/documents/\(path)\",\"fields\":\(fields)"
        if let create { line += ",\"createTime\":\"\(create)\"" }
        if let update { line += ",\"updateTime\":\"\(update)\"" }
        return line + "}"
    }

    static func int(_ value: Int) -> String { "{\"integerValue\":\"\(value)\"}" }
    static func string(_ value: String) -> String { "{\"stringValue\":\"\(value)\"}" }
    static func bool(_ value: Bool) -> String { "{\"booleanValue\":\(value)}" }

    /// A `fields` object from name → proto3 JSON value pairs.
    static func fields(_ pairs: KeyValuePairs<String, String>) -> String {
        "{" + pairs.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// Lines joined with newlines and a final newline.
    static func file(_ lines: String...) -> String {
        lines.joined(separator: "\n") + "\n"
    }
}

/// The small data set most build tests use: three documents in `c` with `n` = 1…3 and two
/// `site` documents.
enum SmallSite {
    static let data = NDJSON.file(
        NDJSON.document("c/a", NDJSON.fields(["n": NDJSON.int(1), "tag": NDJSON.string("x")])),
        NDJSON.document("c/b", NDJSON.fields(["n": NDJSON.int(2), "tag": NDJSON.string("y")]), update: "2024-01-03T00:00:00Z"),
        NDJSON.document("c/c", NDJSON.fields(["n": NDJSON.int(3), "tag": NDJSON.string("x")])),
        NDJSON.document("site/settings", NDJSON.fields(["title": NDJSON.string("Demo")]))
    )
    static let newestUpdate = "2024-01-03T00:00:00.000000000Z"

    /// Two bundles: `front` (site/settings + `top`), `lists` (`all`, `xs`).
    static let config = """
        project: demo
        inputs: [data.ndjson]
        output: site
        previous: none
        bundles:
          - id: front
            documents: [site/settings]
            queries:
              top:
                collection: c
                order_by: [[n, desc]]
                limit: 2
          - id: lists
            queries:
              all:
                collection: c
              xs:
                collection: c
                where:
                  - [tag, ==, x]

        """

    /// Writes `data.ndjson` and `pipeline.yml` into `directory` and returns the config path.
    @discardableResult
    static func write(into directory: TemporaryDirectory, config: String = SmallSite.config, data: String = SmallSite.data) throws -> String {
        try directory.write("data.ndjson", data)
        return try directory.write("pipeline.yml", config)
    }
}

/// Loads the config at `path` and builds it (into `output` when given).
func build(config path: String, output: String? = nil) throws -> BuildReport {
    let config = try PipelineConfig.load(file: path)
    return try SiteBuilder(config: config, outputDirectory: output).build()
}

/// The `BuildError` a build throws, or nil (recording an issue) when it succeeds or throws
/// something else.
func buildError(config path: String, output: String? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> BuildError? {
    let config: PipelineConfig
    do {
        config = try PipelineConfig.load(file: path)
    } catch {
        Issue.record("the config does not load: \(error)", sourceLocation: sourceLocation)
        return nil
    }
    do {
        let report = try SiteBuilder(config: config, outputDirectory: output).build()
        Issue.record("the build succeeded (\(report.bundles.map(\.file))); expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Parses config text as `pipeline.yml`, returning the error or nil (recording an issue when
/// the config is accepted).
func configError(_ yaml: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
        _ = try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/nonexistent")
        Issue.record("the config was accepted; expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Parses config text that must be valid.
func parseConfig(_ yaml: String) throws -> PipelineConfig {
    try PipelineConfig.parse(yaml: yaml, file: "pipeline.yml", baseDirectory: "/nonexistent")
}

/// The manifest published in `site`.
func readManifest(site: String) throws -> Manifest {
    try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: (site as NSString).appendingPathComponent("bundles/manifest.json"))))
}

/// Reads a published bundle with the strict reader.
func readBundle(site: String, url: String) throws -> BundleContents {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: (site as NSString).appendingPathComponent(url)))
    return try BundleReader.read(Array(bytes), database: demo)
}

func path(_ text: String) -> ResourcePath {
    try! ResourcePath(parsing: text)
}

func timestamp(_ text: String) -> Timestamp {
    try! Timestamp(rfc3339: text)
}

extension TemporaryDirectory {
    /// A view of an existing directory (not removed by the tests that use it this way).
    init(existing path: String) {
        self.path = path
    }
}

extension SiteHistory {
    /// A state that knows of no bundle, for publisher tests that are not about returning clients.
    static let empty = SiteHistory(siteTime: timestamp("2024-01-01T00:00:00Z"), manifestSHA256: nil, bundles: [:])
}
