import FirestoreModel

/// The field paths of a set of documents, per collection id (as a collection group sees them),
/// with the value types found and the documents that carry each: what ``ExposureReport`` lists
/// of a published site, and `bundlepress init` of an export. Keys are UTF-8 bytes: Firestore
/// tells apart names that Swift's `String` equality does not.
public struct FieldInventory: Sendable {
    private struct Collection: Sendable {
        var documents: Set<[UInt8]> = []
        var sources: [String] = []
        var fields: [[UInt8]: (types: Set<Int>, documents: Set<[UInt8]>)] = [:]
    }

    /// Firestore's type order, for listing a field's types.
    static let typeOrder = ["null", "boolean", "integer", "double", "timestamp", "string", "bytes", "reference", "geopoint", "array", "vector", "map"]

    private var collections: [[UInt8]: Collection] = [:]

    public init() {}

    /// Counts `document`, read from `source` (a bundle id, a file): a document added twice counts once.
    public mutating func add(_ document: Document, from source: String) {
        let name = Array(document.path.description.utf8)
        let id = Array(document.collectionID.utf8)
        var collection = collections[id, default: Collection()]
        collection.documents.insert(name)
        if collection.sources.last != source { collection.sources.append(source) }
        Self.walk(document.fields, at: []) { path, value in
            let key = Array(FieldPath(segments: path).canonicalString.utf8)
            collection.fields[key, default: ([], [])].types.insert(Self.typeOrder.firstIndex(of: value.typeName)!)
            collection.fields[key]!.documents.insert(name)
        }
        collections[id] = collection
    }

    /// Per collection id in UTF-8 order, its fields in UTF-8 order of their paths; with
    /// `listingSources`, the sources each collection's documents came from, in the order added.
    public func summary(listingSources: Bool) -> [ExposureReport.CollectionExposure] {
        collections.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { id, collection in
            ExposureReport.CollectionExposure(
                collection: String(decoding: id, as: UTF8.self), documents: collection.documents.count,
                bundles: listingSources ? collection.sources : nil,
                fields: collection.fields.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { path, field in
                    ExposureReport.FieldExposure(
                        path: String(decoding: path, as: UTF8.self), types: field.types.sorted().map { Self.typeOrder[$0] },
                        documents: field.documents.count)
                })
        }
    }

    /// Calls `visit` with every field path under `map` and its value: a map's own path before the
    /// paths under it; an array's elements and a vector's parts are not paths.
    private static func walk(_ map: MapValue, at path: [String], _ visit: ([String], Value) -> Void) {
        for field in map.fields {
            let here = path + [field.key]
            visit(here, field.value)
            if case .map(let inner) = field.value, !field.value.isVector { walk(inner, at: here, visit) }
        }
    }
}
