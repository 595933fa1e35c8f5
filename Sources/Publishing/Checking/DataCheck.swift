import FirestoreModel
import JSONCore
import PipelineLanguage
import QueryEngine

/// Checks the named queries and field rules of a resolved config against what the documents
/// hold (``FieldCensus``): the check stage between resolving the queries and selecting.
///
/// A field is looked for in every document of the query's collection id (a collection path's
/// last segment, or the group): a subcollection's documents count with the others of its id.
enum DataCheck {
    /// The check stage: the warnings of `config` (resolved) against `census` (none without one:
    /// a merge's partials keep no census), then a warning for each named query of `selections`
    /// that returns no document. Throws ``BuildError/dataCheck(_:)`` when there are warnings and
    /// the config's `warnings: error` turns them into a failing build.
    static func check(_ config: PipelineConfig, census: FieldCensus?, selections: [BundleSelection]) throws(BuildError) -> [DataWarning] {
        let fields = census.map { warnings(config, census: $0) } ?? []
        let results = Dictionary(
            selections.map { ($0.id, Dictionary($0.namedQueries.map { ($0.name, $0.results) }, uniquingKeysWith: { first, _ in first })) },
            uniquingKeysWith: { first, _ in first })
        let all = fields + emptyQueries(config, results: results, earlier: fields)
        if config.warnings == .error, !all.isEmpty { throw .dataCheck(all) }
        return all
    }

    /// The warnings of `config` (resolved) against `census`, in config order.
    private static func warnings(_ config: PipelineConfig, census: FieldCensus) -> [DataWarning] {
        var warnings: [DataWarning] = []
        var seenRules: Set<String> = []
        for bundle in config.bundles {
            for named in bundle.queries {
                warnings += check(named, in: bundle.id, census: census)
            }
            for rule in bundle.fieldPolicy.rules {
                let id = String(rule.collection.split(separator: "/").last ?? "")
                for field in rule.fields {
                    // A rule at the top applies to every bundle: said once.
                    guard census.types(of: field, inCollection: id) == 0,
                          seenRules.insert("\(rule.location.map(String.init(describing:)) ?? rule.collection) \(field)").inserted
                    else { continue }
                    let suggestions = NameSuggestions.closest(to: field.canonicalString, among: census.fieldNames(inCollection: id))
                    let hint = suggestions.isEmpty ? "" : "; " + NameSuggestions.didYouMean(suggestions)
                    warnings.append(DataWarning(
                        kind: .unknownField, bundle: bundle.id, query: nil, field: field.canonicalString,
                        location: rule.location.map(String.init(describing:)), suggestions: suggestions,
                        message: "bundle \"\(bundle.id)\": the \(rule.mode.rawValue): rule for \"\(rule.collection)\" names \"\(field)\", which no document of collection \"\(id)\" has\(hint)"))
                }
            }
        }
        return warnings
    }

    /// A warning for each named query that returns no document, but for those `earlier` warned
    /// of already. `results`: per bundle id, the result count of each of its named queries (a
    /// name may repeat across bundles, as a bundle spec's do across its combinations).
    private static func emptyQueries(_ config: PipelineConfig, results: [String: [String: Int]], earlier: [DataWarning]) -> [DataWarning] {
        let warned = Dictionary(grouping: earlier.filter { $0.query != nil }, by: \.bundle).mapValues { Set($0.compactMap(\.query)) }
        return config.bundles.flatMap { bundle in
            bundle.queries.compactMap { named -> DataWarning? in
                guard results[bundle.id]?[named.name] == 0, warned[bundle.id]?.contains(named.name) != true else { return nil }
                return DataWarning(
                    kind: .noResults, bundle: bundle.id, query: named.name, field: nil, location: named.location.map(String.init(describing:)),
                    suggestions: [], message: "bundle \"\(bundle.id)\", query \"\(named.name)\" returns no document")
            }
        }
    }

