import FirestoreModel
import JSONCore
import QueryEngine

/// Which fields of which collections a bundle publishes (`fields:` keeps only the fields listed,
/// `redact:` removes them), site-wide and per bundle. A bundle is a public file cut from an
/// export made with admin rights: security rules never see it.
///
/// Rules are per collection: a collection id (`users`) applies to every collection with that
/// id, at any depth, as a collection group does; a path with `*` for document ids
/// (`stories/*/comments`) applies to the collections it matches, and wins over an id. A
/// bundle's rule for a collection replaces the site's rule for it.
public struct FieldPolicy: Sendable, Equatable {
    /// What a rule does with the fields it lists.
    public enum Mode: String, Sendable, Equatable {
        /// Keep only these fields (and everything under them).
        case allow = "fields"
        /// Remove these fields (and everything under them).
        case redact
    }

    /// One collection's rule.
    public struct Rule: Sendable, Equatable {
        /// The collection as written: an id, or a path whose document segments may be `*`.
        public var collection: String
        public var mode: Mode
        public var fields: [FieldPath]
        /// Where pipeline.yml sets it (not part of equality: two rules that say the same are equal).
        public var location: SourceLocation?

        public static func == (lhs: Rule, rhs: Rule) -> Bool {
            lhs.collection == rhs.collection && lhs.mode == rhs.mode && lhs.fields == rhs.fields
        }

        /// The collection pattern's segments (one for an id).
        var segments: [Substring] { collection.split(separator: "/") }

        /// True when the rule applies to the collection at `path` (odd length).
        func applies(toCollection path: ResourcePath) -> Bool {
            let pattern = segments
            if pattern.count == 1 { return UTF8Order.equal(String(pattern[0]), path.segments.last!) }
            return pattern.count == path.count && zip(pattern, path.segments).allSatisfy { $0 == "*" || UTF8Order.equal(String($0), $1) }
        }

        /// True when the rule may apply to a collection with id `collectionID` somewhere.
        func mayApply(toGroup collectionID: String) -> Bool {
            UTF8Order.equal(String(segments.last!), collectionID)
        }

        /// True when a document of the collection carries `field` whole and unchanged.
        public func ships(_ field: FieldPath) -> Bool {
            switch mode {
            case .allow: return fields.contains { $0.isPrefix(of: field) }
            case .redact: return !fields.contains { $0.isPrefix(of: field) || field.isPrefix(of: $0) }
            }
        }
    }

    /// At most one rule per collection pattern.
    public private(set) var rules: [Rule]

    public init(rules: [Rule] = []) {
        self.rules = rules
    }

    public var isEmpty: Bool { rules.isEmpty }

    /// The rule for documents of the collection at `path`: a matching path pattern, else an id.
    public func rule(forCollection path: ResourcePath) -> Rule? {
        let matching = rules.filter { $0.applies(toCollection: path) }
        return matching.first { $0.segments.count > 1 } ?? matching.first
    }

    /// The rule for the document at `path`: that of its collection (found without building the
    /// collection's path when the policy has no rules, as most have not).
    public func rule(forDocument path: ResourcePath) -> Rule? {
        rules.isEmpty ? nil : rule(forCollection: path.parent)
    }

    /// `document` as the policy publishes it.
    public func apply(to document: Document) -> Document {
        guard let rule = rule(forDocument: document.path) else { return document }
        var shipped = document
        shipped.fields = rule.mode == .allow ? document.fields.keepingOnly(rule.fields) : document.fields.removing(rule.fields)
        return shipped
    }

    /// This policy with `bundle`'s rules replacing its own for the same collections.
    public func overridden(by bundle: FieldPolicy) -> FieldPolicy {
        FieldPolicy(rules: rules.filter { site in !bundle.rules.contains { $0.collection == site.collection } } + bundle.rules)
    }

    /// The rules that may apply to documents `query` reads.
    public func rules(for query: Query) -> [Rule] {
        if query.allDescendants { return rules.filter { $0.mayApply(toGroup: query.collectionID) } }
        return rule(forCollection: query.parent.appending(query.collectionID)).map { [$0] } ?? []
    }
}

extension FieldPath {
    /// True when `self` is `other` or one of the maps it lies in.
    public func isPrefix(of other: FieldPath) -> Bool {
        segments.count <= other.segments.count && zip(segments, other.segments).allSatisfy { UTF8Order.equal($0, $1) }
    }
}

extension Query {
    /// Every field the query reads to decide and order its results: filters, orderBy (cursors
    /// are values of the orderBy fields), the document key left out.
    public var fieldsRead: [FieldPath] {
        func fields(_ filter: Filter) -> [FieldPath] {
            switch filter {
            case .field(let path, _, _), .unary(let path, _): return [path]
            case .composite(_, let children): return children.flatMap(fields)
            }
        }
        var seen: Set<FieldPath> = []
        return (filters.flatMap(fields) + orderBy.map(\.field)).filter { !$0.isDocumentKey && seen.insert($0).inserted }
    }
}
