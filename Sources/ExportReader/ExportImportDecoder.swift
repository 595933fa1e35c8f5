import FirestoreModel
import JSONCore

/// Reads dalenguyen/firestore-export-import backups (`backup`/`backups`; research notes §1.b):
///
/// ```json
/// {"cities": {"SF": {"name": "San Francisco",
///   "updated": {"_seconds": 1714566896, "_nanoseconds": 123456000},
///   "subCollection": {"cities/SF/landmarks": {"gg": {"name": "Golden Gate Bridge"}}}}}}
/// ```
///
/// Top-level keys are collection paths (`backup(db, "a/b/c")` writes a path). `subCollection`
/// keys are full collection paths below their document; a single collection ID is accepted
/// too. Values are `JSON.stringify`'d Admin SDK objects, recognised by their exact key sets:
/// `{_seconds, _nanoseconds}`, `{_latitude, _longitude}`, Node Buffer JSON and serialised
/// DocumentReferences. References exported with the `refs` option are plain path strings,
/// which only a `references:` hint can tell from strings.
struct ExportImportDecoder: CollectionTreeLayout {
    var dialect: UntypedJSONDialect { [.secondsObjects, .latitudeObjects, .bufferObjects, .referenceObjects] }
    var subcollectionsKey: String { "subCollection" }
    var fieldlessParentsAreMissing: Bool { false }

    func rootCollections(of root: JSONNode) throws(JSONDecodingError) -> [CollectionNode] {
        guard let object = root.objectValue else {
            throw JSONDecodingError(offset: root.offset, message: "expected an object of collection path → documents, found \(root.kindDescription)")
        }
        var roots: [CollectionNode] = []
        for member in object.members {
            do throws(PathError) {
                roots.append(CollectionNode(path: try ResourcePath(parsing: member.key), node: member.value))
            } catch {
                throw JSONDecodingError(offset: member.keyOffset, message: "collection path: \(error.message)")
            }
        }
        return roots
    }

    func subcollection(_ key: String, of document: ResourcePath) throws(PathError) -> ResourcePath {
        let path = try ResourcePath(parsing: key)
        if path.count == 1 {
            return document.appending(key)
        }
        guard document.isImmediateParent(of: path) else {
            throw PathError("\"\(key)\" is not a collection directly below \"\(document)\" (expected \"\(document)/<collection>\" or a collection ID)")
        }
        return path
    }
}
