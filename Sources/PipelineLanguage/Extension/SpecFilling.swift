import FirestoreModel
import QueryEngine

/// One spec filled in with one combination of parameter values: its documents and named
/// queries as the extension's function would build them with the Admin SDK for a request
/// carrying those values, as a ``BundleSpec``.
///
/// What the function does, and so what this does: a string `"$name"` standing for a whole value
/// (a filter's field or value, an orderBy's field or direction, a limit, a cursor) or a path
/// segment is the parameter, converted by its type; a string value of `in`, `not-in` or
/// `array-contains-any` is split on commas (``SpecNumber/commaList(_:)``); conditions apply in
/// order as the Admin SDK's query builder applies them (a later limit or cursor replaces an
/// earlier one; a filter or an orderBy after a cursor is refused); a `limit`, `limitToLast`,
/// `offset` or cursor whose written value is `0`, `""`, `false` or null is skipped.
struct SpecFilling {
    let spec: ExtensionSpec
    /// The parameters' values in this combination; a parameter without one is absent.
    let values: [String: SpecParameterValue]
    let database: DatabaseID

    // MARK: - Parameters

    /// The parameter a string `"$name"` stands for: nil for any other value.
    private func parameterName(_ value: Value) -> String? {
        guard case .string(let text) = value, text.hasPrefix("$"), text.count > 1 else { return nil }
        return String(text.dropFirst())
    }

    /// `value` with a parameter filled in; any other value as the Admin SDK sends it.
    func filled(_ value: Value, at label: String) throws(ConfigError) -> Value {
        guard let name = parameterName(value) else { return Self.asSent(value) }
        guard let parameter = spec.parameters[name] else {
            let declared = spec.parameterNames.isEmpty ? "it declares none" : "it declares \(spec.parameterNames.joined(separator: ", "))"
            throw spec.error("\"$\(name)\" names a parameter the spec never declares in params (\(declared))", at: label)
        }
        guard let given = values[name] else {
            let need = parameter.isRequired ? "required parameter" : "parameter"
            throw spec.error(
                "the \(need) \(name) has no value; list its values in pipeline.yml under extension: params: \(spec.id): \(name): [...]", at: label)
        }
        do throws(SpecValueError) {
            return try parameter.convert(given)
        } catch {
            throw spec.error(error.message, at: label)
        }
    }

    /// A number as the Admin SDK sends a JavaScript number (spec documents hold whole numbers
    /// as doubles when written from JavaScript), in arrays and maps too.
    static func asSent(_ value: Value) -> Value {
        switch value {
        case .double(let number) where number.isFinite: return SpecNumber.value(number)
        case .array(let items): return .array(items.map(asSent))
        case .map(let map): return .map(MapValue(map.fields.map { ($0.key, asSent($0.value)) }))
        default: return value
        }
    }

