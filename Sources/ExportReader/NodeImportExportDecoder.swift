import FirestoreModel
import JSONCore

/// Reads jloosli/node-firestore-import-export exports of a database root (`firestore-export`
/// without `--nodePath`; research notes §1.a):
///
/// ```json
/// {"__collections__": {"cities": {"SF": {"name": "San Francisco",
///   "updated": {"__datatype__": "timestamp", "value": {"_seconds": 1714566896, "_nanoseconds": 123456000}},
///   "__collections__": {"landmarks": {"gg": {…, "__collections__": {}}}}}}}}
/// ```
///
/// Timestamps, geopoints and references are tagged with `__datatype__`; everything else is
/// plain JSON (bytes became `{"0": 137, …}` maps, NaN became null). A document without fields
/// whose `__collections__` is not empty is a missing parent (the exporter writes `{}` for a
/// document that does not exist but has subcollections) and is skipped.
struct NodeImportExportDecoder: CollectionTreeLayout {
    var dialect: UntypedJSONDialect { .datatypeTags }
    var subcollectionsKey: String { "__collections__" }
    var fieldlessParentsAreMissing: Bool { true }

    func rootCollections(of root: JSONNode) throws(JSONDecodingError) -> [CollectionNode] {
        let reExport = "which does not record its path; export the database root (`firestore-export` without `--nodePath`)"
        guard let object = root.objectValue, let collections = object.member(subcollectionsKey) else {
            throw JSONDecodingError(offset: root.offset, message: "no \"__collections__\" at the top of the file: this is the export of one collection, \(reExport)")
        }
        if let field = object.members.first(where: { !UTF8Order.equal($0.key, subcollectionsKey) }) {
            throw JSONDecodingError(offset: field.keyOffset, message: "a field beside \"__collections__\" at the top of the file: this is the export of one document, \(reExport)")
        }
        guard let members = collections.value.objectValue?.members else {
            throw JSONDecodingError(offset: collections.value.offset, message: "\"__collections__\" must be an object of collection ID → documents, found \(collections.value.kindDescription)")
        }
        var roots: [CollectionNode] = []
        for member in members {
            do throws(PathError) {
                roots.append(CollectionNode(path: try subcollection(member.key, of: .root), node: member.value))
            } catch {
                throw JSONDecodingError(offset: member.keyOffset, message: error.message)
            }
        }
        return roots
    }

    func subcollection(_ key: String, of document: ResourcePath) throws(PathError) -> ResourcePath {
        guard !key.isEmpty, !key.contains("/") else {
            throw PathError("a collection ID must be non-empty and without '/', found \"\(key)\"")
        }
        return document.appending(key)
    }
}
