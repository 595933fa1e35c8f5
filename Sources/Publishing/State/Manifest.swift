import Foundation
import PipelineLanguage

/// `bundles/manifest.json`: what a site publishes, for apps (which bundle holds a named query)
/// and for `verify`. It has no wall-clock fields, so an unchanged build writes identical bytes.
public struct Manifest: Codable, Sendable, Equatable {
    /// Bumped when a field changes meaning or disappears; new fields may appear within a version.
    public static let currentSchemaVersion = 1

    /// Where the manifest of the site in `siteDirectory` is: `bundles/manifest.json`.
    public static func path(inSite siteDirectory: String) -> String {
        (siteDirectory as NSString).appendingPathComponent(relativePath)
    }

    /// The same, relative to the site directory.
    static let relativePath = "bundles/manifest.json"

    public var schemaVersion: Int
    /// The build's snapshot time T (RFC 3339, nine fraction digits, `Z`): when the data was
    /// read. Each bundle's own `createTime` may be later (``Entry/createTime``).
    public var snapshotTime: String
    public var project: String
    public var database: String
    /// The clients the bundles are made for (`web`, `android`, `ios`); absent means all.
    public var clients: [String]?
    /// Bundles in config order.
    public var bundles: [Entry]
    /// Named query → where to find it.
    public var namedQueries: [String: QueryLocation]
    /// Document listed by a bundle's `documents:` (its path) → where to find it, for every
    /// listed document that exists in a bundle with snapshots on; absent when there is none.
    /// Each has its ``QueryLocation/snapshot``.
    public var documents: [String: QueryLocation]?
    /// The site time (RFC 3339): the `createTime` of the newest bundle change published. An app
    /// remembers the site time it last loaded (bundlepress.js keeps it in localStorage).
    public var siteTime: String?
    /// Where the horizon starts (RFC 3339, site time): bundles account for what apps cached from
    /// any build whose site time is not earlier; an app that last loaded an earlier site time
    /// must reset its cache before it shows anything (docs/returning-clients.md).
    public var horizonStart: String?

    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        /// The raw bundle, relative to the site root (`bundles/<id>.<hash16>.bundle`).
        public var url: String
        /// The gzip copy of the same bytes (`<url>.gz`).
        public var gzipURL: String
        /// Lowercase hex SHA-256 of the raw bundle bytes.
        public var sha256: String
        /// The bundle's `createTime`: later than every earlier publish of this id whose content
        /// differs (clients skip a bundle that is not newer than the one they cached).
        public var createTime: String?
        public var bytes: Int
        public var gzipBytes: Int
        /// Distinct documents in the bundle (`totalDocuments`), leavers and missing-document
        /// markers for returning clients included.
        public var documents: Int
        /// The documents that are results of a named query or listed in `documents:`.
        public var results: Int?
        /// Its named queries, sorted by name.
        public var namedQueries: [String]
        /// For a bundle made by `for_each`: the id as written in the config (`stories-{category}`).
        public var template: String?
        /// For a bundle made by `for_each`: the placeholder and its value (`{"category": "news"}`),
        /// so an app can list the values that have a bundle.
        public var parameters: [String: FanOutValue]?
        /// For a bundle made from a bundle spec of the extension (`extension:`): the spec id.
        public var spec: String?
        /// For a bundle made from a bundle spec: its parameters' values (text, or a list for an
        /// array parameter), as a request to the extension would carry them.
        public var specParameters: [String: SpecParameterValue]?
        /// For a bundle made from a bundle spec: the copy at the extension's URL, replaced at each
        /// build (`bundles/<specId>/<param>/<value>…`; `ExtensionBinding.stablePath`).
        public var stableURL: String?
        /// For a bundle made from a bundle spec: the spec's `clientCache` and `serverCache` (seconds).
        public var clientCache: Int?
        public var serverCache: Int?
        /// For a bundle made from a bundle spec: its named queries' server-rendering snapshots by
        /// name. A spec's query names repeat across its bundles, so `named_queries` can point to
        /// one bundle's only.
        public var snapshots: [String: String]?

        public init(
            id: String, url: String, gzipURL: String, sha256: String, createTime: String?, bytes: Int, gzipBytes: Int, documents: Int,
            results: Int?, namedQueries: [String], fanOut: FanOutBinding? = nil, extensionSpec: ExtensionBinding? = nil
        ) {
            self.id = id
            self.url = url
            self.gzipURL = gzipURL
            self.sha256 = sha256
            self.createTime = createTime
            self.bytes = bytes
            self.gzipBytes = gzipBytes
            self.documents = documents
            self.results = results
            self.namedQueries = namedQueries
            self.template = fanOut?.template
            self.parameters = fanOut.map { [$0.placeholder: $0.value] }
            self.spec = extensionSpec?.specID
            self.specParameters = extensionSpec.map(\.parameters)
            self.stableURL = extensionSpec?.stablePath
            self.clientCache = extensionSpec?.clientCache
            self.serverCache = extensionSpec?.serverCache
        }

        enum CodingKeys: String, CodingKey {
            case id, url, sha256, bytes, documents, results, template, parameters
            case spec
            case specParameters = "spec_parameters"
            case stableURL = "stable_url"
            case clientCache = "client_cache"
            case serverCache = "server_cache"
            case snapshots
            case createTime = "create_time"
            case gzipURL = "gzip_url"
            case gzipBytes = "gzip_bytes"
            case namedQueries = "named_queries"
        }
    }

    public struct QueryLocation: Codable, Sendable, Equatable {
        public var bundle: String
        public var url: String
        /// Its server-rendering snapshot (`bundles/snapshots/<name>.<hash16>.json`), relative to
        /// the site root like ``url``; absent when snapshots are off. (A listed document's
        /// location in ``Manifest/documents`` is the same, with its snapshot.)
        public var snapshot: String?

        public init(bundle: String, url: String, snapshot: String? = nil) {
            self.bundle = bundle
            self.url = url
            self.snapshot = snapshot
        }
    }

    enum CodingKeys: String, CodingKey {
        case project, database, bundles, clients, documents
        case schemaVersion = "schema_version"
        case snapshotTime = "snapshot_time"
        case namedQueries = "named_queries"
        case siteTime = "site_time"
        case horizonStart = "horizon_start"
    }

    public init(
        snapshotTime: String, project: String, database: String, clients: [String], bundles: [Entry],
        siteTime: String? = nil, horizonStart: String? = nil
    ) {
        self.siteTime = siteTime
        self.horizonStart = horizonStart
        self.schemaVersion = Self.currentSchemaVersion
        self.snapshotTime = snapshotTime
        self.project = project
        self.database = database
        self.clients = clients
        self.bundles = bundles
        var queries: [String: QueryLocation] = [:]
        for bundle in bundles {
            for name in bundle.namedQueries {
                queries[name] = QueryLocation(bundle: bundle.id, url: bundle.url)
            }
        }
        self.namedQueries = queries
    }

    /// Pretty, key-sorted JSON with a final newline: deterministic and diff-friendly.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try! encoder.encode(self)  // Only strings and integers: encoding cannot fail.
        data.append(UInt8(ascii: "\n"))
        return data
    }

    public static func decode(_ data: Data) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: data)
    }
}
