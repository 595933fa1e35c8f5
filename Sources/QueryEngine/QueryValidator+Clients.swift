import FirestoreModel

extension QueryValidator {
    /// What the target clients cannot load from a bundle, judged on the StructuredQuery we
    /// emit (``Query/wireFilter``; nested ANDs are already merged there).
    func clientProblems(_ query: Query) -> [QueryProblem] {
        var found: [QueryProblem] = []
        if query.offset != nil || query.select != nil {
            let what = [query.offset.map { "offset \($0)" }, query.select.map { _ in "select" }].compactMap { $0 }.joined(separator: " and ")
            found.append(QueryProblem(
                rule: .offsetOrSelect,
                message: "named queries cannot use \(what): web clients silently ignore it (returning different documents than intended) and Android and iOS fail to load the bundle; filter with a cursor or limit instead",
                clients: .all
            ))
        }
        guard let filter = query.wireFilter else { return found }
        if filter.containsOr {
            found += clientProblem(.orFilter, failing: [.android, .ios], "fail to load a bundle whose named query uses an OR filter")
        }
        if case .composite(.and, let children) = filter, children.contains(where: \.isComposite) {
            found += clientProblem(.nestedCompositeFilter, failing: .ios, "fail to load a bundle whose named query nests a composite filter inside an AND")
        }
        return found
    }

    /// Foreign-database references: the backend rejects them as `__name__` values; as plain
    /// values iOS refuses to decode them.
    func foreignReferenceProblems(_ bundledQuery: BundledQuery) -> [QueryProblem] {
        let query = bundledQuery.query
        var values: [Value] = (query.startAt?.values ?? []) + (query.endAt?.values ?? [])
        for filter in query.filters {
            filter.forEachFieldFilter { _, _, value in values.append(value) }
        }
        var foreign: Set<DatabaseID> = []
        for value in values {
            _ = value.mappingReferences { name in
                if name.database != bundledQuery.database { foreign.insert(name.database) }
                return name
            }
        }
        guard !foreign.isEmpty else { return [] }
        let names = foreign.map(\.resourceName).sorted().joined(separator: ", ")
        return clientProblem(.foreignReference, failing: .ios, "fail to load a bundle whose named query holds references to another database (\(names)); the query's database is \(bundledQuery.database.resourceName)")
    }

    /// A problem for the targeted clients among `failing`, or none when no target is affected.
    private func clientProblem(_ rule: QueryRule, failing: ClientPlatform, _ what: String) -> [QueryProblem] {
        let affected = failing.intersection(clients)
        guard !affected.isEmpty else { return [] }
        let remaining = clients.subtracting(failing)
        let advice = remaining.isEmpty ? "no targeted client can use it" : "allow it only with clients: \(remaining.configList)"
        return [QueryProblem(rule: rule, message: "\(affected) clients \(what); \(advice)", clients: affected)]
    }
}

extension Filter {
    var isComposite: Bool {
        if case .composite = self { return true }
        return false
    }
}
