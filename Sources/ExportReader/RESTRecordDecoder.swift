import FirestoreModel
import JSONCore

/// Turns one REST export record into the documents it holds, re-rooted to the target database.
///
/// Byte offsets become locations through `locate`, which the caller provides for the buffer
/// the record was parsed from; it is only called for errors.
struct RESTRecordDecoder: NDJSONRecordDecoder {
    let reRooter: DocumentReRooter
    /// Reads the common lines when only some fields are to be decoded.
    private let transcoder: RESTDocumentTranscoder?

    /// A decoder into `target`; with `fieldsKept`, one that decodes only those fields of the
    /// documents it can, encoding the others straight from the line.
    init(target: DatabaseID, fieldsKept: [FieldPath]? = nil) {
        reRooter = DocumentReRooter(target: target)
        transcoder = fieldsKept.map { RESTDocumentTranscoder(target: target, kept: $0) }
    }

    func transcode(_ line: Line, path: String) -> ExportedDocument? {
        guard let transcoded = transcoder?.transcode(line.bytes) else { return nil }
        return ExportedDocument(
            document: transcoded.document, sourceDatabase: transcoded.source, location: SourceLocation(file: path, line: line.number, column: 1),
            encodedFields: transcoded.encodedFields)
    }

    func decode(_ record: JSONNode, line: RecordLine, locate: (Int) -> SourceLocation, _ body: (ExportedDocument) -> Void) throws(ExportError) {
        try decode(record, locate: locate) { document, source, offset in
            body(ExportedDocument(document: document, sourceDatabase: source, location: line.location(ofOffset: offset, locate: locate)))
        }
    }

    /// Calls `body` with each document of `record`, the database its name named, and the
    /// offset of its JSON object. Progress-only `runQuery` elements and `missing` `batchGet`
    /// elements hold no document.
    func decode(
        _ record: JSONNode,
        locate: (Int) -> SourceLocation,
        _ body: (Document, DatabaseID, Int) -> Void
    ) throws(ExportError) {
        guard let object = record.objectValue else {
            throw .notADocument(locate(record.offset), found: record.kindDescription)
        }
        guard let kind = RESTRecordKind(object) else {
            throw .notADocument(locate(record.offset), found: Self.describeKeys(of: object))
        }
        if let unknown = Self.unknownKey(in: object, allowed: kind.allowedKeys, context: kind.displayName) {
            throw .invalidDocument(locate(unknown.offset), message: unknown.message)
        }
        switch kind {
        case .document:
            try decodeDocument(record, locate: locate, body)
        case .runQueryResult:
            try decodeDocument(object["document"]!, locate: locate, body)
        case .batchGetFound:
            try decodeDocument(object["found"]!, locate: locate, body)
        case .listPage:
            for document in object["documents"]!.arrayValue! {
                try decodeDocument(document, locate: locate, body)
            }
        case .runQueryProgress, .batchGetMissing:
            break
        }
    }

    private func decodeDocument(
        _ node: JSONNode,
        locate: (Int) -> SourceLocation,
        _ body: (Document, DatabaseID, Int) -> Void
    ) throws(ExportError) {
        do {
            let (source, document) = try Document.decodeREST(node, relativeTo: reRooter.target)
            body(reRooter.reRoot(document, from: source), source, node.offset)
        } catch {
            throw .invalidDocument(locate(error.offset), message: error.message)
        }
    }

    /// The first key of `object` not in `allowed`: where it is, and `unknown key "k" in <context>;
    /// expected "a", "b"` for the message. Nil when every key is allowed.
    static func unknownKey(in object: JSONObject, allowed: Set<String>, context: String) -> (offset: Int, message: String)? {
        guard let unknown = object.members.first(where: { !allowed.contains($0.key) }) else { return nil }
        let expected = allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        return (unknown.keyOffset, "unknown key \"\(unknown.key)\" in \(context); expected \(expected)")
    }

    /// "an object with keys "a", "b"" (at most five keys), for messages.
    static func describeKeys(of object: JSONObject) -> String {
        if object.isEmpty { return "an empty object" }
        let shown = object.keys.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
        return "an object with keys \(shown)\(object.count > 5 ? ", …" : "")"
    }
}
