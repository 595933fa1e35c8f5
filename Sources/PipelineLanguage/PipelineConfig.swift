import BundleFormat
import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import QueryEngine
import SitePolicy

/// A validated `pipeline.yml`: where the exports are, which bundles to build from them, and
/// where to publish. Built once by ``PipelineConfig/load(file:)``, then passed down unchanged.
public struct PipelineConfig: Sendable {
    /// The config file as given (used in messages).
    public var file: String
    /// The directory relative paths in the config are resolved against (the config's folder).
    public var baseDirectory: String
    /// The project and database every document and reference is re-rooted to.
    public var database: DatabaseID
    /// The build's snapshot time; nil means "the newest updateTime in the inputs".
    public var snapshotTime: Timestamp?
    /// The site directory (bundles go to `<output>/bundles/`).
    public var output: String
    /// libdeflate level for the `.gz` files, 1…12 (default 6).
    public var gzipLevel: Int
    /// The clients the site's apps use; named queries are checked against each.
    public var clients: ClientPlatform
    /// What to do when two inputs contain the same document.
    public var duplicates: DuplicatePolicy
    public var inputs: [InputSpec]
    /// The bundles in config order, a `for_each` entry standing for its bundles in value order.
    /// Until ``resolvingQueries(snapshotTime:store:)`` a `for_each` over the inputs has none
    /// here yet (its values are not known); ``fanOuts`` lists it either way.
    public var bundles: [BundleSpec]
    /// The `for_each` entries of `bundles:`, in config order.
    public var fanOuts: [FanOut] = []
    /// How long files the manifest no longer references are kept (`retention:`).
    public var retention = RetentionPolicy.default
    /// How long bundles carry leavers and missing-document markers for returning clients (`leavers:`).
    public var leavers = LeaverPolicy.default
    /// The site-wide `fields:`/`redact:` rules (each bundle's ``BundleSpec/fieldPolicy`` starts from them).
    public var fieldPolicy = FieldPolicy()
    /// What a sensitive-looking published field does (`exposure:`).
    public var exposure = ExposurePolicy.default
    /// Whether bundles get server-rendering snapshots unless they say otherwise (`snapshots:`):
    /// each bundle's ``BundleSpec/snapshots`` starts from it, as those the extension's specs make.
    public var snapshots = true
    /// What the build does when the config does not fit the data (`warnings:`): a field no
    /// document has, a value of a type the field never holds, a query with no result.
    public var warnings = WarningMode.warn
    /// Where the previous state comes from when the output directory has none (`previous:`).
    public var previous: PreviousSite?
    /// Bundle size limits (`budgets:`).
    public var budgets = SizeBudget()
    /// `explorer:`: the folder inside the output the explorer page is written to (`""`: the
    /// output itself), or nil (the default) for none: production output holds `bundles/`, the
    /// header files and dot files only. `bundlepress serve` shows the explorer either way.
    public var explorer: String?
    /// The response headers the site is served with (`headers:` and `cors:` over the defaults).
    public var headerPolicy: HeaderPolicy = .default
    /// `extension:`: the firestore-bundle-builder extension's specs to build, read from the inputs.
    public var extensionConfig: ExtensionConfig?
    /// What a build should say about the specs it expanded (keys only the extension's function uses).
    public var extensionNotes: [String] = []
    /// The YAML text, kept to resolve queries again once the snapshot time and the documents
    /// are known (relative times, cursors at a document).
    public internal(set) var source: String

    /// Every field a named query or a `for_each` reads from the documents (the document key
    /// left out): all a build needs of the documents besides the ones it ships.
    public var fieldsRead: [FieldPath] {
        var seen: Set<FieldPath> = []
        let read = bundles.flatMap { $0.queries.flatMap(\.query.fieldsRead) }
            + fanOuts.flatMap { fanOut -> [FieldPath] in
                guard case .field(let field, _) = fanOut.source else { return fanOut.fieldsRead }
                return fanOut.fieldsRead + [field]
            }
        return read.filter { !$0.isDocumentKey && seen.insert($0).inserted }
    }

    /// The `fields:`/`redact:` rules of the bundle `id`, made by the `for_each` whose id is
    /// `template` when it was: a fan-out's rules are its template's, which every value fills in
    /// alike but for a placeholder in a collection or field name.
    public func fieldPolicy(forBundle id: String, template: String?) -> FieldPolicy {
        if let bundle = bundles.first(where: { $0.id == id }) { return bundle.fieldPolicy }
        return fanOuts.first { $0.idTemplate == template }?.fieldPolicy ?? fieldPolicy
    }

    /// The site directory: ``output`` resolved against ``baseDirectory``.
    public var outputDirectory: String {
        output.hasPrefix("/") || baseDirectory == "." ? output : (baseDirectory as NSString).appendingPathComponent(output)
    }

