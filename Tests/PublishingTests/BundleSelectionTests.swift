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
}
