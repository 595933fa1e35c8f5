import FirestoreModel
import PipelineLanguage
import QueryEngine
import Testing
@testable import Publishing

@Suite("What a bundle selects")
struct BundleSelectionTests {
    /// `c` holds documents whose ids order by value (`__id7__` and `__id007__` are two documents
    /// in one place of the order) around plain ones.
    private static func store() throws -> DocumentStore {
        var store = DocumentStore(database: demo)
        for (id, n) in [("b", 2), ("__id7__", 7), ("a", 1), ("__id007__", 8), ("__id10__", 10), ("z", 3)] {
            var fields = MapValue()
            fields["n"] = .integer(Int64(n))
            store.insert(Document(path: path("c/\(id)"), fields: fields, createTime: try Timestamp(seconds: 1, nanos: 0), updateTime: try Timestamp(seconds: 2, nanos: 0)))
        }
        return store
    }

    private static func specs(_ bundles: String) throws -> [BundleSpec] {
        try PipelineConfig.parse(yaml: """
            project: demo
            inputs: [data.ndjson]
            bundles:
            \(bundles)
            """, file: "pipeline.yml", baseDirectory: "/").bundles
    }

    /// Each selected document comes once, in document-key order, with the queries that return it
    /// in config order; a listed document adds none; ids that order alike stay two documents.
    @Test func eachDocumentOnceWithItsQueriesInConfigOrder() throws {
        let selection = try BundleSelection.select(Self.specs("""
              - id: b
                documents: [c/a, c/z]
                queries:
                  big: {collection: c, where: [[n, ">=", 7]]}
                  all: {collection: c}
                  odd: {collection: c, where: [[n, in, [1, 3, 7]]]}
            """), store: try Self.store())[0]
        let ids = selection.documents.map { $0.document.path.lastSegment! }
        // Ids that order alike keep the order the queries first returned them in.
        #expect(ids == ["__id7__", "__id007__", "__id10__", "a", "b", "z"])
        let queries = Dictionary(uniqueKeysWithValues: selection.documents.map { ($0.document.path.lastSegment!, $0.queries) })
        #expect(queries == [
            "__id7__": ["big", "all", "odd"], "__id007__": ["big", "all"], "__id10__": ["big", "all"],
            "a": ["all", "odd"], "b": ["all"], "z": ["all", "odd"],
        ])
        for id in ids { #expect(selection.contains(path("c/\(id)"))) }
        for absent in ["c/__id07__", "c/__id8__", "c/0", "c/c", "d/a", "c/a/x/y"] { #expect(!selection.contains(path(absent))) }
    }

    @Test func aListedDocumentAloneHasNoQueries() throws {
        let selection = try BundleSelection.select(Self.specs("""
              - id: b
                documents: [c/__id007__, c/b]
            """), store: try Self.store())[0]
        #expect(selection.documents.map(\.document.path) == [path("c/__id007__"), path("c/b")])
        #expect(selection.documents.allSatisfy { $0.queries.isEmpty })
        #expect(selection.contains(path("c/__id007__")) && !selection.contains(path("c/__id7__")))
    }

    /// A site's queries run several at a time, yet each bundle selects what it selects alone, in
    /// the order of the config, however many run at once (fewer than the queries, or all).
    @Test func bundlesSelectTogetherAsEachAlone() throws {
        let specs = try Self.specs("""
              - id: one
                queries:
                  big: {collection: c, where: [[n, ">=", 7]]}
                  small: {collection: c, where: [[n, "<", 3]]}
              - id: two
                documents: [c/b]
                queries:
                  all: {collection: c}
              - id: three
                queries:
                  odd: {collection: c, where: [[n, in, [1, 3, 7]]]}
                  top: {collection: c, order_by: [[n, desc]], limit: 2}
                  none: {collection: c, where: [[n, ">", 100]]}
            """)
        let store = try Self.store()
        for threads in [1, 2, 8] {
            let together = try BundleSelection.select(specs, store: store, threads: threads)
            #expect(together.map(\.id) == ["one", "two", "three"])
            for (selection, spec) in zip(together, specs) {
                let alone = try BundleSelection.select([spec], store: store, threads: 1)[0]
                #expect(selection.namedQueries.map(\.name) == alone.namedQueries.map(\.name))
                #expect(selection.documents.map(\.document.path) == alone.documents.map(\.document.path))
                #expect(selection.documents.map(\.queries) == alone.documents.map(\.queries))
            }
            #expect(together[2].documents.map { $0.document.path.lastSegment! } == ["__id7__", "__id007__", "__id10__", "a", "z"])
        }
    }

    /// What a bundle published and no longer selects: its current documents walked beside the
    /// selection (ids that order alike included), and those only earlier ones looked up; the
    /// same as asking of each path.
    @Test func findsWhatItPublishedAndNoLongerSelects() throws {
        let selection = try BundleSelection.select(Self.specs("""
              - id: b
                queries:
                  big: {collection: c, where: [[n, ">=", 7]]}
            """), store: try Self.store())[0]
        let version = ShippedVersion.existing(updateTime: try Timestamp(seconds: 2, nanos: 0), fingerprint: DocumentFingerprint(bits: 1))
        let gone = EarlierVersion(kind: .existing(updateTime: try Timestamp(seconds: 1, nanos: 0)), until: try Timestamp(seconds: 2, nanos: 0))
        // `c/__id007__` is selected second among the ids that order as 7: the walk looks past the first.
        let current = ShippedDocuments(["c/__id07__", "c/__id7__", "c/__id007__", "c/__id10__", "c/a", "c/b", "c/zz", "d/a"].map { (path($0), version) })
        let history = BundleHistory(
            createTime: try Timestamp(seconds: 3, nanos: 0), contentDigest: "", current: current,
            earlier: [path("c/__id007__"): [gone], path("c/a"): [gone], path("c/old"): [gone], path("c/__id0010__"): [gone]])
        let unselected = selection.unselected(in: history)
        #expect(Set(unselected) == Set(history.paths.filter { !selection.contains($0) }))
        #expect(Set(unselected) == Set(["c/__id07__", "c/a", "c/b", "c/zz", "d/a", "c/old", "c/__id0010__"].map(path)))
        #expect(unselected.count == 7)
    }

    /// Merging a bundle's results moves documents from the arrays' ends; it selects what merging
    /// them forward, one query after another, selects (the order and queries of every path, ids
    /// that order alike and listed documents listed twice included), over seeded random bundles.
    @Test func mergingFromTheEndsSelectsWhatMergingForwardDoes() throws {
        var store = DocumentStore(database: demo)
        let ids = ["__id7__", "__id007__", "__id0007__", "__id10__", "__id010__", "a", "b", "c", "x", "y", "z", "__id3__"]
        for (n, id) in ids.enumerated() {
            var fields = MapValue()
            fields["n"] = .integer(Int64(n))
            store.insert(Document(path: path("c/\(id)"), fields: fields, createTime: try Timestamp(seconds: 1, nanos: 0), updateTime: try Timestamp(seconds: 2, nanos: 0)))
        }
        // Knuth's MMIX linear congruential generator, seeded: the same bundles every run.
        var state: UInt64 = 19
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for trial in 0..<60 {
            let queries = (0..<(1 + next(4))).map { index in
                let values = ids.indices.filter { _ in next(2) == 0 }
                return "      q\(index): {collection: c, where: [[n, in, \(values.isEmpty ? [0] : values)]]}"
            }
            let listed = (0..<next(4)).map { _ in "c/\(ids[next(ids.count)])" }
            let spec = try Self.specs("""
                  - id: b
                    documents: [\(listed.joined(separator: ", "))]
                    queries:
                \(queries.joined(separator: "\n"))
                """)[0]
            let selected = try BundleSelection.select([spec], store: store, threads: 2)[0].documents
            // Forward: each query's results (in key order) and then the listed documents added
            // in turn, a path met again adding its queries to its first place among those alike.
            var expected: [(path: ResourcePath, queries: [String])] = []
            let additions = spec.queries.map { named in
                store.evaluate(named.query).sorted(byPath: \.path).map { (path: $0.path, queries: [named.name]) }
            } + [spec.documents.sorted(byPath: { $0 }).map { (path: $0, queries: [String]()) }]
            for addition in additions {
                var merged: [(path: ResourcePath, queries: [String])] = []
                var (next, nextAdded) = (0, 0)
                while next < expected.count || nextAdded < addition.count {
                    let takeEarlier = nextAdded == addition.count
                        || (next < expected.count && ResourcePath.compare(expected[next].path, addition[nextAdded].path) != .greater)
                    let item = takeEarlier ? expected[next] : addition[nextAdded]
                    if takeEarlier { next += 1 } else { nextAdded += 1 }
                    let run = merged.lastIndex { ResourcePath.compare($0.path, item.path) != .equal }.map { $0 + 1 } ?? 0
                    if let same = merged[run...].firstIndex(where: { $0.path == item.path }) {
                        merged[same].queries += item.queries
                    } else {
                        merged.append(item)
                    }
                }
                expected = merged
            }
            #expect(selected.map(\.document.path) == expected.map(\.path), "trial \(trial)")
            #expect(selected.map(\.queries) == expected.map(\.queries), "trial \(trial)")
        }
    }
}
