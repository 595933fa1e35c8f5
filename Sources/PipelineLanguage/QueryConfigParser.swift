import FirestoreModel
import JSONCore
import QueryEngine
import Yams

/// What a named query's YAML may refer to beyond itself: the build's snapshot time (for
/// `!timestamp now-7d`) and the documents (for cursors at a document). At config load time
/// neither is known yet; the query is then checked with stand-ins and resolved again later.
struct QueryContext {
    /// The snapshot time relative timestamps count from; nil while only validating.
    var snapshotTime: Timestamp?
    /// The loaded documents, for `start_at: {document: …}` and a `for_each`'s values; nil while
    /// only validating.
    var store: DocumentStore?
    /// False to leave cursors at a document as stand-ins even with a store.
    var readsCursorDocuments = true

    static let validationOnly = QueryContext(snapshotTime: nil, store: nil)

    /// A stand-in snapshot time for validating relative timestamps before inputs are read.
    static let provisionalSnapshotTime = try! Timestamp(rfc3339: "2000-01-01T00:00:00Z")
    /// Another: a query that resolves alike at both does not depend on the snapshot time.
    static let otherProvisionalSnapshotTime = try! Timestamp(rfc3339: "2001-02-03T04:05:06.789Z")
}

/// Reads the `queries:` entries of `pipeline.yml` into ``QueryEngine/Query`` values.
///
/// The language (README, "Named queries"): `collection:` a path (`stories`,
/// `stories/s1/comments`) or `collection_group:` an id with an optional `parent:` document;
/// `where:` a list of `[field, op, value]` triples and `{or: […]}` / `{and: […]}` groups;
/// `order_by:` fields or `[field, asc|desc]`; `limit:` or `limit_to_last:`; cursors
/// `start_at`, `start_after`, `end_at`, `end_before` as a list of values or
/// `{document: path}`; or a raw `structured_query:` for power users.
struct QueryConfigParser {
    let database: DatabaseID
    let clients: ClientPlatform
    let context: QueryContext

    static let keys = [
        "collection", "collection_group", "parent", "where", "order_by", "limit", "limit_to_last",
        "start_at", "start_after", "end_at", "end_before", "structured_query", "limit_type",
    ]
    /// The keys of a filter group (`{or: […]}`), and of a cursor at a document.
    static let groupKeys = ["or", "and"]
    static let cursorDocumentKeys = ["document"]

    /// Parses and validates one named query (Firestore's limits and the target clients).
    func parse(_ node: ConfigNode) throws(ConfigError) -> Query {
        let entry = try node.mapping(allowed: Self.keys)
        let query = entry.contains("structured_query") ? try parseRaw(entry) : try parseFriendly(entry)
        let problems = QueryValidator(clients: clients).problems(in: BundledQuery(database: database, query: query))
        if !problems.isEmpty {
            let details = problems.map(\.message).joined(separator: "; ")
            throw node.error("\(node.path): \(details)")
        }
        return query
    }

    // MARK: - Friendly form

    /// The documents the cursors of the query at `node` (one ``parse(_:)`` took) are at: a cursor
    /// written `{document: path}` takes its values from the inputs.
    func cursorDocuments(of node: ConfigNode) throws(ConfigError) -> [ResourcePath] {
        let entry = try node.mapping(allowed: Self.keys)
        var documents: [ResourcePath] = []
        for key in ["start_at", "start_after", "end_at", "end_before"] {
            guard let cursor = entry[key], case .mapping = cursor.node else { continue }
            documents.append(try cursor.mapping(allowed: Self.cursorDocumentKeys).required("document").resourcePath())
        }
        return documents
    }

    /// Where the query at `node` (one ``parse(_:)`` took) names its fields: each filter's
    /// field in the order written (groups' members in place), then each `order_by` field.
    func fieldMentions(of node: ConfigNode) -> [FieldMention] {
        guard let entry = try? node.mapping(allowed: Self.keys), !entry.contains("structured_query") else { return [] }
        var mentions: [FieldMention] = []
        func filter(_ node: ConfigNode) {
            if case .mapping = node.node {
                for (_, _, members) in (try? node.namedEntries()) ?? [] {
                    for member in (try? members.sequence()) ?? [] { filter(member) }
                }
                return
            }
            guard let parts = try? node.sequence(), let first = parts.first, let field = try? first.fieldPath() else { return }
            mentions.append(FieldMention(field: field, role: .filter, location: first.location))
        }
        for item in (try? entry["where"]?.sequence()) ?? [] { filter(item) }
        for item in entry["order_by"]?.sequenceOrSingle() ?? [] {
            let fieldNode = (try? item.sequence())?.first ?? item
            if let field = try? fieldNode.fieldPath() { mentions.append(FieldMention(field: field, role: .orderBy, location: fieldNode.location)) }
        }
        return mentions
    }