    init(
        file: String, baseDirectory: String, database: DatabaseID, snapshotTime: Timestamp?, output: String,
        gzipLevel: Int, clients: ClientPlatform, duplicates: DuplicatePolicy, inputs: [InputSpec], bundles: [BundleSpec], source: String
    ) {
        self.file = file
        self.baseDirectory = baseDirectory
        self.database = database
        self.snapshotTime = snapshotTime
        self.output = output
        self.gzipLevel = gzipLevel
        self.clients = clients
        self.duplicates = duplicates
        self.inputs = inputs
        self.bundles = bundles
        self.source = source
    }
}

extension ClientPlatform {
    /// The readers bundles for these clients must load in: web-only sites may use OR filters.
    /// The build writes with it and `verify` reads with it (from the manifest's `clients`).
    public var bundleAudience: BundleAudience {
        isSubset(of: .web) ? .webOnly : .allClients
    }
}

/// How duplicate document names across the inputs are handled.
public enum DuplicatePolicy: String, Sendable, CaseIterable {
    /// A document that appears twice is an error naming both places (the default).
    case error
    /// The occurrence read last (inputs in config order, files in name order) wins.
    case lastWins = "last-wins"
}

/// One `inputs:` entry: a glob relative to the config's folder, an optional format, and the
/// types of fields a lossy format cannot tell.
public struct InputSpec: Sendable {
    public var pattern: String
    public var format: ExportFormat?
    /// The types of fields the format cannot tell (`hints:`); empty for most inputs.
    public var hints: TypeHints
    public var location: SourceLocation?

    public init(pattern: String, format: ExportFormat?, hints: TypeHints = TypeHints(), location: SourceLocation?) {
        self.pattern = pattern
        self.format = format
        self.hints = hints
        self.location = location
    }
}

/// One `bundles:` entry.
public struct BundleSpec: Sendable {
    /// The bundle id: part of the file name and the id clients cache the bundle under.
    public var id: String
    /// Documents included explicitly, besides the results of the named queries.
    public var documents: [ResourcePath]
    public var queries: [NamedQuerySpec]
    public var location: SourceLocation?
    /// The bundle's own `max_bundle_bytes:`, overriding `budgets.max_bundle_bytes`.
    public var maxBytes: SizeLimit?
    /// The `for_each` value this bundle was made for, if it was.
    public var fanOut: FanOutBinding?
    /// The fields it publishes: the site's rules with the bundle's own over them.
    public var fieldPolicy = FieldPolicy()
    /// The extension's bundle spec and parameter values this bundle was made for, if it was.
    public var extensionSpec: ExtensionBinding?
    /// Whether its named queries and listed documents get server-rendering snapshots (the
    /// bundle's `snapshots:` and the site's, both true unless set to false).
    public var snapshots = true

    public init(
        id: String, documents: [ResourcePath], queries: [NamedQuerySpec], location: SourceLocation?, maxBytes: SizeLimit? = nil,
        fanOut: FanOutBinding? = nil
    ) {
        self.id = id
        self.documents = documents
        self.queries = queries
        self.location = location
        self.maxBytes = maxBytes
        self.fanOut = fanOut
    }
}

/// A named query of a bundle: the name apps pass to `namedQuery()`, and the query.
public struct NamedQuerySpec: Sendable {
    public var name: String
    public var query: Query
    public var location: SourceLocation?
    /// The documents the query's cursors are at (`start_at: {document: path}`): its cursor
    /// values come from them.
    public var cursorDocuments: [ResourcePath]

    /// Where the query names its fields (`where:`, `order_by:`), in the order it names them;
    /// empty for a raw `structured_query:`.
    public var fieldMentions: [FieldMention] = []

    public init(name: String, query: Query, location: SourceLocation?, cursorDocuments: [ResourcePath] = []) {
        self.name = name
        self.query = query
        self.location = location
        self.cursorDocuments = cursorDocuments
    }
}

/// Where a named query names a field, for messages about the field.
public struct FieldMention: Sendable, Equatable {
    public enum Role: String, Sendable {
        /// In a filter of `where:` (the filters in the order written, groups' members in place).
        case filter = "where"
        case orderBy = "order_by"
    }

    public var field: FieldPath
    public var role: Role
    /// The field's own position in pipeline.yml.
    public var location: SourceLocation?

    public init(field: FieldPath, role: Role, location: SourceLocation?) {
        self.field = field
        self.role = role
        self.location = location
    }
}

/// `warnings:`: what a build does when the config does not fit the data.
public enum WarningMode: String, Sendable, CaseIterable {
    /// Publish, and say so (the default).
    case warn
    /// Fail the build and publish nothing (for CI).
    case error
}