    /// A path with its `$name` segments filled in: a value holding `/`, or an empty one, is
    /// refused (it would reach another document than the spec names).
    func path(_ template: String, at label: String) throws(ConfigError) -> ResourcePath {
        var segments: [String] = []
        for part in template.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            guard parameterName(.string(part)) != nil else {
                segments.append(part)
                continue
            }
            let segment: String
            switch try filled(.string(part), at: label) {
            case .string(let text): segment = text
            case .integer(let number): segment = String(number)
            case .double(let number): segment = String(number)
            case .boolean(let flag): segment = String(flag)
            case let other: throw spec.error("\(part) fills a path segment, and its value \(SpecText.describe(other)) is not one value", at: label)
            }
            guard !segment.isEmpty else { throw spec.error("\(part) is empty in the path \"\(template)\"; a path segment cannot be", at: label) }
            guard !segment.contains("/") else {
                throw spec.error("\(part) = \"\(segment)\" holds '/' in the path \"\(template)\"; a parameter fills one path segment", at: label)
            }
            segments.append(segment)
        }
        guard !segments.contains(where: \.isEmpty) else { throw spec.error("the path \"\(template)\" has an empty segment", at: label) }
        return ResourcePath(segments: segments)
    }

    // MARK: - The bundle

    /// The spec's documents and queries for these values.
    func bundle(id: String, sitePolicy: FieldPolicy, clients: ClientPlatform) throws(ConfigError) -> BundleSpec {
        let documents = try spec.documents.enumerated().map { index, template throws(ConfigError) -> ResourcePath in
            let path = try path(template, at: "docs[\(index)]")
            guard path.isDocument else { throw spec.error("\"\(path)\" is not a document path (an even number of segments)", at: "docs[\(index)]") }
            return path
        }
        var queries: [NamedQuerySpec] = []
        for specQuery in spec.queries {
            guard Identifier.isValid(specQuery.name) else {
                throw spec.error("the query name \"\(specQuery.name)\" is not usable: \(Identifier.rule)", at: "queries.\(specQuery.name)")
            }
            let query = try self.query(specQuery)
            let problems = QueryValidator(clients: clients).problems(in: BundledQuery(database: database, query: query))
            if !problems.isEmpty {
                throw spec.error(problems.map(\.message).joined(separator: "; "), at: "queries.\(specQuery.name)")
            }
            queries.append(NamedQuerySpec(name: specQuery.name, query: query, location: nil))
        }
        var bundle = BundleSpec(id: id, documents: documents, queries: queries, location: nil)
        bundle.fieldPolicy = sitePolicy
        for query in queries { try bundle.fieldPolicy.check(query, bundle: id) }
        bundle.extensionSpec = ExtensionBinding(
            specID: spec.id, parameters: values, clientCache: spec.clientCache, serverCache: spec.serverCache)
        return bundle
    }

    /// The query `specQuery` stands for with these values.
    func query(_ specQuery: SpecQuery) throws(ConfigError) -> Query {
        var query = try scope(of: specQuery)
        for condition in specQuery.conditions {
            try apply(condition, to: &query)
        }
        return query
    }

    /// The collection or collection group `specQuery` reads, without its conditions.
    func scope(of specQuery: SpecQuery) throws(ConfigError) -> Query {
        let part = "queries.\(specQuery.name)"
        if specQuery.isCollectionGroup {
            let id = try path(specQuery.collection, at: "\(part).collection")
            guard id.count == 1 else { throw spec.error("a collection group is a collection id without '/', found \"\(id)\"", at: "\(part).collection") }
            return Query(collectionID: id.segments[0], allDescendants: true)
        }
        let path = try path(specQuery.collection, at: "\(part).collection")
        guard path.isCollection else { throw spec.error("\"\(path)\" is not a collection path (an odd number of segments)", at: "\(part).collection") }
        return Query(parent: path.parent, collectionID: path.lastSegment!)
    }

    private func apply(_ condition: SpecCondition, to query: inout Query) throws(ConfigError) {
        let label = condition.label
        let hasCursor = query.startAt != nil || query.endAt != nil
        switch condition.kind {
        case "where":
            guard case .array(let parts) = condition.value, parts.count == 3 else {
                throw spec.error("where is [field, operator, value]", at: label)
            }
            guard !hasCursor else { throw spec.error("a where after a cursor (the Admin SDK refuses it): move it before", at: label) }
            let field = try fieldPath(parts[0], at: label)
            guard case .string(let opText) = parts[1] else { throw spec.error("the operator must be a string, found \(SpecText.describe(parts[1]))", at: label) }
            guard let op = QueryConfigParser.operators[opText] else {
                let hint = NameSuggestions.closest(to: opText, among: QueryConfigParser.operators.keys.sorted(), limit: 2)
                let suggestion = hint.isEmpty ? "" : NameSuggestions.didYouMean(hint) + "; "
                throw spec.error("unknown operator \"\(opText)\"; \(suggestion)expected one of: \(QueryConfigParser.operatorList)", at: label)
            }
            var value = try filled(parts[2], at: label)
            if op.takesList, case .string(let text) = value { value = SpecNumber.commaList(text) }
            if field.isDocumentKey { value = documentKey(value, query: query) }
            query.filters.append(QueryConfigParser.fieldFilter(field, op, value))
        case "orderBy":
            guard case .array(let parts) = condition.value, (1...2).contains(parts.count) else {
                throw spec.error("orderBy is [field] or [field, \"asc\"|\"desc\"]", at: label)
            }
            guard !hasCursor else { throw spec.error("an orderBy after a cursor (the Admin SDK refuses it): move it before", at: label) }
            let field = try fieldPath(parts[0], at: label)
            switch parts.count == 2 ? try filled(parts[1], at: label) : .null {
            case .null, .string("asc"): query.orderBy.append(OrderBy(field, .ascending))
            case .string("desc"): query.orderBy.append(OrderBy(field, .descending))
            case let other: throw spec.error("the direction must be \"asc\" or \"desc\", found \(SpecText.describe(other))", at: label)
            }
        default:
            // The function tests these conditions for truth: 0, "", false and null are skipped.
            guard !Self.isFalsy(condition.value) else { return }
            let value = try filled(condition.value, at: label)
            switch condition.kind {
            case "limit", "limitToLast":
                query.limit = Int32(try integer(value, in: 1...Int64(Int32.max), at: label))
                query.limitType = condition.kind == "limit" ? .first : .last
            case "offset":
                query.offset = Int32(try integer(value, in: 0...Int64(Int32.max), at: label))
            default:
                guard let first = query.orderBy.first else {
                    throw spec.error("a cursor needs an orderBy before it (the Admin SDK refuses cursor values beyond the orderBy fields)", at: label)
                }
                let bound = Bound(values: [first.field.isDocumentKey ? documentKey(value, query: query) : value],
                                  inclusive: condition.kind == "startAt" || condition.kind == "endAt")
                if condition.kind.hasPrefix("start") { query.startAt = bound } else { query.endAt = bound }
            }
        }
    }

    /// A field path as the Admin SDK reads a string: dot-separated segments, none empty.
    private func fieldPath(_ value: Value, at label: String) throws(ConfigError) -> FieldPath {
        guard case .string(let text) = try filled(value, at: label) else {
            throw spec.error("a field must be a string, found \(SpecText.describe(value))", at: label)
        }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !segments.contains(where: \.isEmpty) else { throw spec.error("the field \"\(text)\" has an empty segment", at: label) }
        return FieldPath(segments: segments)
    }

    private func integer(_ value: Value, in range: ClosedRange<Int64>, at label: String) throws(ConfigError) -> Int64 {
        guard case .integer(let number) = value, range.contains(number) else {
            throw spec.error("must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(SpecText.describe(value))", at: label)
        }
        return number
    }

    private static func isFalsy(_ value: Value) -> Bool {
        switch value {
        case .null, .boolean(false), .integer(0): return true
        case .double(let number): return number == 0 || number.isNaN
        case .string(let text): return text.isEmpty
        default: return false
        }
    }

    /// A document id (or a path, with '/') where the document key is compared or ordered by:
    /// the reference the Admin SDK makes of it; in lists too.
    private func documentKey(_ value: Value, query: Query) -> Value {
        switch value {
        case .string(let text):
            let path = text.contains("/")
                ? ResourcePath(segments: text.split(separator: "/").map(String.init))
                : query.parent.appending(query.collectionID).appending(text)
            return .reference(ResourceName(database: database, path: path))
        case .array(let items):
            return .array(items.map { documentKey($0, query: query) })
        default:
            return value
        }
    }
}