    private func parseFriendly(_ entry: ConfigMapping) throws(ConfigError) -> Query {
        var query = try parseSource(entry)
        if let whereNode = entry["where"] {
            let source = query
            query.filters = try whereNode.sequence().map { filter throws(ConfigError) in try parseFilter(filter, query: source) }
        }
        if let orderNode = entry["order_by"] {
            query.orderBy = try orderNode.sequenceOrSingle().map(parseOrder)
        }
        switch (entry["limit"], entry["limit_to_last"]) {
        case (let limit?, nil):
            query.limit = Int32(try limit.int(in: 1...Int(Int32.max)))
        case (nil, let last?):
            query.limit = Int32(try last.int(in: 1...Int(Int32.max)))
            query.limitType = .last
        case (.some, let last?):
            throw last.error("use either limit or limit_to_last, not both")
        case (nil, nil):
            break
        }
        if entry.contains("limit_type") {
            throw entry["limit_type"]!.error("limit_type belongs to structured_query; with the friendly form use limit or limit_to_last")
        }
        query.startAt = try parseCursor(entry, inclusiveKey: "start_at", exclusiveKey: "start_after", query: query)
        query.endAt = try parseCursor(entry, inclusiveKey: "end_at", exclusiveKey: "end_before", query: query)
        return query
    }

    /// `collection:` / `collection_group:` + `parent:` → the query's parent and selector.
    private func parseSource(_ entry: ConfigMapping) throws(ConfigError) -> Query {
        switch (entry["collection"], entry["collection_group"]) {
        case (let collection?, nil):
            if let parent = entry["parent"] {
                throw parent.error("parent goes with collection_group; for a subcollection write its path, e.g. collection: stories/s1/comments")
            }
            let path = try collection.resourcePath()
            guard path.isCollection else {
                throw collection.error("collection \"\(path)\" is a document path; a collection path has an odd number of segments (stories, stories/s1/comments)")
            }
            return Query(parent: path.parent, collectionID: path.lastSegment!)
        case (nil, let group?):
            let id = try group.string()
            guard !id.isEmpty, !id.contains("/") else {
                throw group.error("collection_group takes a collection id without '/', found \"\(id)\"")
            }
            var parent = ResourcePath.root
            if let parentNode = entry["parent"] {
                parent = try parentNode.resourcePath()
                guard parent.isDocument else {
                    throw parentNode.error("parent \"\(parent)\" must be a document path (an even number of segments)")
                }
            }
            return Query(parent: parent, collectionID: id, allDescendants: true)
        case (.some, let group?):
            throw group.error("use either collection or collection_group, not both")
        case (nil, nil):
            throw entry.owner.error("\(entry.owner.path) needs collection: or collection_group: (or a raw structured_query:)")
        }
    }

    static let operators: [String: Filter.Operator] = [
        "<": .lessThan, "<=": .lessThanOrEqual, "==": .equal, "!=": .notEqual, ">": .greaterThan, ">=": .greaterThanOrEqual,
        "array-contains": .arrayContains, "array-contains-any": .arrayContainsAny, "in": .in, "not-in": .notIn,
    ]

    /// The operators as docs/pipeline.md lists them: as they must be written in YAML.
    static let operatorList = "==, '!=', <, <=, '>', '>=', array-contains, array-contains-any, in, not-in"

    /// Operators written as other languages write them, and what Firestore calls them.
    private static let operatorAliases: [String: String] = [
        "=": "==", "===": "==", "eq": "==", "<>": "!=", "!==": "!=", "ne": "!=", "=<": "<=", "=>": ">=",
        "lt": "<", "le": "<=", "lte": "<=", "gt": ">", "ge": ">=", "gte": ">=",
        "contains": "array-contains", "contains-any": "array-contains-any", "not in": "not-in", "nin": "not-in",
    ]

