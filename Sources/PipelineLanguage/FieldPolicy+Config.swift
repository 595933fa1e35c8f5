import FirestoreModel
import QueryEngine

extension FieldPolicy {
    /// Reads `fields: {COLLECTION: [FIELD, …]}` and `redact: {COLLECTION: [FIELD, …]}` of one
    /// scope (the site or a bundle): a collection is an id or a path with `*` for document ids,
    /// fields are field paths (backquoted segments as Firestore writes them).
    static func parse(fields: ConfigNode?, redact: ConfigNode?) throws(ConfigError) -> FieldPolicy {
        var rules: [Rule] = []
        for (mode, node) in [(Mode.allow, fields), (Mode.redact, redact)] {
            guard let node else { continue }
            for (collection, keyNode, listNode) in try node.namedEntries() {
                try checkCollection(collection, at: keyNode)
                if let other = rules.first(where: { $0.collection == collection }) {
                    throw keyNode.error("\(collection) has both fields: and redact: (the other at \(other.location.map(String.init(describing:)) ?? "?")); keep the fields to publish, or remove the ones not to, not both")
                }
                var paths: [FieldPath] = []
                for item in try listNode.sequence() {
                    let path = try item.fieldPath()
                    if path.isDocumentKey { throw item.error("__name__ is the document's name, always published; list fields only") }
                    paths.append(path)
                }
                if paths.isEmpty, mode == .redact { throw listNode.error("redact: \(collection) lists no field; remove it or name the fields to keep out") }
                rules.append(Rule(collection: collection, mode: mode, fields: paths, location: keyNode.location))
            }
        }
        return FieldPolicy(rules: rules)
    }

    private static func checkCollection(_ text: String, at node: ConfigNode) throws(ConfigError) {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        let valid = segments.count % 2 == 1 && segments.enumerated().allSatisfy { index, segment in
            !segment.isEmpty && (index % 2 == 1 || segment != "*")
        }
        guard valid else {
            throw node.error("\"\(text)\" is not a collection: write an id (users: every collection named users) or a collection path whose document ids may be * (stories/*/comments)")
        }
    }

    /// The first field `named`'s query reads that this policy does not ship whole, as a
    /// ConfigError at the query: a client runs the query over what the bundle ships, so a
    /// document without the field (or with part of a map) would drop out or move.
    func check(_ named: NamedQuerySpec, bundle: String) throws(ConfigError) {
        for rule in rules(for: named.query) {
            for field in named.query.fieldsRead where !rule.ships(field) {
                let how = rule.mode == .allow ? "is not among the fields: kept" : "is removed, in whole or in part, by redact:"
                throw ConfigError(
                    "named query \"\(named.name)\" of bundle \"\(bundle)\" filters or orders on \(field), which \(how) for \(rule.collection) (at \(rule.location.map(String.init(describing:)) ?? "?")): clients run the query over the published documents and would get other results; publish the field, or query another one",
                    at: named.location)
            }
        }
    }
}

extension BundleSpec {
    /// The collections this bundle's documents come from: its queries' collections (a path, or
    /// a group id) and its listed documents' collections.
    var collectionScopes: [(path: ResourcePath?, group: String?)] {
        var scopes: [(path: ResourcePath?, group: String?)] = []
        for named in queries {
            let query = named.query
            scopes.append(query.allDescendants ? (nil, query.collectionID) : (query.parent.appending(query.collectionID), nil))
        }
        for document in documents {
            scopes.append((document.parent, nil))
        }
        return scopes
    }

    /// The first collection both bundles may ship documents of under different rules, with the
    /// two rules: clients keep one version of a document, whichever bundle loaded it, so every
    /// bundle must ship the same fields of it.
    func conflictingFieldPolicy(with other: BundleSpec) -> (collection: String, mine: [FieldPolicy.Rule], theirs: [FieldPolicy.Rule])? {
        for mine in collectionScopes {
            for theirs in other.collectionScopes {
                let path: ResourcePath
                switch (mine.path, theirs.path) {
                case let (a?, b?) where a == b: path = a
                case let (a?, nil) where theirs.group.map({ UTF8Order.equal(a.segments.last!, $0) }) == true: path = a
                case let (nil, b?) where mine.group.map({ UTF8Order.equal(b.segments.last!, $0) }) == true: path = b
                case (nil, nil) where mine.group.map({ UTF8Order.equal($0, theirs.group!) }) == true:
                    let group = mine.group!
                    let (left, right) = (fieldPolicy.rules.filter { $0.mayApply(toGroup: group) }, other.fieldPolicy.rules.filter { $0.mayApply(toGroup: group) })
                    if left != right { return (group, left, right) }
                    continue
                default: continue
                }
                let shared = (name: path.description, mine: fieldPolicy.rule(forCollection: path).map { [$0] } ?? [], theirs: other.fieldPolicy.rule(forCollection: path).map { [$0] } ?? [])
                if shared.mine != shared.theirs { return (shared.name, shared.mine, shared.theirs) }
            }
        }
        return nil
    }
}
