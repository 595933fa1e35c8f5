import ExportReader
import JSONCore
import QueryEngine

/// A JSON Schema (draft 2020-12) of `pipeline.yml`, for editors (yaml-language-server, JetBrains)
/// to complete and check the file as it is typed (`bundlepress schema`).
///
/// Every mapping's keys come from the lists the parser checks keys against, so a key the parser
/// learns is a key the schema must describe (``json`` stops on a key it has no description
/// for, which the tests exercise). The schema checks shape; the parser's checks go further
/// (queries against Firestore's limits and the clients, field policies against the queries).
public enum PipelineSchema {
    /// The schema's `$id`.
    public static let id = "urn:bundlepress:pipeline.yml"

    /// The schema as compact JSON text.
    public static var json: String {
        var writer = JSONWriter()
        root.encode(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: - The definitions

    static var root: SchemaNode {
        .object(
            "A BundlePress site: which Firestore exports to read, which bundles to build from them, where to publish.",
            keys: PipelineConfig.topLevelKeys, required: ["project", "inputs"],
            [
                "project": .string("The Firebase project id of the apps; every document and reference is re-rooted to it."),
                "database": .string("The database id (default \"(default)\")."),
                "snapshot_time": .string("When the export was taken (RFC 3339); every named query's read time. Default: the export's own time, else the newest updateTime."),
                "output": .string("The site directory (default site)."),
                "explorer": .string("A folder inside the output to write the explorer page to (explorer/, or . for the output itself); default: none (bundlepress serve shows it anyway)."),
                "gzip_level": .integer("Compression level of the .gz copies, libdeflate's 1 (fastest) to 12 (smallest); default 6.", in: 1...12),
                "clients": .array(.enumeration("A client platform the site's apps use.", ClientPlatform.allConfigNames), "The clients bundles are made for (default: all)."),
                "duplicates": .enumeration("What a document found twice in the inputs does (default error).", DuplicatePolicy.allCases.map(\.rawValue)),
                "inputs": .array(input, "The exports: globs relative to this file, or mappings with a format and type hints."),
                "bundles": .array(bundle, "The bundles to build, each with its named queries."),
                "retention": .object("How long bundle files an older manifest names are kept.", keys: RetentionPolicy.keys, [
                    "builds": .integer("Newer builds to publish before an old file may go (default 2).", in: 0...1000),
                    "min_age": .string("The least time an old file is kept (e.g. 1h, 2d; default 1h)."),
                ]),
                "budgets": .object("Bundle size limits.", keys: SizeBudget.keys, [
                    "max_bundle_bytes": sizeLimit,
                    "max_snapshot_bytes": .anyOf([.integer("Bytes."), .string("A size: 5MB, 512KiB, 1.5 MB.")], "The largest server-rendering snapshot file (bundles/snapshots/); default: no limit."),
                    "mode": .enumeration("What a bundle or snapshot over its budget does (default fail).", SizeBudget.Mode.allCases.map(\.rawValue)),
                ]),
                "leavers": .object("How long bundles carry changed documents that left them, and deleted ones, for returning clients.", keys: LeaverPolicy.keys, [
                    "keep": .string("The horizon (e.g. 30d, the default)."),
                ]),
                "previous": .string("What was published before when the output holds no state: the deployed site's URL, a directory, or none."),
                "fields": fieldRules(.allow),
                "redact": fieldRules(.redact),
                "snapshots": snapshotSwitch("every bundle"),
                "warnings": .enumeration("What a field no document has, a filter value of a type the field never holds, or a query with no result does: warn (the default) or error (fail the build, for CI).", WarningMode.allCases.map(\.rawValue)),
                "exposure": .object("What a published field that looks like personal data or a secret does.", keys: ExposurePolicy.keys, [
                    "mode": .enumeration("warn (the default) or fail (publish nothing).", ExposurePolicy.Mode.allCases.map(\.rawValue)),
                ]),
                "headers": .array(
                    .object("Response headers for the paths a pattern matches (first match wins).", keys: HeaderPolicyParser.ruleKeys, required: ["source", "headers"], [
                        "source": .string("A path pattern (/bundles/**, /*.html)."),
                        "headers": .map(.string("The header's value."), "Header name → value."),
                    ]),
                    "Header rules over the built-in cache defaults."),
                "extension": .object("Build the bundle specs of the firestore-bundle-builder extension, read from the inputs, as static bundles.", keys: ExtensionConfig.keys, [
                    "collection": .string("The collection of the spec documents (the extension's BUNDLESPEC_COLLECTION; default bundles)."),
                    "params": .map(
                        .map(.any("The values to build the spec for: a list (an array parameter's value is a list), or one value."), "Parameter name → values."),
                        "Spec id → its parameters' values (a required parameter without takes the distinct values of the field it is compared with)."),
                ]),
                "cors": .anyOf(
                    [
                        .constant(false, "No CORS headers at all."),
                        .object("Where CORS headers go, and the allowed origin.", keys: HeaderPolicyParser.corsKeys, [
                            "allow_origin": .string("The Access-Control-Allow-Origin value (default *)."),
                            "paths": .oneOrMany(.string("A path pattern."), "The paths CORS applies to (default /bundles/**)."),
                        ]),
                    ], "CORS for the bundles (default: Access-Control-Allow-Origin: * on /bundles/**)."),
            ])
    }

    static var input: SchemaNode {
        .anyOf(
            [
                .string("A file or glob (*, **), or a managed or emulator export's folder; the format is detected."),
                .object("An input with its format and the types a lossy format cannot tell.", keys: PipelineConfig.inputKeys, required: ["path"], [
                    "path": .string("A file or glob relative to this file, or an export folder."),
                    "format": .enumeration("The export format (detected when omitted).", ExportFormat.allCases.filter(\.isSupported).map(\.rawValue)),
                    "hints": .object("Field paths whose values the format cannot type.", keys: TypeHints.Kind.allCases.map(\.rawValue),
                        Dictionary(uniqueKeysWithValues: TypeHints.Kind.allCases.map { ($0.rawValue, SchemaNode.array(.string("A field path."), "Fields holding \($0.rawValue).")) })),
                ]),
            ], "An export to read.")
    }

    static var bundle: SchemaNode {
        .object(
            "A bundle: one file clients load, with its named queries.", keys: PipelineConfig.bundleKeys, required: ["id"],
            [
                "id": .string("The bundle id: part of the file name and the id clients cache it under ({placeholder} with for_each).", pattern: "^[A-Za-z0-9{][A-Za-z0-9_.{}-]*$"),
                "documents": .array(.string("A document path (collection/id)."), "Documents included besides the query results."),
                "queries": .map(query, "Named query name → query; apps call namedQuery(name)."),
                "max_bundle_bytes": sizeLimit,
                "for_each": .object("Build the bundle once per value, {placeholder} filled in.", keys: FanOutTemplate.keys, [
                    "field": .string("A field whose distinct values (in collection:) make the bundles."),
                    "collection": .string("The collection whose documents the values come from."),
                    "documents": .string("A collection whose document ids make the bundles."),
                    "values": .array(.anyOf([.string("A value."), .integer("A value.")], "A value."), "The values, listed."),
                    "as": .string("The placeholder's name."),
                ]),
                "fields": fieldRules(.allow),
                "redact": fieldRules(.redact),
                "snapshots": snapshotSwitch("this bundle"),
            ])
    }

    /// `snapshots:`, at the top level or in a bundle.
    static func snapshotSwitch(_ scope: String) -> SchemaNode {
        .anyOf(
            [.constant(true, "Write the snapshots."), .constant(false, "Write none.")],
            "Server-rendering snapshots (bundles/snapshots/) for the named queries and listed documents of \(scope) (default true).")
    }

    static var query: SchemaNode {
        let value = SchemaNode.any("A value: string, number, boolean, null, list, mapping, or tagged (!timestamp, !ref, !bytes, !geopoint, !double, !int).")
        let cursor = SchemaNode.anyOf(
            [
                .array(value, "The values of the orderBy fields."),
                .object("The orderBy values of this document.", keys: QueryConfigParser.cursorDocumentKeys, required: ["document"], [
                    "document": .string("A document path."),
                ]),
            ], "A cursor.")
        let filter = SchemaNode.anyOf(
            [
                .tuple([.string("A field path."), .enumeration("The operator.", QueryConfigParser.operators.keys.sorted()), value], "[field, operator, value]."),
                .object("A group of filters: or: […] or and: […].", keys: QueryConfigParser.groupKeys, [
                    "or": .array(.any("A filter."), "Any of these."),
                    "and": .array(.any("A filter."), "All of these."),
                ]),
            ], "A filter.")
        let order = SchemaNode.anyOf(
            [
                .string("A field path (ascending)."),
                .tuple([.string("A field path."), .enumeration("The direction.", ["asc", "ascending", "desc", "descending"])], required: 1, "[field] or [field, direction]."),
            ], "An ordering.")
        return .object(
            "A named query, in the friendly form or as a raw StructuredQuery.", keys: QueryConfigParser.keys,
            [
                "collection": .string("A collection path (stories, stories/s1/comments)."),
                "collection_group": .string("A collection id: every collection so named."),
                "parent": .string("With collection_group: the document under which to look."),
                "where": .array(filter, "Filters, all of which a result matches."),
                "order_by": .oneOrMany(order, "Orderings."),
                "limit": .integer("The first N results.", in: 1...Int(Int32.max)),
                "limit_to_last": .integer("The last N results, in query order.", in: 1...Int(Int32.max)),
                "start_at": cursor, "start_after": cursor, "end_at": cursor, "end_before": cursor,
                "structured_query": .any("A raw Firestore StructuredQuery, as the REST API writes it."),
                "limit_type": .enumeration("With structured_query: FIRST or LAST.", ["FIRST", "LAST"]),
            ])
    }

    static var sizeLimit: SchemaNode {
        .anyOf([.integer("Bytes.", in: 1...Int.max), .string("A size: 1MB, 500kB, 2MiB.")], "The largest raw bundle size.")
    }

    static func fieldRules(_ mode: FieldPolicy.Mode) -> SchemaNode {
        .map(
            .array(.string("A field path (backquoted segments as in queries)."), mode == .allow ? "The only fields published." : "The fields left out."),
            mode == .allow
                ? "Collection id or path (stories/*/comments) → the only fields its documents publish."
                : "Collection id or path (stories/*/comments) → fields its documents do not publish.")
    }
}

/// A JSON Schema node: the few shapes `pipeline.yml` needs.
indirect enum SchemaNode {
    case object(description: String, properties: [(String, SchemaNode)], required: [String])
    case map(SchemaNode, description: String)
    case array(SchemaNode, description: String)
    /// A list of `items` in that order, the first `required` of them required.
    case tuple([SchemaNode], required: Int, description: String)
    case string(description: String, pattern: String?)
    case integer(description: String, range: ClosedRange<Int>?)
    case enumeration(description: String, values: [String])
    case constant(Bool, description: String)
    case anyOf([SchemaNode], description: String)
    case any(description: String)

    /// A mapping with exactly `keys`, each described in `definitions`.
    static func object(_ description: String, keys: [String], required: [String] = [], _ definitions: [String: SchemaNode]) -> SchemaNode {
        .object(description: description, properties: keys.map { key in
            guard let definition = definitions[key] else { preconditionFailure("the schema does not describe the key \(key) the parser reads") }
            return (key, definition)
        }, required: required)
    }

    static func string(_ description: String, pattern: String? = nil) -> SchemaNode { .string(description: description, pattern: pattern) }
    static func integer(_ description: String, in range: ClosedRange<Int>? = nil) -> SchemaNode { .integer(description: description, range: range) }
    static func enumeration(_ description: String, _ values: [String]) -> SchemaNode { .enumeration(description: description, values: values) }
    static func array(_ items: SchemaNode, _ description: String) -> SchemaNode { .array(items, description: description) }
    static func map(_ values: SchemaNode, _ description: String) -> SchemaNode { .map(values, description: description) }
    static func tuple(_ items: [SchemaNode], required: Int? = nil, _ description: String) -> SchemaNode {
        .tuple(items, required: required ?? items.count, description: description)
    }
    static func constant(_ value: Bool, _ description: String) -> SchemaNode { .constant(value, description: description) }
    static func anyOf(_ options: [SchemaNode], _ description: String) -> SchemaNode { .anyOf(options, description: description) }
    static func any(_ description: String) -> SchemaNode { .any(description: description) }
    /// One item, or a list of them (the parser's `sequenceOrSingle`).
    static func oneOrMany(_ item: SchemaNode, _ description: String) -> SchemaNode { .anyOf([item, .array(item, description)], description) }

    func encode(into writer: inout JSONWriter, isRoot: Bool = true) {
        writer.byte(UInt8(ascii: "{"))
        if isRoot {
            writer.raw("\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":")
            writer.string(PipelineSchema.id)
            writer.raw(",\"title\":\"pipeline.yml\",")
        }
        writer.raw("\"description\":")
        writer.string(description)
        switch self {
        case .object(_, let properties, let required):
            writer.raw(",\"type\":\"object\",\"additionalProperties\":false,\"properties\":{")
            for (index, (key, node)) in properties.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.key(key)
                node.encode(into: &writer, isRoot: false)
            }
            writer.byte(UInt8(ascii: "}"))
            if !required.isEmpty {
                writer.raw(",\"required\":")
                Self.list(required, into: &writer) { $0.string($1) }
            }
        case .map(let values, _):
            writer.raw(",\"type\":\"object\",\"additionalProperties\":")
            values.encode(into: &writer, isRoot: false)
        case .array(let items, _):
            writer.raw(",\"type\":\"array\",\"items\":")
            items.encode(into: &writer, isRoot: false)
        case .tuple(let items, let required, _):
            writer.raw(bytes: ",\"type\":\"array\",\"minItems\":\(required),\"maxItems\":\(items.count),\"prefixItems\":".utf8)
            Self.list(items, into: &writer) { $1.encode(into: &$0, isRoot: false) }
        case .string(_, let pattern):
            writer.raw(",\"type\":\"string\"")
            if let pattern {
                writer.raw(",\"pattern\":")
                writer.string(pattern)
            }
        case .integer(_, let range):
            writer.raw(",\"type\":\"integer\"")
            if let range { writer.raw(bytes: ",\"minimum\":\(range.lowerBound),\"maximum\":\(range.upperBound)".utf8) }
        case .enumeration(_, let values):
            writer.raw(",\"enum\":")
            Self.list(values, into: &writer) { $0.string($1) }
        case .constant(let value, _):
            writer.raw(value ? ",\"const\":true" : ",\"const\":false")
        case .anyOf(let options, _):
            writer.raw(",\"anyOf\":")
            Self.list(options, into: &writer) { $1.encode(into: &$0, isRoot: false) }
        case .any:
            break
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// Writes `[…]`, each item by `item`.
    private static func list<Item>(_ items: [Item], into writer: inout JSONWriter, _ item: (inout JSONWriter, Item) -> Void) {
        writer.byte(UInt8(ascii: "["))
        for (index, element) in items.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            item(&writer, element)
        }
        writer.byte(UInt8(ascii: "]"))
    }

    var description: String {
        switch self {
        case .object(let description, _, _), .map(_, let description), .array(_, let description), .tuple(_, _, let description),
            .string(let description, _), .integer(let description, _), .enumeration(let description, _), .constant(_, let description),
            .anyOf(_, let description), .any(let description):
            return description
        }
    }
}
