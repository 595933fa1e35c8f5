import FirestoreModel

/// A bundle spec of the `firestore-bundle-builder` extension: one document of its spec
/// collection, read as the extension's function reads it (`docs`, `queries`, `params`,
/// `clientCache`, `serverCache`; `fileCache` and `notBefore` only concern the function).
///
/// Parsing checks the shape; values are filled in per combination of parameter values by
/// ``SpecFilling``. Every error names the spec document and, for a condition, which one.
public struct ExtensionSpec: Sendable {
    /// The keys a spec may have; the last two are accepted and reported as unused.
    static let keys = ["docs", "queries", "params", "clientCache", "serverCache", "fileCache", "notBefore"]
    static let unusedKeys = ["fileCache", "notBefore"]

    /// The spec document's path; its id is the spec id (the extension's `/bundles/<id>`).
    public var path: ResourcePath
    /// `docs`: document paths, `$name` segments standing for parameters.
    var documents: [String]
    /// `queries`, in name order.
    var queries: [SpecQuery]
    /// `params`, by name.
    var parameters: [String: SpecParameter]
    /// `clientCache`, `serverCache`: seconds browsers and CDNs may keep the bundle.
    public var clientCache: Int?
    public var serverCache: Int?
    /// The keys present that only the extension's function uses (`fileCache`, `notBefore`).
    public var unusedKeys: [String]

    /// The spec id.
    public var id: String { path.lastSegment! }

    /// An error about this spec; `part` says where in it (`queries.latest.conditions[2]`).
    func error(_ message: String, at part: String? = nil) -> ConfigError {
        ConfigError("bundle spec \(path)\(part.map { ", \($0)" } ?? ""): \(message)", at: nil)
    }

    /// Reads the spec document `document`.
    public init(_ document: Document) throws(ConfigError) {
        path = document.path
        documents = []
        queries = []
        parameters = [:]
        unusedKeys = []
        let fields = document.fields
        for field in fields.fields where !Self.keys.contains(field.key) {
            throw error("unknown key \"\(field.key)\"; a bundle spec has \(Self.keys.joined(separator: ", "))")
        }
        unusedKeys = Self.unusedKeys.filter { fields[$0] != nil }

        if let docs = fields["docs"] {
            guard case .array(let items) = docs else { throw error("docs must be an array of document paths, found \(docs.typeName)") }
            documents = try items.enumerated().map { index, item throws(ConfigError) -> String in
                guard case .string(let text) = item else { throw error("must be a document path (a string), found \(item.typeName)", at: "docs[\(index)]") }
                return text
            }
        }
        if let params = fields["params"] {
            guard case .map(let map) = params else { throw error("params must be a map of name → {type, required}, found \(params.typeName)") }
            for field in map.fields {
                parameters[field.key] = try SpecParameter(field.value, name: field.key, spec: self)
            }
        }
        if let queriesValue = fields["queries"] {
            guard case .map(let map) = queriesValue else { throw error("queries must be a map of name → query, found \(queriesValue.typeName)") }
            queries = try map.fields.map { field throws(ConfigError) in try SpecQuery(field.value, name: field.key, spec: self) }
        }
        if documents.isEmpty && queries.isEmpty {
            throw error("it has neither docs nor queries; its bundle would be empty")
        }
        clientCache = try seconds(fields["clientCache"], key: "clientCache")
        serverCache = try seconds(fields["serverCache"], key: "serverCache")
    }

    /// A cache lifetime: whole seconds, as a number or a string of digits.
    private func seconds(_ value: Value?, key: String) throws(ConfigError) -> Int? {
        switch value {
        case nil, .null?:
            return nil
        case .integer(let seconds)? where seconds >= 0 && seconds <= Int64(Int32.max):
            return Int(seconds)
        case .double(let seconds)? where seconds >= 0 && seconds <= Double(Int32.max) && seconds.rounded() == seconds:
            return Int(seconds)
        case .string(let text)? where Int32(text).map { $0 >= 0 } ?? false:
            return Int(text)
        case let other?:
            throw error("\(key) must be whole seconds (a number or a string of digits), found \(SpecText.describe(other))")
        }
    }

