import BundleFormat
import FirestoreModel
import JSONCore
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
    }

    var id: String
    /// The fields the bundle publishes (applied to every document it ships, leavers included).
    var fieldPolicy: FieldPolicy
    /// In config order.
    var namedQueries: [NamedQuery]
    /// The selected documents, each with the named queries whose results hold it.
    var documents: [ResourcePath: (document: Document, queries: [String])]

    /// Runs `spec`'s named queries over `store` and adds the documents it lists.
    static func select(_ spec: BundleSpec, store: DocumentStore) throws(BuildError) -> BundleSelection {
        var selection = BundleSelection(id: spec.id, fieldPolicy: spec.fieldPolicy, namedQueries: [], documents: [:])
        for named in spec.queries {
            let bundled = BundledQuery(database: store.database, query: named.query)
            selection.namedQueries.append(NamedQuery(name: named.name, bundledQuery: bundled.jsonBytes, location: named.location))
            // The bundle's fields: policy was checked to keep every field the query reads, so the
            // results are the same over the published documents.
            for document in store.evaluate(named.query) {
                selection.documents[document.path, default: (document, [])].queries.append(named.name)
            }
        }
        for path in spec.documents {
            guard let document = store.document(at: path) else {
                throw .config(ConfigError("bundle \"\(spec.id)\" lists document \(path), which is not in the inputs", at: spec.location))
            }
            if selection.documents[path] == nil { selection.documents[path] = (document, []) }
        }
        return selection
    }
}
