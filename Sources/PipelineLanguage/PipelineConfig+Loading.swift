import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import QueryEngine
import Yams

extension PipelineConfig {
    static let topLevelKeys = [
        "project", "database", "snapshot_time", "output", "gzip_level", "clients", "duplicates", "inputs", "bundles",
        "retention", "budgets", "leavers", "previous", "fields", "redact", "exposure",
        "headers", "cors", "warnings", "extension", "snapshots", "explorer",
    ]

    /// The keys of an `inputs:` item written as a mapping.
    static let inputKeys = ["path", "format", "hints"]

    /// The keys of a `bundles:` item.
    static let bundleKeys = ["id", "documents", "queries", "max_bundle_bytes", "for_each", "fields", "redact", "snapshots"]

    /// `explorer:`: a folder inside the output for the explorer page (`explorer/`; `.` for the
    /// output itself), `/`-separated, without `..`, dot folders or `bundles`, and of plain names:
    /// the header rules for production hosts name the folder (``SitePolicy/HeaderPolicy/forProductionHosts(explorer:)``).
    static func parseExplorer(_ node: ConfigNode) throws(ConfigError) -> String {
        let text = try node.string()
        let parts = text.split(separator: "/").filter { $0 != "." }
        guard !text.hasPrefix("/"), !text.isEmpty else {
            throw node.error("explorer must be a folder inside the output, such as explorer/ (or . for the output itself), found \"\(text)\"")
        }
        if let bad = parts.first(where: { $0.hasPrefix(".") }) {
            throw node.error("explorer must be a folder inside the output without .. or dot folders (hidden from every host), found \"\(bad)\" in \"\(text)\"")
        }
        if let bad = parts.first(where: { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || "*?[]\\".unicodeScalars.contains($0) } }) {
            throw node.error("explorer must be a folder of plain names, without *, ?, [, ], \\ or control characters (header rules name it), found \"\(bad)\" in \"\(text)\"")
        }
        if parts.first == "bundles" {
            throw node.error("explorer cannot be under bundles/, which holds the bundles only; use a folder such as explorer/")
        }
        return parts.joined(separator: "/")
    }

    /// Reads and validates `pipeline.yml`. Every problem is a ``ConfigError`` naming the line.
    public static func load(file: String) throws(ConfigError) -> PipelineConfig {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ConfigError("cannot read the config file \(file): \(error.localizedDescription)", at: nil)
        }
        let directory = (file as NSString).deletingLastPathComponent
        return try parse(yaml: text, file: file, baseDirectory: directory.isEmpty ? "." : directory)
    }

    /// Parses config text (the testable core of ``load(file:)``).
    public static func parse(yaml text: String, file: String, baseDirectory: String) throws(ConfigError) -> PipelineConfig {
        try parse(yaml: text, file: file, baseDirectory: baseDirectory, context: .validationOnly)
    }

    /// The same config with every named query resolved against the build's snapshot time and
    /// documents (relative timestamps, cursors at a document, a `for_each`'s values). With
    /// `readingCursorDocuments` false, a cursor at a document keeps stand-in values: what the
    /// queries read is then known before the store holds it (a field name with a placeholder).
    public func resolvingQueries(snapshotTime: Timestamp, store: DocumentStore, readingCursorDocuments: Bool = true) throws(ConfigError) -> PipelineConfig {
        var context = QueryContext(snapshotTime: snapshotTime, store: store)
        context.readsCursorDocuments = readingCursorDocuments
        return try Self.parse(yaml: source, file: file, baseDirectory: baseDirectory, context: context)
    }

    /// The named queries whose values are known before the inputs are read, by name: those with
    /// no cursor at a document and, unless `snapshot_time:` is set, no time relative to the
    /// snapshot (`now-7d`), resolved as ``resolvingQueries(snapshotTime:store:)`` will resolve
    /// them. The queries of a `for_each` over the inputs' values are made once they are read:
    /// none of them is known (those of a `for_each` over listed `values:` are).
    public func queriesKnownBeforeReading() throws(ConfigError) -> [String: Query] {
        func queries(at time: Timestamp) throws(ConfigError) -> [String: NamedQuerySpec] {
            let resolved = try Self.parse(yaml: source, file: file, baseDirectory: baseDirectory, context: QueryContext(snapshotTime: time, store: nil))
            // A for_each over the inputs' values has no bundles until they are read.
            return Dictionary(resolved.bundles.flatMap(\.queries).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let known = try queries(at: snapshotTime ?? QueryContext.provisionalSnapshotTime)
        // Without snapshot_time: a query that reads the same at two times depends on neither.
        let other = snapshotTime == nil ? try queries(at: QueryContext.otherProvisionalSnapshotTime) : known
        return known.filter { name, spec in spec.cursorDocuments.isEmpty && other[name]?.query == spec.query }.mapValues(\.query)
    }

    static func parse(yaml text: String, file: String, baseDirectory: String, context: QueryContext) throws(ConfigError) -> PipelineConfig {
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else {
                throw ConfigError("the config file is empty; it needs at least project, inputs and bundles", at: SourceLocation(file: file, line: 1, column: 1))
            }
            root = composed
        } catch let error as ConfigError {
            throw error
        } catch let error as YamlError {
            throw ConfigError.fromYAML(error, file: file, text: text)
        } catch {
            throw ConfigError("cannot parse YAML: \(error)", at: nil)
        }
        let top = try ConfigNode(node: root, file: file, path: "").mapping(allowed: topLevelKeys)

        let projectNode = try top.required("project")
        let project = try projectNode.string()
        try validateDatabaseSegment(project, kind: "project", node: projectNode)
        var databaseName = DatabaseID.defaultDatabase
        if let node = top["database"] {
            databaseName = try node.string()
            try validateDatabaseSegment(databaseName, kind: "database", node: node)
        }
        let database = DatabaseID(project: project, database: databaseName)

        let snapshotTime = try top["snapshot_time"].map { node throws(ConfigError) -> Timestamp in
            let text = try node.string()
            do throws(TimestampError) {
                return try Timestamp(rfc3339: text)
            } catch {
                throw node.error("snapshot_time: \(error.message)")
            }
        }
        if let snapshotTime, !snapshotTime.isPositive {
            throw top["snapshot_time"]!.error("snapshot_time must be after 1970-01-01T00:00:00Z: clients reject bundles with zero times")
        }

        let output = try top["output"]?.string() ?? "site"
        let explorer = try top["explorer"].map(parseExplorer)
        let gzipLevel = try top["gzip_level"]?.int(in: 1...12) ?? 6
        let clients = try top["clients"].map(parseClients) ?? .all
        let duplicates = try top["duplicates"].map { node throws(ConfigError) -> DuplicatePolicy in
            let text = try node.string()
            guard let policy = DuplicatePolicy(rawValue: text) else {
                throw node.error("duplicates must be one of \(DuplicatePolicy.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"")
            }
            return policy
        } ?? .error

        let inputsNode = try top.required("inputs")
        let inputs = try inputsNode.sequence().map(parseInput)
        if inputs.isEmpty { throw inputsNode.error("inputs must list at least one export file or glob") }

        let retention = try top["retention"].map(RetentionPolicy.parse) ?? .default
        let leavers = try top["leavers"].map(LeaverPolicy.parse) ?? .default
        let exposure = try top["exposure"].map(ExposurePolicy.parse) ?? .default
        let warnings = try top["warnings"].map { node throws(ConfigError) -> WarningMode in
            let text = try node.string()
            guard let mode = WarningMode(rawValue: text) else {
                throw node.error("warnings must be one of \(WarningMode.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(text)\"")
            }
            return mode
        } ?? .warn
        let previous = try top["previous"].map { node throws(ConfigError) -> PreviousSite in
            let text = try node.string()
            do throws(PreviousSiteError) {
                return try PreviousSite(parsing: text, relativeTo: baseDirectory)
            } catch {
                throw node.error(error.description)
            }
        }
        let budgets = try top["budgets"].map(SizeBudget.parse) ?? SizeBudget()

        let fieldPolicy = try FieldPolicy.parse(fields: top["fields"], redact: top["redact"])
        let snapshots = try top["snapshots"]?.bool() ?? true
        let extensionConfig = try top["extension"].map(ExtensionConfig.parse)
        // With extension: the specs in the inputs make the bundles; bundles: may add others.
        let bundlesNode = extensionConfig != nil && top["bundles"] == nil ? nil : try top.required("bundles")
        let queryParser = QueryConfigParser(database: database, clients: clients, context: context)
        var bundles: [BundleSpec] = []
        var fanOuts: [FanOut] = []
        var queryOwners: [String: (bundle: String, location: SourceLocation?)] = [:]
        for bundleNode in try bundlesNode?.sequence() ?? [] {
            let (fanOut, entries) = try FanOutTemplate.entries(of: bundleNode, bundleKeys: bundleKeys, store: context.store)
            if let fanOut { fanOuts.append(fanOut) }
            for entry in entries {
                var bundle = try parseBundle(entry.node, binding: entry.binding, queryParser: queryParser, sitePolicy: fieldPolicy)
                bundle.snapshots = bundle.snapshots && snapshots
                if fanOut != nil {
                    fanOuts[fanOuts.count - 1].fieldPolicy = bundle.fieldPolicy
                    fanOuts[fanOuts.count - 1].fieldsRead = bundle.queries.flatMap(\.query.fieldsRead)
                }
                if entry.isStandIn {
                    if FanOutTemplate.fixesScope(bundleNode) {
                        fanOuts[fanOuts.count - 1].scope = FanOut.Scope(
                            queries: bundle.queries.map(\.query), documents: bundle.documents + bundle.queries.flatMap(\.cursorDocuments))
                    }
                    continue
                }
                if let other = bundles.first(where: { $0.id == bundle.id }) {
                    throw entry.node.error("bundle id \"\(bundle.id)\" is used twice (also at \(other.location.map(String.init(describing:)) ?? "?"))")
                }
                for query in bundle.queries {
                    if let owner = queryOwners[query.name] {
                        throw ConfigError(
                            "named query \"\(query.name)\" is defined twice (also in bundle \"\(owner.bundle)\" at \(owner.location.map(String.init(describing:)) ?? "?")); clients look named queries up by name alone, so names must be unique across the site",
                            at: query.location)
                    }
                    queryOwners[query.name] = (bundle.id, query.location)
                }
                for other in bundles {
                    if let (collection, _, _) = bundle.conflictingFieldPolicy(with: other) {
                        throw entry.node.error(
                            "bundles \"\(other.id)\" and \"\(bundle.id)\" both publish documents of \(collection) with different fields: or redact: rules; clients keep one version of a document, whichever bundle they loaded first, so every bundle must publish the same fields of it (set the rule at the top level)")
                    }
                }
                bundles.append(bundle)
            }
        }
        if let bundlesNode, bundles.isEmpty && fanOuts.isEmpty { throw bundlesNode.error("bundles must define at least one bundle") }

        var config = PipelineConfig(
            file: file, baseDirectory: baseDirectory, database: database, snapshotTime: snapshotTime, output: output,
            gzipLevel: gzipLevel, clients: clients, duplicates: duplicates, inputs: inputs, bundles: bundles, source: text)
        config.fanOuts = fanOuts
        config.extensionConfig = extensionConfig
        config.retention = retention
        config.explorer = explorer
        config.leavers = leavers
        config.fieldPolicy = fieldPolicy
        config.snapshots = snapshots
        config.exposure = exposure
        config.warnings = warnings
        config.previous = previous
        config.budgets = budgets
        config.headerPolicy = try HeaderPolicyParser.parse(headers: top["headers"], cors: top["cors"])
        return config
    }

    private static func validateDatabaseSegment(_ value: String, kind: String, node: ConfigNode) throws(ConfigError) {
        guard !value.isEmpty, !value.contains("/") else {
            throw node.error("\(kind) must be a non-empty id without '/', found \"\(value)\"")
        }
    }

    private static func parseClients(_ node: ConfigNode) throws(ConfigError) -> ClientPlatform {
        var clients: ClientPlatform = []
        for item in try node.sequence() {
            let name = try item.string()
            guard let client = ClientPlatform(configName: name) else {
                throw item.error("unknown client \"\(name)\"; expected one of: \(ClientPlatform.allConfigNames.joined(separator: ", "))")
            }
            clients.insert(client)
        }
        if clients.isEmpty { throw node.error("clients must name at least one of: \(ClientPlatform.allConfigNames.joined(separator: ", "))") }
        return clients
    }

    private static func parseInput(_ node: ConfigNode) throws(ConfigError) -> InputSpec {
        if case .scalar = node.node {
            return InputSpec(pattern: try node.string(), format: nil, location: node.location)
        }
        let entry = try node.mapping(allowed: inputKeys)
        let pattern = try entry.required("path").string()
        let format = try entry["format"].map { formatNode throws(ConfigError) -> ExportFormat in
            let name = try formatNode.string()
            guard let format = ExportFormat(rawValue: name) else {
                throw formatNode.error("unknown format \"\(name)\"; expected one of: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return format
        }
        let hints = try entry["hints"].map { hintsNode throws(ConfigError) in try TypeHints(config: hintsNode, format: format) } ?? TypeHints()
        return InputSpec(pattern: pattern, format: format, hints: hints, location: node.location)
    }

    private static func parseBundle(
        _ node: ConfigNode, binding: FanOutBinding?, queryParser: QueryConfigParser, sitePolicy: FieldPolicy
    ) throws(ConfigError) -> BundleSpec {
        let entry = try node.mapping(allowed: bundleKeys)
        let idNode = try entry.required("id")
        let id = try idNode.string()
        guard Identifier.isValid(id) else {
            throw idNode.error("bundle id \"\(id)\" is not valid: \(Identifier.rule)")
        }
        var documents: [ResourcePath] = []
        for documentNode in try entry["documents"]?.sequence() ?? [] {
            let text = try documentNode.string()
            let path: ResourcePath
            do {
                path = try ResourcePath(parsing: text)
            } catch {
                throw documentNode.error("document path: \(error.message)")
            }
            guard path.isDocument else {
                throw documentNode.error("\"\(text)\" is not a document path (it needs an even number of segments, e.g. site/settings)")
            }
            documents.append(path)
        }
        var queries: [NamedQuerySpec] = []
        for (name, keyNode, queryNode) in try entry["queries"]?.namedEntries() ?? [] {
            guard Identifier.isValid(name) else {
                throw keyNode.error("named query name \"\(name)\" is not valid: \(Identifier.rule)")
            }
            let query = try queryParser.parse(queryNode)
            var spec = NamedQuerySpec(name: name, query: query, location: keyNode.location, cursorDocuments: try queryParser.cursorDocuments(of: queryNode))
            spec.fieldMentions = queryParser.fieldMentions(of: queryNode)
            queries.append(spec)
        }
        if documents.isEmpty && queries.isEmpty {
            throw node.error("bundle \"\(id)\" has neither documents nor queries; it would be empty")
        }
        let maxBytes = try entry["max_bundle_bytes"].map(SizeLimit.parse)
        var bundle = BundleSpec(id: id, documents: documents, queries: queries, location: node.location, maxBytes: maxBytes, fanOut: binding)
        bundle.fieldPolicy = sitePolicy.overridden(by: try FieldPolicy.parse(fields: entry["fields"], redact: entry["redact"]))
        bundle.snapshots = try entry["snapshots"]?.bool() ?? true
        for query in queries { try bundle.fieldPolicy.check(query, bundle: id) }
        return bundle
    }
}

/// The rule for bundle ids and named-query names: they appear in file names, URLs and the
/// clients' bundle cache (where '/' would break the umbrella target path).
enum Identifier {
    static let rule = "use 1–100 characters from A–Z, a–z, 0–9, '-', '_' and '.', starting with a letter or digit"

    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...100).contains(bytes.count), let first = bytes.first, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
}

extension ConfigError {
    /// Turns a Yams error into a ConfigError with the YAML position. `text` is the config: an
    /// operator that YAML cannot read unquoted (`>=`, `>`) is named at its own column.
    static func fromYAML(_ error: YamlError, file: String, text: String) -> ConfigError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            if let (op, column) = unquotedOperator(in: text, line: mark.line, before: mark.column) {
                return ConfigError(
                    "quote the operator: '\(op)' (unquoted, YAML reads > as the start of a folded text)",
                    at: SourceLocation(file: file, line: mark.line, column: column))
            }
            let prefix = context.map { "\($0.text) " } ?? ""
            return ConfigError("invalid YAML: \(prefix)\(problem)", at: SourceLocation(file: file, line: mark.line, column: mark.column))
        case let .duplicatedKeysInMapping(duplicates, context):
            return ConfigError(
                "the key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) appears twice in the same mapping",
                at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column))
        default:
            return ConfigError("invalid YAML: \(error)", at: nil)
        }
    }

    /// The last unquoted `>=` or `>` that stands as a list item or a flow-list entry on `line`
    /// (1-based) of `text`, at or before `column`, with its column: where YAML fails on a filter
    /// `[score, >=, 400]` or `- >=`.
    static func unquotedOperator(in text: String, line: Int, before column: Int) -> (String, Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let characters = Array(lines[line - 1])
        var found: (String, Int)?
        var quote: Character?
        for (index, character) in characters.enumerated() where index < column {
            if let open = quote {
                if character == open { quote = nil }
                continue
            }
            if character == "#" { break }
            if character == "'" || character == "\"" { quote = character; continue }
            guard character == ">" else { continue }
            let before = characters[..<index].last { $0 != " " }
            guard before == nil || before == "[" || before == "," || before == "-" else { continue }
            let op = index + 1 < characters.count && characters[index + 1] == "=" ? ">=" : ">"
            let after = index + op.count < characters.count ? characters[index + op.count] : " "
            guard after == " " || after == "," || after == "]" else { continue }
            found = (op, index + 1)
        }
        return found
    }
}