    /// The operator of a filter. `!=` unquoted is a YAML tag (`!=` on an empty value), and `>`
    /// unquoted starts a folded block scalar outside flow lists: both get "quote the operator".
    static func filterOperator(_ node: ConfigNode) throws(ConfigError) -> Filter.Operator {
        let tag = node.tagName.rawValue
        if case .scalar(let scalar) = node.node {
            if tag.hasPrefix("!"), !tag.hasPrefix("tag:"), operators[tag + scalar.string] != nil || operators[tag] != nil {
                let written = operators[tag + scalar.string] != nil ? tag + scalar.string : tag
                throw node.error("quote the operator: '\(written)' (unquoted, YAML reads \(tag) as a tag)")
            }
            if scalar.style == .folded, scalar.string.allSatisfy(\.isWhitespace) {
                throw node.error("quote the operator: '>' (unquoted, YAML reads > as the start of a folded text)")
            }
        }
        let text = try node.string()
        if let op = operators[text] { return op }
        let suggestions = operatorAliases[text.lowercased()].map { [$0] }
            ?? NameSuggestions.closest(to: text, among: operators.keys.sorted(), limit: 2)
        let hint = suggestions.isEmpty ? "" : NameSuggestions.didYouMean(suggestions.map(quotedOperator), quote: "") + " "
        throw node.error("unknown operator \"\(text)\"; \(hint)expected one of: \(operatorList)")
    }

    /// An operator as it must be written in YAML: quoted when unquoted YAML would misread it.
    private static func quotedOperator(_ op: String) -> String {
        op.hasPrefix("!") || op.hasPrefix(">") ? "'\(op)'" : op
    }

    private func parseFilter(_ node: ConfigNode, query: Query) throws(ConfigError) -> Filter {
        if case .mapping = node.node {
            let group = try node.mapping(allowed: Self.groupKeys)
            guard group.entries.count == 1, let (key, _, members) = group.entries.first else {
                throw node.error("a filter group is a mapping with exactly one key, or: […] or and: […]")
            }
            let filters = try members.sequence().map { member throws(ConfigError) in try parseFilter(member, query: query) }
            guard !filters.isEmpty else { throw members.error("\(key): needs at least one filter") }
            return .composite(key == "or" ? .or : .and, filters)
        }
        let parts = try node.sequence()
        guard parts.count == 3 else {
            throw node.error("a filter is [field, operator, value] (or an or:/and: group), found \(parts.count) items")
        }
        let field = try parts[0].fieldPath()
        let op = try Self.filterOperator(parts[1])
        var value = try parseValue(parts[2])
        if field.isDocumentKey { value = try documentKeyValue(value, node: parts[2], query: query) }
        return Self.fieldFilter(field, op, value)
    }

    /// `field op value`. The SDKs send == / != null and NaN as unary filters; the model keeps
    /// them that way.
    static func fieldFilter(_ field: FieldPath, _ op: Filter.Operator, _ value: Value) -> Filter {
        switch (op, value) {
        case (.equal, .null): return .unary(field, .isNull)
        case (.notEqual, .null): return .unary(field, .isNotNull)
        case (.equal, let v) where v.isNaN: return .unary(field, .isNaN)
        case (.notEqual, let v) where v.isNaN: return .unary(field, .isNotNaN)
        default: return .field(field, op, value)
        }
    }

    private func parseOrder(_ node: ConfigNode) throws(ConfigError) -> OrderBy {
        if case .scalar(let scalar) = node.node {
            // `order_by: [score, desc]` would order by a field named "desc", which no document
            // has, so the query would silently return nothing.
            if ["asc", "ascending", "desc", "descending"].contains(scalar.string.lowercased()) {
                throw node.error("\"\(scalar.string)\" in order_by is read as a field name; for a direction write [[field, \(scalar.string)]] (a field really named so goes in backticks)")
            }
            return OrderBy(try node.fieldPath(), .ascending)
        }
        let parts = try node.sequence()
        guard (1...2).contains(parts.count) else {
            throw node.error("an order_by entry is a field or [field, asc|desc], found \(parts.count) items")
        }
        let field = try parts[0].fieldPath()
        guard parts.count == 2 else { return OrderBy(field, .ascending) }
        switch try parts[1].string().lowercased() {
        case "asc", "ascending": return OrderBy(field, .ascending)
        case "desc", "descending": return OrderBy(field, .descending)
        case let other: throw parts[1].error("direction must be asc or desc, found \"\(other)\"")
        }
    }

