import FirestoreModel
import JSONCore

/// Reads the Firestore → BigQuery extension's `*_raw_changelog` table exported as NDJSON
/// (`bq extract --destination_format NEWLINE_DELIMITED_JSON`; research notes §1.d):
///
/// ```json
/// {"timestamp":"2024-05-01 12:34:56.123456 UTC","event_id":"…","document_name":"projects/p/databases/(default)/documents/cities/SF",
///  "operation":"UPDATE","data":"{\"name\":\"San Francisco\",…}","old_data":"…","document_id":"SF"}
/// ```
///
/// A change log, not a snapshot: like the extension's `*_raw_latest` view, the newest row per
/// `document_name` by `timestamp` wins (on equal timestamps, the row later in the file), and a
/// document whose newest row is a DELETE is left out. The whole file is read before the first
/// document is returned, keeping only the newest row of each document (its `data` text
/// undecoded). `data` is the JSON text of the document with `{_seconds, _nanoseconds}`
/// timestamps and `{_latitude, _longitude}` geopoints; the extension removed bytes and wrote
/// references as relative path strings. The row's timestamp is the document's update time
/// (IMPORT rows carry the epoch, so theirs is left to the snapshot time); the newest CREATE row
/// gives the create time. Other columns (`event_id`, `document_id`, `old_data`, `path_params`,
/// partitioning columns) are ignored.
struct BigQueryChangelogDecoder: ExportDocumentSource {
    /// The `operation` column.
    enum Operation: String, CaseIterable {
        case create = "CREATE"
        case update = "UPDATE"
        case importRow = "IMPORT"
        case delete = "DELETE"
    }

    /// What is kept of a document's rows: the newest one, and the time of the newest CREATE.
    private struct Newest {
        var timestamp: Timestamp
        /// The `data` JSON text and where its string starts in the file; nil for a DELETE.
        var data: (text: String, location: SourceLocation)?
        var row: SourceLocation
        var created: Timestamp?
    }

    private var records: NDJSONRecords?
    private let path: String
    private let values: UntypedValueDecoder
    private let reRooter: DocumentReRooter
    private var newest: [ResourceName: Newest] = [:]
    /// Documents in the order they first appear, so output does not depend on hashing.
    private var order: [ResourceName] = []
    private var emitted = 0

