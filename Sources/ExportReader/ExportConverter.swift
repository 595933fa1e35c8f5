import FirestoreModel
import JSONCore

/// Gathers the documents of any supported inputs and writes them as canonical Firestore REST
/// `Document` NDJSON, one document a line, sorted by name (`bundlepress convert`).
///
/// The lines are what `format: rest-ndjson` reads back losslessly, so converting is also the
/// way to compare what two readers make of their inputs. Documents keep their times when the
/// input has them and have none otherwise. A document given twice is an error naming both
/// places.
public struct ExportConverter: Sendable {
    public let reader: ExportReader
    private var documents: [ResourcePath: ExportedDocument] = [:]

    /// - Parameter reader: reads the inputs and re-roots them to its target database, whose
    ///   resource name the output names carry.
    public init(reader: ExportReader) {
        self.reader = reader
    }

    /// How many documents have been added.
    public var count: Int { documents.count }

    /// Reads every document of the input at `path` (see ``ExportReader/open(_:format:hints:byteRange:lineNumbering:)``).
    public mutating func add(_ path: String, format: ExportFormat? = nil, hints: TypeHints = TypeHints()) throws(ExportError) {
        var source = try reader.open(path, format: format, hints: hints)
        while let exported = try source.next() {
            if let first = documents[exported.document.path] {
                throw .duplicateDocument(exported.document.path.description, first: first.location, second: exported.location)
            }
            documents[exported.document.path] = exported
        }
    }

    /// The documents as REST `Document` NDJSON, sorted by name (Firestore's order).
    /// The databases the exports at `paths` name (managed and emulator exports, REST names), in
    /// the order found, each once: the first document of each export that names one decides for
    /// that export. Empty when none names a database (the JSON formats that keep no names).
    public static func namedDatabases(of paths: [String], format: ExportFormat? = nil, hints: TypeHints = TypeHints()) throws(ExportError) -> [DatabaseID] {
        let unnamed = DatabaseID(project: "bundlepress-convert-unnamed")
        let reader = ExportReader(target: unnamed)
        var found: [DatabaseID] = []
        for path in paths {
            var source = try reader.open(path, format: format, hints: hints)
            while let exported = try source.next() {
                guard exported.sourceDatabase != unnamed else { continue }
                if !found.contains(exported.sourceDatabase) { found.append(exported.sourceDatabase) }
                break
            }
        }
        return found
    }

    public func restNDJSON() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 256 * documents.count)
        let sorted = documents.values.map(\.document).sorted { ResourcePath.compare($0.path, $1.path) == .less }
        for document in sorted {
            document.encodeRESTJSON(into: &writer, database: reader.target)
            writer.byte(UInt8(ascii: "\n"))
        }
        return writer.bytes
    }
}