    private static func check(_ named: NamedQuerySpec, in bundle: String, census: FieldCensus) -> [DataWarning] {
        let query = named.query
        let id = query.collectionID
        let what = query.allDescendants ? "collection group \"\(id)\"" : "collection \"\(id)\""
        let head = "bundle \"\(bundle)\", query \"\(named.name)\""
        var warnings: [DataWarning] = []
        var unknown: Set<FieldPath> = []

        // The filters in the order written, beside where pipeline.yml names their fields.
        var filters: [Filter] = []
        func flatten(_ filter: Filter) {
            if case .composite(_, let members) = filter { members.forEach(flatten) } else { filters.append(filter) }
        }
        query.filters.forEach(flatten)
        let filterMentions = named.fieldMentions.filter { $0.role == .filter }
        let orderMentions = named.fieldMentions.filter { $0.role == .orderBy }
        func location(_ mentions: [FieldMention], _ index: Int) -> SourceLocation? {
            mentions.count > index ? mentions[index].location : named.location
        }

        func field(_ path: FieldPath, role: String, at location: SourceLocation?) -> UInt16? {
            guard !path.isDocumentKey, let types = census.types(of: path, inCollection: id) else { return nil }
            guard types == 0 else { return types }
            if unknown.insert(path).inserted {
                let suggestions = NameSuggestions.closest(to: path.canonicalString, among: census.fieldNames(inCollection: id))
                let hint = suggestions.isEmpty ? "" : "; " + NameSuggestions.didYouMean(suggestions)
                warnings.append(DataWarning(
                    kind: .unknownField, bundle: bundle, query: named.name, field: path.canonicalString,
                    location: location.map(String.init(describing:)), suggestions: suggestions,
                    message: "\(head): no document of \(what) has the field \"\(path)\" (in \(role))\(hint)"))
            }
            return nil
        }

        func value(_ value: Value, of path: FieldPath, holding types: UInt16, role: String, at location: SourceLocation?) {
            let bit = FieldCensus.bit(of: value)
            // Integers and doubles compare as numbers; a null is its own question.
            guard bit != FieldCensus.bit(of: .null), types & compatible(bit) == 0 else { return }
            warnings.append(DataWarning(
                kind: .valueType, bundle: bundle, query: named.name, field: path.canonicalString,
                location: location.map(String.init(describing:)), suggestions: [],
                message: "\(head): \(role) compares \"\(path)\" with \(describe(value)), but in \(what) it holds \(held(types))"))
        }

        for (index, filter) in filters.enumerated() {
            let at = location(filterMentions, index)
            switch filter {
            case .unary(let path, _):
                _ = field(path, role: "where", at: at)
            case .field(let path, let op, let operand):
                guard let types = field(path, role: "where", at: at), !path.isDocumentKey else { continue }
                switch op {
                case .arrayContains, .arrayContainsAny:
                    if types & FieldCensus.bit(of: .array([])) == 0 {
                        warnings.append(DataWarning(
                            kind: .valueType, bundle: bundle, query: named.name, field: path.canonicalString,
                            location: at.map(String.init(describing:)), suggestions: [],
                            message: "\(head): where uses \(op.symbol) on \"\(path)\", but in \(what) it holds \(held(types)), never lists"))
                    }
                case .in, .notIn:
                    if case .array(let members) = operand {
                        for member in members { value(member, of: path, holding: types, role: "where", at: at) }
                    }
                default:
                    value(operand, of: path, holding: types, role: "where", at: at)
                }
            case .composite:
                break
            }
        }
        for (index, order) in query.orderBy.enumerated() {
            _ = field(order.field, role: "order_by", at: location(orderMentions, index))
        }
        // Cursor values are in normalized orderBy order.
        let orderBy = query.normalizedOrderBy
        for bound in [query.startAt, query.endAt].compactMap({ $0 }) {
            for (index, cursorValue) in bound.values.enumerated() where index < orderBy.count {
                let path = orderBy[index].field
                guard !path.isDocumentKey, !unknown.contains(path), let types = census.types(of: path, inCollection: id), types != 0 else { continue }
                let explicit = query.orderBy.firstIndex { $0.field == path }
                value(cursorValue, of: path, holding: types, role: "a cursor", at: explicit.map { location(orderMentions, $0) } ?? named.location)
            }
        }
        return warnings
    }

    /// The type bits a value of type `bit` can equal or be ordered among: numbers are one.
    private static func compatible(_ bit: UInt16) -> UInt16 {
        let numbers = FieldCensus.bit(of: .integer(0)) | FieldCensus.bit(of: .double(0))
        return bit & numbers != 0 ? numbers : bit
    }

    /// `a string ("authors/zoe")`, as a user wrote it.
    private static func describe(_ value: Value) -> String {
        switch value {
        case .string(let text): return "a string (\"\(text)\")"
        case .integer(let number): return "a number (\(number))"
        case .double(let number): return "a number (\(number))"
        case .boolean(let flag): return "a boolean (\(flag))"
        case .timestamp(let time): return "a timestamp (\(time.rfc3339))"
        case .reference(let name): return "a reference (!ref \(name.path))"
        case .bytes: return "bytes"
        case .geoPoint: return "a geopoint"
        case .array: return "a list"
        case .map: return value.isVector ? "a vector" : "a mapping"
        case .null: return "null"
        }
    }

    /// What a field holds, as pipeline.yml writes such values: "only references (!ref)",
    /// "strings and null".
    private static func held(_ types: UInt16) -> String {
        let spellings = [
            "null", "booleans (true, false)", "integers", "doubles", "timestamps (!timestamp)", "strings", "bytes (!bytes)",
            "references (!ref)", "geopoints (!geopoint)", "lists", "vectors", "mappings",
        ]
        let found = spellings.indices.filter { types & (1 << $0) != 0 }.map { spellings[$0] }
        guard let last = found.last else { return "nothing" }
        return found.count == 1 ? "only \(last)" : found.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension PipelineConfig {
    /// Every field the config names of the documents: those the named queries and `for_each`
    /// read and those of `fields:`/`redact:` rules (``FieldCensus`` counts them).
    var fieldsNamed: [FieldPath] {
        var seen: Set<FieldPath> = []
        let rules = fieldPolicy.rules + bundles.flatMap(\.fieldPolicy.rules) + fanOuts.flatMap(\.fieldPolicy.rules)
        return (fieldsRead + rules.flatMap(\.fields)).filter { !$0.isDocumentKey && seen.insert($0).inserted }
    }
}