    /// The parameters the spec declares, in name order (by UTF-8 bytes).
    var parameterNames: [String] {
        parameters.keys.sorted { UTF8Order.compare($0, $1) == .less }
    }
}

/// One named query of a spec: `{collection, collectionGroupQuery?, conditions?}`.
struct SpecQuery: Sendable {
    static let keys = ["collection", "collectionGroupQuery", "conditions"]

    var name: String
    /// The collection path (or, for a collection group, its id), `$name` segments standing for
    /// parameters.
    var collection: String
    var isCollectionGroup: Bool
    var conditions: [SpecCondition]

    init(_ value: Value, name: String, spec: ExtensionSpec) throws(ConfigError) {
        self.name = name
        let part = "queries.\(name)"
        guard case .map(let map) = value else { throw spec.error("a query is a map {collection, collectionGroupQuery, conditions}, found \(value.typeName)", at: part) }
        for field in map.fields where !Self.keys.contains(field.key) {
            throw spec.error("unknown key \"\(field.key)\"; a query has \(Self.keys.joined(separator: ", "))", at: part)
        }
        guard case .string(let collection)? = map["collection"] else {
            throw spec.error("collection must be a collection path (a string)", at: part)
        }
        self.collection = collection
        switch map["collectionGroupQuery"] {
        case nil, .null?: isCollectionGroup = false
        case .boolean(let flag)?: isCollectionGroup = flag
        case let other?: throw spec.error("collectionGroupQuery must be true or false, found \(SpecText.describe(other))", at: part)
        }
        switch map["conditions"] {
        case nil, .null?:
            conditions = []
        case .array(let items)?:
            conditions = try items.enumerated().map { index, item throws(ConfigError) in
                try SpecCondition(item, at: "\(part).conditions[\(index)]", spec: spec)
            }
        case let other?:
            throw spec.error("conditions must be an array, found \(other.typeName)", at: part)
        }
    }
}

/// One condition of a spec query: an object with exactly one key.
struct SpecCondition: Sendable {
    static let keys = ["where", "orderBy", "limit", "limitToLast", "offset", "startAt", "startAfter", "endAt", "endBefore"]

    /// The condition's key (`where`, `limit`, …).
    var kind: String
    /// Its value as the spec holds it: `[field, op, value]` for `where`, `[field, direction?]`
    /// for `orderBy`, a number or a parameter for the others.
    var value: Value
    /// Where it is and what it says, for messages: `queries.latest.conditions[2] {where: ["a", "==", 1]}`.
    var label: String

    init(_ condition: Value, at part: String, spec: ExtensionSpec) throws(ConfigError) {
        guard case .map(let map) = condition else {
            throw spec.error("a condition is an object with one key (\(Self.keys.joined(separator: ", "))), found \(SpecText.describe(condition))", at: part)
        }
        label = "\(part) \(SpecText.describe(condition))"
        guard map.count == 1, let only = map.fields.first else {
            let found = map.fields.isEmpty ? "none" : map.fields.map(\.key).joined(separator: ", ")
            throw spec.error("a condition has exactly one key, found \(found)", at: label)
        }
        guard Self.keys.contains(only.key) else {
            let hint = NameSuggestions.closest(to: only.key, among: Self.keys)
            let suggestion = hint.isEmpty ? "" : NameSuggestions.didYouMean(hint) + "; "
            throw spec.error("unknown condition \"\(only.key)\"; \(suggestion)expected one of: \(Self.keys.joined(separator: ", "))", at: label)
        }
        kind = only.key
        value = only.value
    }
}

/// Values as the extension's users write them in the Firestore console or JSON: for messages.
enum SpecText {
    static func describe(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .boolean(let flag): return String(flag)
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        case .map(let map): return "{" + map.fields.map { "\($0.key): \(describe($0.value))" }.joined(separator: ", ") + "}"
        case .timestamp(let time): return time.rfc3339
        case .reference(let name): return name.path.description
        default: return value.typeName
        }
    }
}
