import BundleFormat
import FirestoreModel
import JSONCore
import ParallelWork
import PipelineLanguage
import QueryEngine

/// What a bundle's config selects from the inputs: its named queries (as the bundle will carry
/// them) and every document their results and `documents:` hold, as the store holds them (with
/// only the fields the queries read: the field policy is applied to the whole document when it
/// is published), with the queries each is a result of. Times are not settled yet:
/// ``ShipmentPlanner`` adds what returning clients need.
struct BundleSelection: Sendable {
    struct NamedQuery: Sendable {
        var name: String
        /// The compact `bundledQuery` JSON.
        var bundledQuery: [UInt8]
        /// Where pipeline.yml defines it, for errors.
        var location: SourceLocation?
        /// The documents it returns.
        var results: Int
    }

    /// A selected document, with the named queries whose results hold it (in config order;
    /// none for a document only `documents:` lists).
    struct Selected: Sendable {
        var document: Document
        var queries: [String]

        /// The document and its queries, moved out.
        consuming func parts() -> (document: Document, queries: [String]) {
            (document, queries)
        }
    }

    var id: String
    /// The fields the bundle publishes (applied to every document it ships, leavers included).
    var fieldPolicy: FieldPolicy
    /// In config order.
    var namedQueries: [NamedQuery]
    /// The selected documents in document-key order, each path once. (An array rather than a
    /// dictionary by path: a hundred thousand documents take a third of the memory.)
    var documents: [Selected]

    /// True when `path` is selected.
    func contains(_ path: ResourcePath) -> Bool {
        // The first document not before `path`, then the paths that order as it does: numeric
        // ids order by value, so `__id7__` and `__id007__` are two documents in one place.
        var (low, high) = (0, documents.count)
        while low < high {
            let middle = (low + high) / 2
            if ResourcePath.compare(documents[middle].document.path, path) == .less { low = middle + 1 } else { high = middle }
        }
        return holds(path, from: low)
    }

    /// True when `path` is among the documents from `index` on that order as it does (`index`
    /// being the first not before it).
    private func holds(_ path: ResourcePath, from index: Int) -> Bool {
        documents[index...].prefix { ResourcePath.compare($0.document.path, path) == .equal }.contains { $0.document.path == path }
    }

    /// The documents `history` published, current or earlier, that are not selected now.
    ///
    /// Its current documents, in key order as the selection is, are found by walking both at
    /// once (a binary search each costs a rebuild of a hundred thousand documents a quarter of a
    /// second); the few only earlier ones are looked up.
    func unselected(in history: BundleHistory) -> [ResourcePath] {
        var unselected: [ResourcePath] = []
        var next = 0
        for path in history.current.paths {
            while next < documents.count, ResourcePath.compare(documents[next].document.path, path) == .less { next += 1 }
            if !holds(path, from: next) { unselected.append(path) }
        }
        unselected += history.earlier.keys.filter { history.current[$0] == nil && !contains($0) }
        return unselected
    }

    /// Runs the named queries of every bundle of `specs` over `store` and adds the documents each
    /// lists: the selections, in the order of `specs`.
    ///
    /// The queries run twice as many at a time as there are cores, each on a thread of its own
    /// (a site's queries differ in size by orders of magnitude: a thread each keeps the cores busy
    /// where even shares of them would not, and running ahead of the merge lets a large query
    /// start while the ones before it are merged), and each bundle merges its queries' results in
    /// config order as they come: memory holds the documents selected so far and the results of
    /// `2 × threads` queries (running, or done and not merged yet), never every appearance of
    /// each document.
    static func select(_ specs: [BundleSpec], store: DocumentStore, threads: Int = Processors.online) throws(BuildError) -> [BundleSelection] {
        let queries = specs.flatMap(\.queries)
        var running: [BackgroundMap<[Selected]>] = []
        var started = 0
        func startNext() {
            guard started < queries.count else { return }
            let named = queries[started]
            started += 1
            running.append(BackgroundMap(count: 1) { _ in
                // The bundle's fields: policy was checked to keep every field the query reads, so
                // the results are the same over the published documents.
                // One array of the query's name, shared by its results, each moved out of the
                // query's rather than copied.
                let queries = [named.name]
                var results = [Selected](movingFrom: store.evaluate(named.query)) { _, document in Selected(document: document, queries: queries) }
                results.sort(byPath: \.document.path)
                return results
            })
        }
        for _ in 0..<(2 * max(1, threads)) { startNext() }
        var selections: [BundleSelection] = []
        for spec in specs {
            var namedQueries: [NamedQuery] = []
            var documents: [Selected] = []
            for named in spec.queries {
                let bundled = BundledQuery(database: store.database, query: named.query)
                let results = running.removeFirst().results()[0]
                namedQueries.append(NamedQuery(name: named.name, bundledQuery: bundled.jsonBytes, location: named.location, results: results.count))
                startNext()
                documents = merging(documents, results)
            }
            var listed: [Selected] = []
            for path in spec.documents {
                guard let document = store.document(at: path) else {
                    throw .config(ConfigError("bundle \"\(spec.id)\" lists document \(path), which is not in the inputs", at: spec.location))
                }
                listed.append(Selected(document: document, queries: []))
            }
            listed.sort(byPath: \.document.path)
            documents = merging(documents, listed)
            selections.append(BundleSelection(id: spec.id, fieldPolicy: spec.fieldPolicy, namedQueries: namedQueries, documents: documents))
        }
        return selections
    }