    private func parseCursor(_ entry: ConfigMapping, inclusiveKey: String, exclusiveKey: String, query: Query) throws(ConfigError) -> Bound? {
        switch (entry[inclusiveKey], entry[exclusiveKey]) {
        case (nil, nil):
            return nil
        case (.some, let exclusive?):
            throw exclusive.error("use either \(inclusiveKey) or \(exclusiveKey), not both")
        case (let node?, nil):
            return Bound(values: try cursorValues(node, query: query), inclusive: true)
        case (nil, let node?):
            return Bound(values: try cursorValues(node, query: query), inclusive: false)
        }
    }

    /// A list of values, or `{document: path}`: every normalized orderBy value of that document.
    private func cursorValues(_ node: ConfigNode, query: Query) throws(ConfigError) -> [Value] {
        guard case .mapping = node.node else {
            let values = try node.sequenceOrSingle().map(parseValue)
            guard !values.isEmpty else { throw node.error("a cursor needs at least one value") }
            return try values.enumerated().map { index, value throws(ConfigError) in
                try cursorValue(value, orderBy: query.normalizedOrderBy, index: index, node: node, query: query)
            }
        }
        let documentNode = try node.mapping(allowed: Self.cursorDocumentKeys).required("document")
        let path = try documentNode.resourcePath()
        guard path.isDocument, query.allDescendants ? query.collectionID == path.segments[path.count - 2] : path.parent == query.parent.appending(query.collectionID) else {
            throw documentNode.error("cursor document \"\(path)\" is not in the queried collection")
        }
        let orderBy = query.normalizedOrderBy
        guard let store = context.store, context.readsCursorDocuments else {
            // Validating only: stand-in values of the right count.
            return orderBy.map { $0.field.isDocumentKey ? .reference(ResourceName(database: database, path: path)) : .null }
        }
        guard let document = store.document(at: path) else {
            throw documentNode.error("cursor document \"\(path)\" is not in the inputs")
        }
        return try orderBy.map { order throws(ConfigError) -> Value in
            guard let value = document.value(at: order.field, database: database) else {
                throw documentNode.error("cursor document \"\(path)\" has no field \(order.field), which the query orders by")
            }
            return value
        }
    }

    /// A `__name__` cursor component may be written as a plain document id or path.
    private func cursorValue(_ value: Value, orderBy: [OrderBy], index: Int, node: ConfigNode, query: Query) throws(ConfigError) -> Value {
        guard index < orderBy.count, orderBy[index].field.isDocumentKey else { return value }
        return try documentKeyValue(value, node: node, query: query)
    }

    /// For `__name__`, a string is a document id in the queried collection (or, with '/', a
    /// path below the database root), as `documentId()` takes in the SDKs.
    private func documentKeyValue(_ value: Value, node: ConfigNode, query: Query) throws(ConfigError) -> Value {
        switch value {
        case .string(let text):
            let relative = text.contains("/") || query.allDescendants ? text : "\(query.parent.appending(query.collectionID))/\(text)"
            do throws(PathError) {
                return .reference(ResourceName(database: database, path: try ResourcePath(parsing: relative)))
            } catch {
                throw node.error("document id: \(error.message)")
            }
        case .array(let values):
            return .array(try values.map { v throws(ConfigError) in try documentKeyValue(v, node: node, query: query) })
        default:
            return value
        }
    }
}

/// `now`, `now-7d`, `now+1h30m` → a signed offset in seconds (nil when malformed).
enum RelativeTime {
    private static let units: [Character: Int64] = ["w": 604_800, "d": 86_400, "h": 3_600, "m": 60, "s": 1]

    static func seconds(_ text: String) -> Int64? {
        guard text.hasPrefix("now") else { return nil }
        let rest = text.dropFirst(3)
        guard let sign = rest.first else { return 0 }
        guard sign == "+" || sign == "-", let total = duration(rest.dropFirst()) else { return nil }
        return sign == "-" ? -total : total
    }

    /// `7d`, `1h30m`, `45s` (units w, d, h, m, s, each after its number) → seconds; nil when
    /// empty or malformed. Also the syntax of durations in `pipeline.yml` (`retention.min_age`).
    static func duration(_ text: Substring) -> Int64? {
        guard !text.isEmpty else { return nil }
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let amount = Int64(digits), amount <= 10_000_000_000_000 / unit {
                total += amount * unit
                digits = ""
            } else {
                return nil
            }
        }
        guard digits.isEmpty else { return nil }
        return total
    }
}
