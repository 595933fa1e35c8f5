import BundleFormat
import Crypto
import FirestoreModel
import Foundation
import Gzip
import JSONCore
import PipelineLanguage
import QueryEngine

/// Checks a published site the way clients and CDNs will meet it: the manifest parses, every
/// bundle it lists exists with the recorded size, SHA-256 and `createTime`, its gzip copy holds
/// the same bytes, the bundle passes the strict reader (what any Firebase SDK rejects; missing-
/// document markers are accepted, as the SDKs load them), each named query's document list
/// equals what the query engine returns over the bundle's documents (leavers and markers
/// included, so a client that loaded only this bundle gets exactly the results), the state
/// kept for returning clients, when there is one, belongs to this manifest and these bundles,
/// and every server-rendering snapshot is what the SDK reads and its bundle says (``SnapshotCheck``).
public struct SiteVerifier: Sendable {
    /// One thing wrong with the site.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The bundle id, or nil for the manifest itself.
        public var bundle: String?
        public var message: String

        public var description: String { bundle.map { "\($0): \(message)" } ?? "manifest: \(message)" }
    }

    /// The outcome: the bundles that passed and every problem found.
    public struct Report: Sendable {
        public var checkedBundles: [String]
        public var problems: [Problem]
        public var warnings: [Problem]
        public var isValid: Bool { problems.isEmpty }
    }

    public let siteDirectory: String

    public init(siteDirectory: String) {
        self.siteDirectory = siteDirectory
    }

    public func verify() -> Report {
        var report = Report(checkedBundles: [], problems: [], warnings: [])
        let manifestPath = Manifest.path(inSite: siteDirectory)
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            report.problems.append(Problem(bundle: nil, message: "\(manifestPath) is missing; run bundlepress build first"))
            return report
        }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(data)
        } catch {
            report.problems.append(Problem(bundle: nil, message: "\(manifestPath) is not a valid manifest: \(error)"))
            return report
        }
        guard manifest.schemaVersion == Manifest.currentSchemaVersion else {
            report.problems.append(Problem(bundle: nil, message: "schema_version \(manifest.schemaVersion) is not \(Manifest.currentSchemaVersion)"))
            return report
        }
        if manifest.bundles.isEmpty {
            report.problems.append(Problem(bundle: nil, message: "lists no bundles"))
        }
        let database = DatabaseID(project: manifest.project, database: manifest.database)
        guard let clients = manifest.clients.map(ClientPlatform.init(configNames:)) ?? .all else {
            report.problems.append(Problem(bundle: nil, message: "clients \(manifest.clients ?? []) names an unknown client; expected some of: \(ClientPlatform.allConfigNames.joined(separator: ", "))"))
            return report
        }
        for (name, location) in manifest.namedQueries {
            guard let entry = manifest.bundles.first(where: { $0.id == location.bundle }), entry.url == location.url,
                  entry.namedQueries.contains(name)
            else {
                report.problems.append(Problem(bundle: nil, message: "named_queries.\(name) points to \(location.bundle) at \(location.url), which does not list it"))
                continue
            }
        }
        var contents: [String: BundleContents] = [:]
        for entry in manifest.bundles {
            let (problems, read) = verify(entry, database: database, clients: clients, warnings: &report.warnings)
            contents[entry.id] = read
            if problems.isEmpty {
                report.checkedBundles.append(entry.id)
            } else {
                report.problems += problems.map { Problem(bundle: entry.id, message: $0) }
            }
        }
        report.problems += checkState(manifest: data, bundles: contents).map { Problem(bundle: nil, message: $0) }
        report.problems += SnapshotCheck(siteDirectory: siteDirectory, database: database, audience: clients.bundleAudience).problems(in: manifest, bundles: contents)
        return report
    }

    /// The state file, when there is one, must name this manifest, and its bundles' times and
    /// documents must be the published ones: otherwise the next build would date or complete
    /// bundles against something clients never got.
    private func checkState(manifest: Data, bundles: [String: BundleContents]) -> [String] {
        let store = SiteHistoryStore(outputDirectory: siteDirectory)
        guard FileManager.default.fileExists(atPath: store.path) || FileManager.default.fileExists(atPath: store.stagedPath) else { return [] }
        // As the next build reads it: a staged state that names this manifest counts.
        let (loaded, problem) = store.load(manifestSHA256: SHA256.hash(data: manifest).hex, repair: false)
        guard let history = loaded else { return [problem ?? "\(store.path) cannot be read"] }
        var problems: [String] = []
        for (id, contents) in bundles.sorted(by: { $0.key < $1.key }) {
            guard let bundle = history.bundles[id] else {
                problems.append("\(store.path) has no history for bundle \(id)")
                continue
            }
            if bundle.createTime != contents.metadata.createTime {
                problems.append("\(store.path) dates bundle \(id) \(bundle.createTime), the bundle says \(contents.metadata.createTime)")
            }
            if Set(bundle.current.paths) != Set(contents.documents.map(\.metadata.name.path)) {
                problems.append("\(store.path) does not list the documents bundle \(id) carries")
            }
        }
        return problems
    }

    private func verify(
        _ entry: Manifest.Entry, database: DatabaseID, clients: ClientPlatform, warnings: inout [Problem]
    ) -> (problems: [String], contents: BundleContents?) {
        guard let raw = read(entry.url), let gzip = read(entry.gzipURL) else {
            return (["\(entry.url) or \(entry.gzipURL) is missing or unreadable"], nil)
        }
        var problems: [String] = []
        if raw.count != entry.bytes { problems.append("\(entry.url) has \(raw.count) bytes, the manifest says \(entry.bytes)") }
        if gzip.count != entry.gzipBytes { problems.append("\(entry.gzipURL) has \(gzip.count) bytes, the manifest says \(entry.gzipBytes)") }
        let digest = SHA256.hash(data: raw).hex
        if digest != entry.sha256 { problems.append("\(entry.url) has SHA-256 \(digest), the manifest says \(entry.sha256)") }
        if !entry.url.hasSuffix(".\(entry.sha256.prefix(16)).bundle") {
            problems.append("\(entry.url) is not named by its content hash (\(entry.sha256.prefix(16)))")
        }
        do {
            if try GzipDecompressor.decompress(gzip) != raw { problems.append("\(entry.gzipURL) does not decompress to \(entry.url)") }
        } catch {
            problems.append("\(entry.gzipURL): \(error)")
        }
        let contents: BundleContents
        do {
            contents = try BundleReader.read(raw, database: database, audience: clients.bundleAudience, missingDocuments: .accepted)
        } catch {
            return (problems + error.problems.map(\.description), nil)
        }
        warnings += contents.warnings.map { Problem(bundle: entry.id, message: $0.description) }
        if contents.metadata.id != entry.id { problems.append("metadata id is \"\(contents.metadata.id)\", the manifest says \"\(entry.id)\"") }
        if Int(contents.metadata.totalDocuments) != entry.documents {
            problems.append("holds \(contents.metadata.totalDocuments) documents, the manifest says \(entry.documents)")
        }
        if let createTime = entry.createTime, createTime != contents.metadata.createTime.rfc3339 {
            problems.append("createTime is \(contents.metadata.createTime), the manifest says \(createTime)")
        }
        if let results = entry.results {
            let members = contents.documents.filter { !$0.metadata.queries.isEmpty }.count
            let existing = contents.documents.filter { $0.document != nil }.count
            if !(members...existing).contains(results) {
                problems.append("the manifest counts \(results) results, but \(members) documents are named-query results and \(existing) exist")
            }
        }
        let names = contents.namedQueries.map(\.name).sorted()
        if names != entry.namedQueries.sorted() {
            problems.append("named queries are \(names), the manifest says \(entry.namedQueries.sorted())")
        }
        return (problems + checkQueryResults(contents, database: database), contents)
    }

    /// Each named query, run over the bundle's documents, must return exactly the documents
    /// whose metadata lists it: that is what a client computes after loading the bundle.
    private func checkQueryResults(_ contents: BundleContents, database: DatabaseID) -> [String] {
        var store = DocumentStore(database: database)
        for bundled in contents.documents {
            if let document = bundled.document { store.insert(document) }
        }
        var problems: [String] = []
        for named in contents.namedQueries {
            let bundledQuery: BundledQuery
            do throws(JSONDecodingError) {
                bundledQuery = try BundledQuery(jsonBytes: named.bundledQuery.bytes)
            } catch {
                problems.append("named query \"\(named.name)\": \(error)")
                continue
            }
            let expected = Set(contents.documents.filter { $0.metadata.queries.contains(named.name) }.map(\.metadata.name.path))
            let actual = store.evaluate(bundledQuery.query).map(\.path)
            if Set(actual) != expected || actual.count != expected.count {
                let missing = expected.subtracting(actual).map(\.description).sorted()
                let extra = Set(actual).subtracting(expected).map(\.description).sorted()
                problems.append("named query \"\(named.name)\" returns \(actual.count) documents over the bundle but \(expected.count) list it (missing: \(missing.prefix(5)), unexpected: \(extra.prefix(5)))")
            }
        }
        return problems
    }

    private func read(_ relative: String) -> [UInt8]? {
        guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { return nil }
        return FileManager.default.contents(atPath: (siteDirectory as NSString).appendingPathComponent(relative)).map(Array.init)
    }
}
