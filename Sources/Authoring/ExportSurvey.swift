import ExportReader
import FirestoreModel
import Foundation
import Publishing
import QueryEngine

/// What `bundlepress init` finds in a user's exports: the inputs and their formats, the
/// databases the documents name, each collection id's documents and fields (with their types
/// and how often they occur), and the newest `updateTime`.
public struct ExportSurvey: Sendable {
    /// One export read.
    public struct Input: Sendable, Equatable {
        public var path: String
        public var format: ExportFormat
        public var documents: Int
    }

    /// A document that more than one export (or one export twice) holds: where it was first
    /// seen and where again. A build refuses it unless `duplicates: last-wins`.
    public struct Duplicate: Sendable, Equatable {
        public var document: String
        public var first: String
        public var again: String
    }

    /// A file a scan found that is not a readable export, and why.
    public struct Skipped: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// The database documents are re-rooted to while surveying; a document that still names it
    /// comes from a format that records no project.
    static let unnamed = DatabaseID(project: "bundlepress-init-unnamed")

    public private(set) var inputs: [Input] = []
    public private(set) var skipped: [Skipped] = []
    /// The newest `updateTime` of any document.
    public private(set) var newestUpdateTime: Timestamp?
    /// When the newest export was written (its file's or folder's modification time, to the
    /// second): the best guess at when it was taken when no document has an `updateTime`.
    public private(set) var newestExportWritten: Timestamp?
    /// Whether an export records when it was taken (managed and emulator exports do, in their
    /// metadata): a build then takes its snapshot time from there.
    public private(set) var exportsRecordTheirTime = false
    /// How many documents were read again after their first occurrence, and the first of them.
    public private(set) var duplicateCount = 0
    public private(set) var firstDuplicate: Duplicate?
    /// The collection ids that hold documents at the top level, in UTF-8 order.
    public var topLevelCollections: [String] { topLevel.sorted { UTF8Order.compare($0, $1) == .less } }
    /// Per collection id (a collection group), its documents and fields.
    public var collections: [ExposureReport.CollectionExposure] { inventory.summary(listingSources: false) }

    private var topLevel: Set<String> = []
    private var databases: [String: (database: DatabaseID, documents: Int)] = [:]
    private var inventory = FieldInventory()
    /// Each document's resource path, with the export it was first read from.
    private var seen: [String: String] = [:]

    /// Every document read, when the survey was asked to keep them (`init --from-extension`
    /// reads the spec documents and the values of the fields their parameters compare).
    public private(set) var documents: DocumentStore?

    /// A survey; with `keepingDocuments`, one that also keeps every document read in ``documents``.
    public init(keepingDocuments: Bool = false) {
        documents = keepingDocuments ? DocumentStore(database: Self.unnamed) : nil
    }

    /// The database most documents name, or nil when the exports name none.
    public var database: DatabaseID? {
        databases.values.max { ($0.documents, $1.database.resourceName) < ($1.documents, $0.database.resourceName) }?.database
    }

    /// Reads the export at `path` (a file, or a managed or emulator export's folder), its format detected.
    public mutating func add(_ path: String) throws(ExportError) {
        let reader = ExportReader(target: Self.unnamed)
        let format = try reader.detectFormat(of: path)
        var count = 0
        var kept: [Document] = []
        let keeping = documents != nil
        let exportTime: Timestamp?
        do {
            // Counted into a copy, kept only when the whole export reads: a file that fails half
            // way (skipped by a scan) adds nothing. Its documents join the store after, when the
            // copy is gone, so that the store is not copied.
            var survey = self
            exportTime = try reader.read(path, format: format) { exported in
                count += 1
                survey.count(exported, from: path)
                if keeping { kept.append(exported.document) }
            }
            self = survey
        }
        for document in kept { documents?.insert(document) }
        if exportTime != nil { exportsRecordTheirTime = true }
        inputs.append(Input(path: path, format: format, documents: count))
        if let written = Self.modificationTime(of: path), newestExportWritten.map({ written > $0 }) ?? true { newestExportWritten = written }
    }

    /// The modification time of the file or folder at `path`, to the second.
    private static func modificationTime(of path: String) -> Timestamp? {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        return try? Timestamp(seconds: Int64(date.timeIntervalSince1970.rounded(.down)), nanos: 0)
    }

    /// Reads every export `candidates(under:excluding:)` finds; a file that is not a readable
    /// export is listed in ``skipped``.
    public mutating func scan(_ directory: String, excluding excluded: [String]) {
        for path in Self.candidates(under: directory, excluding: excluded) {
            do {
                try add(path)
            } catch {
                skipped.append(Skipped(path: path, reason: error.description))
            }
        }
    }

    private mutating func count(_ exported: ExportedDocument, from path: String) {
        let document = exported.document
        inventory.add(document, from: path)
        let name = document.path.description
        if let first = seen[name] {
            duplicateCount += 1
            if firstDuplicate == nil { firstDuplicate = Duplicate(document: name, first: first, again: path) }
        } else {
            seen[name] = path
        }
        if document.path.count == 2 { topLevel.insert(document.collectionID) }
        if let updated = document.updateTime, newestUpdateTime.map({ updated > $0 }) ?? true { newestUpdateTime = updated }
        if exported.sourceDatabase != Self.unnamed {
            databases[exported.sourceDatabase.resourceName, default: (exported.sourceDatabase, 0)].documents += 1
        }
    }

    /// The exports below `directory`, in path order: `.json`, `.ndjson` and `.jsonl` files, and
    /// managed or emulator export folders (taken whole). Hidden folders, `node_modules` and the
    /// `excluded` paths (the site directory) are not entered.
    public static func candidates(under directory: String, excluding excluded: [String]) -> [String] {
        let fileManager = FileManager.default
        let skip = Set(excluded.map { ($0 as NSString).standardizingPath })
        var found: [String] = []
        func visit(_ folder: String) {
            guard let entries = try? fileManager.contentsOfDirectory(atPath: folder) else { return }
            if entries.contains("firebase-export-metadata.json") || entries.contains(where: { $0.hasSuffix(".overall_export_metadata") }) {
                found.append(folder)
                return
            }
            for entry in entries.sorted(by: { UTF8Order.compare($0, $1) == .less }) where !entry.hasPrefix(".") && entry != "node_modules" {
                let path = folder == "." ? entry : (folder as NSString).appendingPathComponent(entry)
                guard !skip.contains((path as NSString).standardizingPath) else { continue }
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    visit(path)
                } else if ["json", "ndjson", "jsonl"].contains((entry as NSString).pathExtension.lowercased()) {
                    found.append(path)
                }
            }
        }
        visit(directory)
        return found
    }
}
