import FirestoreModel
import JSONCore

/// Reads benyap/firestore-backfire NDJSON records (`serializeDocument`; research notes §1.c):
///
/// ```json
/// {"path":"cities/SF","data":{…},"timestamps":["updated"],"geopoints":["loc"],"documents":["mayor"]}
/// ```
///
/// `data` is the document's `JSON.stringify`'d data. Backfire lists the fields that were
/// timestamps, geopoints and references by dotted path, array elements by index (`tags.0`),
/// and their values keep the Admin SDK shapes (`_seconds`/`_nanoseconds`,
/// `_latitude`/`_longitude`, `{"_path": {"segments"}}`): only listed values get those types.
/// Bytes became `{"0": 137, …}` maps, integral doubles integers, NaN null.
struct BackfireDecoder: NDJSONRecordDecoder {
    /// The record's typed-field lists and the type each gives.
    static let lists: [(key: String, kind: TypeHints.Kind)] = [("timestamps", .timestamps), ("geopoints", .geopoints), ("documents", .references)]
    static let keys: Set<String> = Set(["path", "data"] + lists.map(\.key))

    private let values: UntypedValueDecoder
    private let reRooter: DocumentReRooter

    init(target: DatabaseID, hints: TypeHints) {
        values = UntypedValueDecoder(dialect: [], hints: hints)
        reRooter = DocumentReRooter(target: target)
    }

    func decode(_ record: JSONNode, line: RecordLine, locate: (Int) -> SourceLocation, _ body: (ExportedDocument) -> Void) throws(ExportError) {
        do throws(JSONDecodingError) {
            guard let object = record.objectValue, let path = object["path"], let data = object["data"] else {
                let found = record.objectValue.map(RESTRecordDecoder.describeKeys(of:)) ?? record.kindDescription
                throw JSONDecodingError(offset: record.offset, message: "expected a firestore-backfire record {\"path\", \"data\", …}, found \(found)")
            }
            if let unknown = RESTRecordDecoder.unknownKey(in: object, allowed: Self.keys, context: "a firestore-backfire record") {
                throw JSONDecodingError(offset: unknown.offset, message: unknown.message)
            }
            guard let pathText = path.stringValue else {
                throw JSONDecodingError(offset: path.offset, message: "\"path\" must be a document path string, found \(path.kindDescription)")
            }
            let name = try Value.decodeReference(pathText, field: "document path", offset: path.offset, relativeTo: reRooter.target)
            guard let fields = data.objectValue else {
                throw JSONDecodingError(offset: data.offset, message: "\"data\" must be an object of fields, found \(data.kindDescription)")
            }
            let typed = try Self.typedFields(of: object)
            let document = Document(path: name.path, fields: try values.fields(of: fields, record: typed, relativeTo: name.database))
            body(ExportedDocument(
                document: reRooter.reRoot(document, from: name.database), sourceDatabase: name.database,
                location: line.location(ofOffset: record.offset, locate: locate)))
        } catch {
            throw .invalidDocument(locate(error.offset), message: error.message)
        }
    }

    /// The tree of the record's `timestamps`, `geopoints` and `documents` lists, or nil.
    private static func typedFields(of record: JSONObject) throws(JSONDecodingError) -> TypedFieldTree? {
        var tree: TypedFieldTree?
        for (key, kind) in lists {
            guard let list = record[key] else { continue }
            guard let entries = list.arrayValue else {
                throw JSONDecodingError(offset: list.offset, message: "\"\(key)\" must be a list of field paths, found \(list.kindDescription)")
            }
            for entry in entries {
                guard let text = entry.stringValue else {
                    throw JSONDecodingError(offset: entry.offset, message: "\"\(key)\" must hold field path strings, found \(entry.kindDescription)")
                }
                // Backfire joins keys with '.' without escaping: split the same way.
                let segments = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { String(Substring($0)) }
                if tree == nil { tree = TypedFieldTree(addressing: .byIndex) }
                tree?.insert(segments[...], TypedFieldTree.Typed(kind: kind, origin: "the record's \"\(key)\" entry \"\(text)\""))
            }
        }
        return tree
    }
}
