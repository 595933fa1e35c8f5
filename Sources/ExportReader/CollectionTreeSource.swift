import FirestoreModel
import JSONCore

/// Reads an export that nests documents in collections (``CollectionTreeLayout``), depth
/// first: each document, then its subcollections, then its next sibling, in file order.
///
/// Such files have no document names, times or project, so documents are relative to the
/// target database and get their times from the build's snapshot time.
struct CollectionTreeSource<Layout: CollectionTreeLayout>: ExportDocumentSource {
    /// A collection being walked: its path, its documents, and the next one to visit.
    private struct Frame {
        var collection: ResourcePath
        var documents: [JSONObject.Member]
        var next = 0
    }

    private let layout: Layout
    private let values: UntypedValueDecoder
    private let sourceMap: SourceMap
    private let target: DatabaseID
    /// The parsed file until the first call of ``next()`` takes its root collections.
    private var root: JSONNode?
    private var stack: [Frame] = []
    /// The last location computed, so locations are found walking forward once.
    private var anchor: (offset: Int, location: SourceLocation)

    init(layout: Layout, file: ParsedFile, hints: TypeHints, target: DatabaseID) {
        self.layout = layout
        values = UntypedValueDecoder(dialect: layout.dialect, hints: hints)
        sourceMap = file.sourceMap
        self.target = target
        root = file.root
        anchor = (0, SourceLocation(file: file.sourceMap.file, line: 1, column: 1))
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        do throws(JSONDecodingError) {
            if let root {
                self.root = nil
                try push(layout.rootCollections(of: root))
            }
            while let top = stack.indices.last {
                guard stack[top].next < stack[top].documents.count else {
                    stack.removeLast()
                    continue
                }
                let member = stack[top].documents[stack[top].next]
                stack[top].next += 1
                if let document = try visit(member, in: stack[top].collection) {
                    return document
                }
            }
            return nil
        } catch {
            throw .invalidDocument(sourceMap.location(ofOffset: error.offset), message: error.message)
        }
    }

    /// Queues the subcollections of the document `member` and returns the document, unless it
    /// only stands for a missing parent.
    private mutating func visit(_ member: JSONObject.Member, in collection: ResourcePath) throws(JSONDecodingError) -> ExportedDocument? {
        guard !member.key.isEmpty, !member.key.contains("/") else {
            throw JSONDecodingError(offset: member.keyOffset, message: "a document ID must be non-empty and without '/', found \"\(member.key)\" in collection \"\(collection)\"")
        }
        let path = collection.appending(member.key)
        guard let object = member.value.objectValue else {
            throw JSONDecodingError(offset: member.value.offset, message: "document \"\(path)\" must be an object of fields, found \(member.value.kindDescription)")
        }
        var subcollections: [CollectionNode] = []
        if let nested = object.member(layout.subcollectionsKey) {
            guard let nestedCollections = nested.value.objectValue else {
                throw JSONDecodingError(offset: nested.value.offset, message: "\"\(nested.key)\" of document \"\(path)\" must be an object of collection → documents, found \(nested.value.kindDescription)")
            }
            for subcollection in nestedCollections.members {
                do throws(PathError) {
                    subcollections.append(CollectionNode(path: try layout.subcollection(subcollection.key, of: path), node: subcollection.value))
                } catch {
                    throw JSONDecodingError(offset: subcollection.keyOffset, message: "subcollection of \"\(path)\": \(error.message)")
                }
            }
        }
        try push(subcollections)
        if layout.fieldlessParentsAreMissing, object.count == 1, !subcollections.isEmpty {
            return nil
        }
        let fields = try values.fields(of: object, skipping: layout.subcollectionsKey, relativeTo: target)
        anchor = (member.value.offset, sourceMap.location(ofOffset: member.value.offset, after: anchor))
        return ExportedDocument(document: Document(path: path, fields: fields), sourceDatabase: target, location: anchor.location)
    }

    /// Queues collections so that the first is walked first.
    private mutating func push(_ collections: [CollectionNode]) throws(JSONDecodingError) {
        for collection in collections.reversed() {
            guard collection.path.isCollection else {
                throw JSONDecodingError(offset: collection.node.offset, message: "\"\(collection.path)\" is not a collection path (it needs an odd number of segments)")
            }
            guard let documents = collection.node.objectValue else {
                let hint = collection.node.arrayValue == nil ? "" :
                    "; a list of documents has no IDs (the import-only list form of firestore-export-import), and a bundle needs them: key each document by its ID"
                throw JSONDecodingError(
                    offset: collection.node.offset,
                    message: "collection \"\(collection.path)\" must be an object of document ID → document, found \(collection.node.kindDescription)\(hint)")
            }
            stack.append(Frame(collection: collection.path, documents: documents.members))
        }
    }
}
