import FirestoreModel
import JSONCore

/// The documents of a managed or emulator export, streamed record by record and file by file:
/// one 32 KiB block and one record in memory at a time.
struct ManagedExportSource: ExportDocumentSource {
    private let folder: ExportFolder
    private let reRooter: DocumentReRooter
    private var fileIndex = 0
    private var log: LevelDBLogReader?
    /// Bytes of the data files read to the end.
    private var finishedBytes = 0

    init(folder: ExportFolder, target: DatabaseID) {
        self.folder = folder
        reRooter = DocumentReRooter(target: target)
    }

    var exportTime: Timestamp? { folder.exportTime }

    var bytesRead: Int? { finishedBytes + (log?.bytesRead ?? 0) }

    mutating func next() throws(ExportError) -> ExportedDocument? {
        while true {
            if log == nil {
                guard fileIndex < folder.dataFiles.count else { return nil }
                log = LevelDBLogReader(file: try InputFile(path: folder.dataFiles[fileIndex]))
                fileIndex += 1
            }
            if let record = try log!.next() {
                return try Self.decode(record, file: log!.path, reRooter: reRooter)
            }
            finishedBytes += log!.bytesRead
            log = nil
        }
    }

    /// The document of one record: an `EntityProto` with a key.
    static func decode(_ record: LogRecord, file: String, reRooter: DocumentReRooter) throws(ExportError) -> ExportedDocument {
        let location = SourceLocation(file: file, byteOffset: record.offset)
        do throws(ProtoError) {
            var reader = ProtoReader(bytes: record.payload)
            let entity = try EntityFields.decode(&reader, depth: 0, at: 0)
            guard let key = entity.key else {
                throw ProtoError(offset: 0, "an entity without a key; expected every record to name its document")
            }
            let document = Document(path: key.path, fields: entity.fields)
            return ExportedDocument(document: reRooter.reRoot(document, from: key.database), sourceDatabase: key.database, location: location)
        } catch {
            throw .invalidBinary(
                SourceLocation(file: file, byteOffset: record.fileOffset(ofPayloadByte: error.offset)),
                message: "in the entity record at byte \(record.offset): \(error.message)")
        }
    }
}