    /// `earlier` (what was merged so far: each path once) and `later`, each in key order, as one
    /// array in key order with each path once:
    /// a path in both keeps `earlier`'s place and adds `later`'s queries after its own, so a
    /// document's queries come in config order whatever the overlap, and memory holds the
    /// documents selected so far and one query's results, never every appearance of each.
    /// Paths that order alike but differ (numeric ids order by value: `__id7__`, `__id007__`)
    /// stay apart, in the order they first appeared.
    ///
    /// The arrays are merged from their ends, each element moved out of its array into the
    /// merged one rather than copied: a copy of a selected document held far away in memory
    /// costs a cache miss per reference it holds, and copying was most of selecting's time.
    private static func merging(_ earlier: consuming [Selected], _ later: consuming [Selected]) -> [Selected] {
        // `consume`: a copy of a parameter would share its storage, and the first element moved
        // out would copy all the rest.
        var earlier = consume earlier
        var later = consume later
        // `earlier` is what was merged so far, each path once: with nothing to add it stays as
        // it is (walking a million documents to move each into its own place took 0.27 s).
        if later.isEmpty { return earlier }
        // A bundle's first query merges into nothing: results in strictly increasing key order
        // (so each path once) stay as they are.
        if earlier.isEmpty, strictlyIncreasing(later) { return later }
        // Filled from its end, each element moved into its place (reversing an array copies
        // every element), then moved to its start when paths in both arrays made it shorter.
        let capacity = earlier.count + later.count
        return [Selected](unsafeUninitializedCapacity: capacity) { buffer, count in
            var next = capacity
            func place(_ selected: consuming Selected) {
                next -= 1
                (buffer.baseAddress! + next).initialize(to: selected)
            }
            while !earlier.isEmpty || !later.isEmpty {
                // The array whose last path is the greatest left.
                let order = earlier.isEmpty ? .less : later.isEmpty ? .greater : ResourcePath.compare(lastPath(of: earlier), lastPath(of: later))
                if order == .greater, !lastTwoOrderAlike(earlier) {
                    place(earlier.removeLast())
                } else if order == .less, !lastTwoOrderAlike(later) {
                    place(later.removeLast())
                } else {
                    // Paths that order alike, from both arrays, in the order a forward merge
                    // meets them: `earlier`'s, then `later`'s; a path met again adds its queries
                    // to the first.
                    let top = order == .less ? lastPath(of: later) : lastPath(of: earlier)
                    var group: [Selected] = []
                    for source in [takeRun(of: &earlier, orderingAs: top), takeRun(of: &later, orderingAs: top)] {
                        for selected in source {
                            if let same = group.firstIndex(where: { $0.document.path == selected.document.path }) {
                                group[same].queries += selected.queries
                            } else {
                                group.append(selected)
                            }
                        }
                    }
                    while let selected = group.popLast() { place(selected) }
                }
            }
            count = capacity - next
            if next > 0 { buffer.baseAddress!.moveInitialize(from: buffer.baseAddress! + next, count: count) }
        }
    }

    private static func strictlyIncreasing(_ array: borrowing [Selected]) -> Bool {
        array.indices.dropFirst().allSatisfy { ResourcePath.compare(array[$0 - 1].document.path, array[$0].document.path) == .less }
    }

    private static func lastPath(of array: borrowing [Selected]) -> ResourcePath {
        array[array.count - 1].document.path
    }

    /// True when the last two elements' paths order alike (they differ only in numeric ids'
    /// spelling, or a listed document is listed twice).
    private static func lastTwoOrderAlike(_ array: borrowing [Selected]) -> Bool {
        array.count > 1 && ResourcePath.compare(array[array.count - 2].document.path, array[array.count - 1].document.path) == .equal
    }

    /// Moves the elements at the end of `array` whose paths order as `path` out of it, in their
    /// order there.
    private static func takeRun(of array: inout [Selected], orderingAs path: ResourcePath) -> [Selected] {
        var run: [Selected] = []
        while !array.isEmpty, ResourcePath.compare(lastPath(of: array), path) == .equal { run.append(array.removeLast()) }
        run.reverse()
        return run
    }
}