/// The spec and parameter values a bundle was made for; the manifest lists them with it.
public struct ExtensionBinding: Sendable, Equatable {
    /// The spec document's id.
    public var specID: String
    /// The parameters with a value, by name.
    public var parameters: [String: SpecParameterValue]
    /// The spec's `clientCache` and `serverCache`, in seconds.
    public var clientCache: Int?
    public var serverCache: Int?
}

extension ExtensionBinding {
    /// The extension's URL of the bundle made for this binding, relative to the output:
    /// `bundles/<specId>`, or `bundles/<specId>/<param>/<value>…` (parameters in name order, an
    /// array parameter's values joined by commas); nil when a value cannot be a path segment
    /// (empty, starting with `.` (hidden or `.`/`..`), holding `/`) or the spec id could be taken
    /// for a file or folder the site has (`manifest.json`, `snapshots`, `bundlepress.js`, `….bundle`, `….gz`).
    public var stablePath: String? {
        guard !Self.siteNames.contains(specID), !specID.hasSuffix(".bundle"), !specID.hasSuffix(".gz") else { return nil }
        var segments = ["bundles", specID]
        for name in parameters.keys.sorted(by: { UTF8Order.compare($0, $1) == .less }) {
            let value = parameters[name]!.texts.joined(separator: ",")
            for segment in [name, value] {
                guard !segment.isEmpty, !segment.hasPrefix("."), !segment.contains("/") else { return nil }
            }
            segments += [name, value]
        }
        return segments.joined(separator: "/")
    }

    /// Names the site itself has directly under `bundles/`.
    static let siteNames: Set<String> = ["manifest.json", "snapshots", "bundlepress.js"]
}