    init(file: InputFile, hints: TypeHints, target: DatabaseID, chunkSize: Int) {
        records = NDJSONRecords(file: file, chunkSize: chunkSize)
        path = file.path
        values = UntypedValueDecoder(dialect: [.secondsObjects, .latitudeObjects], hints: hints)
        reRooter = DocumentReRooter(target: target)
    }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        if var records {
            self.records = nil
            while try records.next({ record, locate, line throws(ExportError) in try add(record, locate: locate, line: line) }) {}
        }
        while emitted < order.count {
            let name = order[emitted]
            emitted += 1
            guard let row = newest.removeValue(forKey: name), let data = row.data else { continue }
            return try document(name, row: row, data: data)
        }
        return nil
    }

    private mutating func add(_ record: JSONNode, locate: (Int) -> SourceLocation, line: Int) throws(ExportError) {
        do throws(JSONDecodingError) {
            guard let object = record.objectValue else {
                throw JSONDecodingError(offset: record.offset, message: "expected a raw changelog row {\"timestamp\", \"document_name\", \"operation\", \"data\", …}, found \(record.kindDescription)")
            }
            let name = try Self.documentName(object, at: record.offset, relativeTo: reRooter.target)
            let operation = try Self.operation(object, at: record.offset)
            let timestamp = try Self.timestamp(object, at: record.offset)
            let dataNode = operation == .delete ? nil : object["data"].flatMap { $0.isNull ? nil : $0 }
            if dataNode == nil, operation != .delete {
                throw JSONDecodingError(offset: record.offset, message: "\"data\" is null or missing in a \(operation.rawValue) row; only DELETE rows have no data")
            }
            let previous = newest[name]
            if previous == nil { order.append(name) }
            let created = operation == .create ? max(previous?.created ?? timestamp, timestamp) : previous?.created
            if let previous, timestamp < previous.timestamp {
                newest[name]?.created = created
                return
            }
            var data: (String, SourceLocation)?
            if let dataNode {
                guard let text = dataNode.stringValue else {
                    throw JSONDecodingError(offset: dataNode.offset, message: "\"data\" must be the document's JSON text (a string), found \(dataNode.kindDescription)")
                }
                data = (text, locate(dataNode.offset))
            }
            let row = record.offset == 0 ? SourceLocation(file: path, line: line, column: 1) : locate(record.offset)
            newest[name] = Newest(timestamp: timestamp, data: data, row: row, created: created)
        } catch {
            throw .invalidDocument(locate(error.offset), message: error.message)
        }
    }

    /// The document of a row's `data`; errors inside the text are reported at the `data`
    /// string with their position in the text.
    private func document(_ name: ResourceName, row: Newest, data: (text: String, location: SourceLocation)) throws(ExportError) -> ExportedDocument {
        let bytes = Array(data.text.utf8)
        func failure(_ offset: Int, _ message: String) -> ExportError {
            let inner = SourceMap(file: "data", bytes: bytes).location(ofOffset: offset)
            return .invalidDocument(data.location, message: "in the \"data\" JSON text at \(inner.line):\(inner.column): \(message)")
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw failure(error.offset, "invalid JSON: \(error.message)")
        }
        guard let object = root.objectValue else {
            throw failure(root.offset, "expected an object of fields, found \(root.kindDescription)")
        }
        let fields: MapValue
        do {
            fields = try values.fields(of: object, relativeTo: name.database)
        } catch {
            throw failure(error.offset, error.message)
        }
        let updateTime = row.timestamp.isPositive ? row.timestamp : nil
        let createTime = row.created.flatMap { $0.isPositive && $0 <= row.timestamp ? $0 : nil }
        let document = Document(path: name.path, fields: fields, createTime: createTime, updateTime: updateTime)
        return ExportedDocument(document: reRooter.reRoot(document, from: name.database), sourceDatabase: name.database, location: row.row)
    }

    private static func documentName(_ row: JSONObject, at offset: Int, relativeTo database: DatabaseID) throws(JSONDecodingError) -> ResourceName {
        let node = try column("document_name", of: row, at: offset)
        return try Value.decodeReference(node.text, field: "document_name", offset: node.offset, relativeTo: database)
    }

    private static func operation(_ row: JSONObject, at offset: Int) throws(JSONDecodingError) -> Operation {
        let node = try column("operation", of: row, at: offset)
        guard let operation = Operation.allCases.first(where: { UTF8Order.equal($0.rawValue, node.text) }) else {
            let expected = Operation.allCases.map(\.rawValue).joined(separator: ", ")
            throw JSONDecodingError(offset: node.offset, message: "operation must be one of \(expected), found \"\(node.text.prefix(40))\"")
        }
        return operation
    }

    /// The `timestamp` column as `bq extract` writes it (`2024-05-01 12:34:56.123456 UTC`), or RFC 3339.
    private static func timestamp(_ row: JSONObject, at offset: Int) throws(JSONDecodingError) -> Timestamp {
        let node = try column("timestamp", of: row, at: offset)
        var bytes = Array(node.text.utf8)
        if bytes.count > 4, bytes.suffix(4).elementsEqual(" UTC".utf8) {
            bytes.replaceSubrange((bytes.count - 4)..., with: [UInt8(ascii: "Z")])
        }
        if bytes.count > 10, bytes[10] == UInt8(ascii: " ") {
            bytes[10] = UInt8(ascii: "T")
        }
        do {
            return try Timestamp(rfc3339: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw JSONDecodingError(offset: node.offset, message: "timestamp \"\(node.text.prefix(40))\" is not a BigQuery TIMESTAMP; expected e.g. \"2024-05-01 12:34:56.123456 UTC\" or RFC 3339")
        }
    }

    private static func column(_ name: String, of row: JSONObject, at offset: Int) throws(JSONDecodingError) -> (text: String, offset: Int) {
        guard let node = row[name] else {
            throw JSONDecodingError(offset: offset, message: "a raw changelog row needs \"\(name)\"; found \(RESTRecordDecoder.describeKeys(of: row))")
        }
        guard let text = node.stringValue else {
            throw JSONDecodingError(offset: node.offset, message: "\(name) must be a string, found \(node.kindDescription)")
        }
        return (text, node.offset)
    }
}
