import FirestoreModel
import Foundation
import JSONCore

/// The files of a managed export (`gcloud firestore export`: `<name>.overall_export_metadata`
/// and `all_namespaces/all_kinds/output-N`, or `all_namespaces/kind_<collection>/output-N` for
/// a collection-filtered export) or of an Emulator Suite export (`firebase-export-metadata.json`
/// naming the folder, `firestore_export/`, that holds the same layout).
///
/// A path may name the export folder, the emulator's folder, or either metadata file. The
/// data files of each kind folder are read in `output-N` order; a file its `.export_metadata`
/// lists but the folder lacks is an error (an incomplete copy), never a silent gap.
struct ExportFolder: Sendable {
    static let emulatorMetadata = "firebase-export-metadata.json"
    static let namespacesFolder = "all_namespaces"
    static let overallMetadataSuffix = ".overall_export_metadata"

    /// Every data file, kind folder by kind folder, each in `output-N` order.
    var dataFiles: [String]
    /// When the export started: the earliest start time in the kind folders' metadata.
    var exportTime: Timestamp?

    /// Whether `path` names an export folder or one of its metadata files, by name and markers
    /// only (nothing is read).
    static func recognizes(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        if name == emulatorMetadata || name.hasSuffix(overallMetadataSuffix) { return true }
        guard isDirectory(path) else { return false }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return entries.contains { $0 == emulatorMetadata || $0 == namespacesFolder || $0.hasSuffix(overallMetadataSuffix) }
            || isDirectory(join(path, "firestore_export", namespacesFolder))
    }

    /// Finds the export that `path` names and lists its data files.
    init(locating path: String) throws(ExportError) {
        let root = try Self.root(of: path)
        let namespaces = Self.join(root, Self.namespacesFolder)
        guard Self.isDirectory(namespaces) else {
            throw .invalidExportFolder(path: path, message: "no \(Self.namespacesFolder)/ folder in \(root); expected the folder of a managed or emulator export")
        }
        let kinds = Self.entries(of: namespaces).filter { ($0 == "all_kinds" || $0.hasPrefix("kind_")) && Self.isDirectory(Self.join(namespaces, $0)) }
        guard !kinds.isEmpty else {
            throw .invalidExportFolder(path: namespaces, message: "no all_kinds/ or kind_<collection>/ folder; expected the folders of an export's data files")
        }
        var dataFiles: [String] = []
        var startTimes: [Timestamp] = []
        for kind in kinds {
            let folder = Self.join(namespaces, kind)
            let (files, startTime) = try Self.dataFiles(in: folder)
            dataFiles += files
            if let startTime { startTimes.append(startTime) }
        }
        self.dataFiles = dataFiles
        exportTime = startTimes.min()
    }

    /// The folder holding `all_namespaces` for a path naming an export or its metadata.
    private static func root(of path: String) throws(ExportError) -> String {
        let name = (path as NSString).lastPathComponent
        if name == emulatorMetadata {
            return try emulatorRoot(metadata: path)
        }
        if name.hasSuffix(overallMetadataSuffix) {
            let folder = (path as NSString).deletingLastPathComponent
            return folder.isEmpty ? "." : folder
        }
        if isDirectory(path), FileManager.default.fileExists(atPath: join(path, emulatorMetadata)) {
            return try emulatorRoot(metadata: join(path, emulatorMetadata))
        }
        if !isDirectory(join(path, namespacesFolder)), isDirectory(join(path, "firestore_export", namespacesFolder)) {
            return join(path, "firestore_export")
        }
        return path
    }

    /// `firestore.path` of an emulator's `firebase-export-metadata.json`, under its folder.
    private static func emulatorRoot(metadata path: String) throws(ExportError) -> String {
        let file = try ParsedFile.read(try InputFile(path: path))
        guard let firestore = file.root.objectValue?["firestore"] else {
            throw .invalidDocument(file.sourceMap.location(ofOffset: file.root.offset), message: "an Emulator Suite export without Firestore data (no \"firestore\" key); expected {\"firestore\": {\"path\": …}}")
        }
        let folder = firestore.objectValue?["path"]?.stringValue ?? "firestore_export"
        guard !folder.isEmpty, !folder.hasPrefix("/"), !folder.split(separator: "/").contains("..") else {
            throw .invalidDocument(file.sourceMap.location(ofOffset: firestore.offset), message: "\"firestore.path\" must be a folder inside the export, found \"\(folder)\"")
        }
        return join((path as NSString).deletingLastPathComponent, folder)
    }

    /// The `output-N` files of a kind folder in N order, and the start time its metadata gives.
    private static func dataFiles(in folder: String) throws(ExportError) -> ([String], Timestamp?) {
        let entries = entries(of: folder)
        let present = entries.compactMap { name in outputNumber(name).map { (name, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
        guard let metadataName = entries.first(where: { $0.hasSuffix(".export_metadata") }) else {
            return (present.map { join(folder, $0) }, nil)
        }
        let metadataPath = join(folder, metadataName)
        let metadataBytes = try InputFile(path: metadataPath).readAll()
        let metadata: KindExportMetadata
        do throws(ProtoError) {
            metadata = try KindExportMetadata(bytes: metadataBytes)
        } catch {
            throw .invalidBinary(SourceLocation(file: metadataPath, byteOffset: error.offset), message: error.message)
        }
        for listed in metadata.outputFiles {
            guard outputNumber(listed) != nil else {
                throw .invalidExportFolder(path: metadataPath, message: "lists data file \"\(listed)\"; expected names output-N")
            }
            guard present.contains(listed) else {
                throw .unreadable(file: join(folder, listed), reason: "listed in \(metadataName) but missing: the export is incomplete (copy the whole folder, e.g. gcloud storage cp -r)")
            }
        }
        return (present.map { join(folder, $0) }, metadata.startTime)
    }

    /// N of a file named `output-N`.
    private static func outputNumber(_ name: String) -> Int? {
        guard name.hasPrefix("output-") else { return nil }
        let digits = name.dropFirst("output-".count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    private static func entries(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func join(_ parts: String...) -> String {
        parts.dropFirst().reduce(parts[0]) { ($0 as NSString).appendingPathComponent($1) }
    }
}
