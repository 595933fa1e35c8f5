import Crypto
import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import PipelineLanguage
import SystemSupport

/// A map task's partial on disk, for the merge on another machine: in the partial directory,
/// `shard-K-of-N.json` (the ``Header``) names its documents file, `shard-K-of-N.<run>.documents`
/// (an ``ExportedDocumentLog``), where `<run>` is random per run. The header is written last,
/// atomically, so a killed map task leaves no partial that looks complete, and two attempts of
/// one shard never write the same file.
///
/// A partial names the pipeline (its config's text, and every input by path, size and
/// modification time) and the binary that made it (version and ``BinaryDigest``); the merge
/// refuses partials of another pipeline or binary, and merges only when every shard of the same
/// count is there, once.
enum PartialFiles {
    /// What the header says.
    struct Header: Codable, Equatable, Sendable {
        /// One input of the layout.
        struct Input: Codable, Equatable, Sendable {
            var path: String
            var bytes: Int
            var dataFiles: Int
            /// Nanoseconds since the epoch.
            var modified: Int
        }

        /// One input the slice read, whole or a byte range of it.
        struct Piece: Codable, Equatable, Sendable {
            /// The index in `inputs`.
            var input: Int
            var start: Int?
            var end: Int?
            /// The newlines in `start..<end`: the lines of the input's later ranges count on from them.
            var newlines: Int?
        }

        /// A file the documents' locations name, by index: its path and the piece it was read in.
        struct File: Codable, Equatable, Sendable {
            var path: String
            var piece: Int
        }

        var format: String
        var bundlepress: String
        var binary: String
        var pipelineSHA256: String
        var shard: Int
        var shards: Int
        /// Every input of the pipeline (not only the slice's), in reading order.
        var inputs: [Input]
        var pieces: [Piece]
        var files: [File]
        var exportTimes: [String]
        var untimedExport: String?
        /// ``CandidateRules/previousDigest()`` of the previous state the documents were judged
        /// against; nil when every document is whole (no rules: a `for_each`).
        var candidatesJudgedWith: String?
        /// The documents file, in the header's directory.
        var documentsFile: String
        var documents: Int
        var documentsBytes: Int
    }

    static let format = "bundlepress-partial-3"

    /// `shard-K-of-N`, K zero-padded to N's digits so the files sort in shard order.
    static func baseName(of shard: Shard) -> String {
        let digits = String(shard.count - 1).count
        let index = String(shard.index)
        return "shard-\(String(repeating: "0", count: max(0, digits - index.count)))\(index)-of-\(shard.count)"
    }

    /// The documents of every shard's partial in `directories`, read in shard order into one
    /// set (as one process reading every input gets them), after checking that the partials are
    /// all there, once, from this pipeline and binary. `progress` hears of each as it is read.
    /// Also returns the export times, and the data files and bytes of all inputs.
    /// The fields of the candidates of `rules` (nil: of every document) are set aside in a file
    /// in `setAside` (``DocumentSet``).
    static func read(
        from directories: [String], config: PipelineConfig, candidates rules: CandidateRules?, in setAside: String,
        progress: (BuildEvent) -> Void
    ) throws(BuildError) -> (documents: DocumentSet, exportTimes: ExportTimes, files: Int, bytes: Int) {
        // The same directory named twice (or by another path) holds the same partials once.
        var seen: Set<String> = []
        let directories = directories.filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path).inserted }
        let headers = try findHeaders(in: directories)
        guard BinaryDigest.current != BinaryDigest.unknown else {
            throw .partials("cannot tell this binary from another (no build ID, and its file cannot be read), so no partial can be checked to come from it")
        }
        let pipeline = pipelineDigest(config)
        let previous = rules?.previousDigest()
        let first = headers[0]
        for (path, header) in headers {
            guard header.format == format else {
                throw .partials("\(path) is not a partial this version of bundlepress reads (format \(header.format), expected \(format))")
            }
            guard header.bundlepress == Version.current, header.binary == BinaryDigest.current else {
                throw .partials(
                    "\(path) was made by another bundlepress binary (\(header.bundlepress), \(header.binary); this is \(Version.current), \(BinaryDigest.current)): run every map task and the merge with the same binary")
            }
            guard (1...Shard.maximumCount).contains(header.shards), (0..<header.shards).contains(header.shard) else {
                throw .partials("\(path) says it is shard \(header.shard) of \(header.shards), which is not a shard")
            }
            guard header.pipelineSHA256 == pipeline else {
                throw .partials("\(path) was made from another pipeline: the map tasks and the merge must use the same \(config.file), unchanged")
            }
            // A partial without one kept every document whole: the merge may judge as it likes.
            if let judged = header.candidatesJudgedWith, judged != previous {
                throw .partials(
                    "\(path) kept the documents that can ship by another previous state than the merge reads (the site was published since, or the map task read another output directory or previous:): run the map tasks again with the merge's --output and --previous")
            }
            guard header.shards == first.header.shards, header.inputs == first.header.inputs else {
                throw .partials(
                    "\(path) (shard \(header.shard) of \(header.shards)) does not belong with \(first.path) (shard \(first.header.shard) of \(first.header.shards)): "
                        + (header.shards != first.header.shards ? "they cut the inputs into different numbers of shards" : "they read different inputs (files or sizes changed between the map tasks)"))
            }
        }
        let count = first.header.shards
        var byIndex: [Int: (path: String, header: Header)] = [:]
        for entry in headers {
            if let other = byIndex[entry.header.shard] {
                throw .partials("shard \(entry.header.shard) of \(count) is there twice: \(other.path) and \(entry.path); remove one")
            }
            byIndex[entry.header.shard] = entry
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.prefix(20).map(String.init).joined(separator: ", ") + (missing.count > 20 ? ", …" : "")
            throw .partials(
                "shard\(missing.count == 1 ? "" : "s") \(list) of \(count) \(missing.count == 1 ? "is" : "are") missing from \(directories.joined(separator: ", ")): run \(missing.count == 1 ? "its map task" : "their map tasks") (bundlepress build --shard K/\(count) --partial DIR) first; nothing was published")
        }

        let totalBytes = byIndex.values.reduce(0) { $0 + $1.header.documentsBytes }
        var bytesBefore = 0
        var documents = try DocumentSet(
            duplicates: config.duplicates, keeping: config.fieldsRead, candidates: rules, watching: config.queriedCollections, in: setAside)
        var exportTimes = ExportTimes()
        // Per input, the newlines of its ranges read so far, in shard order.
        var newlinesBefore: [Int: Int] = [:]
        for index in 0..<count {
            let (path, header) = byIndex[index]!
            var linesBefore: [Int] = []
            for piece in header.pieces {
                guard first.header.inputs.indices.contains(piece.input) else { throw .partials("\(path) names input \(piece.input), which is not one") }
                linesBefore.append((piece.start ?? 0) > 0 ? newlinesBefore[piece.input, default: 0] : 0)
                newlinesBefore[piece.input, default: 0] += piece.newlines ?? 0
            }
            let files = try header.files.map { file throws(BuildError) in
                guard linesBefore.indices.contains(file.piece) else { throw .partials("\(path) names piece \(file.piece), which is not one") }
                return ExportedDocumentLog.File(path: file.path, linesBefore: linesBefore[file.piece])
            }
            exportTimes.append(try readDocuments(of: header, at: path, files: files, config: config, into: &documents) { bytesRead in
                progress(.readingInput(BuildEvent.InputProgress(
                    path: path, index: index, count: count, bytesRead: bytesRead, bytes: header.documentsBytes,
                    totalBytesRead: bytesBefore + bytesRead, totalBytes: totalBytes)))
            })
            bytesBefore += header.documentsBytes
        }
        return (documents, exportTimes, first.header.inputs.reduce(0) { $0 + $1.dataFiles }, first.header.inputs.reduce(0) { $0 + $1.bytes })
    }

    /// Every partial header in `directories`, sorted by path.
    private static func findHeaders(in directories: [String]) throws(BuildError) -> [(path: String, header: Header)] {
        var found: [(path: String, header: Header)] = []
        for directory in directories {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw .partials("cannot read the partial directory \(directory): \(error.localizedDescription)")
            }
            for name in names.sorted() where name.hasPrefix("shard-") && name.hasSuffix(".json") {
                let path = (directory as NSString).appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: path) else { throw .partials("cannot read \(path)") }
                do {
                    found.append((path, try JSONDecoder().decode(Header.self, from: data)))
                } catch {
                    throw .partials("\(path) is not a partial header: \(error)")
                }
            }
        }
        guard !found.isEmpty else {
            throw .partials("no partials (shard-K-of-N.json) in \(directories.joined(separator: ", ")): run the map tasks (bundlepress build --shard K/N --partial DIR) first")
        }
        return found
    }

    /// Adds the documents of the partial whose header is at `headerPath` to `documents`;
    /// returns its export times.
    private static func readDocuments(
        of header: Header, at headerPath: String, files: [ExportedDocumentLog.File], config: PipelineConfig, into documents: inout DocumentSet,
        progress: (Int) -> Void
    ) throws(BuildError) -> ExportTimes {
        guard header.documentsFile == (header.documentsFile as NSString).lastPathComponent, header.documentsFile.hasSuffix(".documents") else {
            throw .partials("\(headerPath) names \(header.documentsFile) as its documents, which is not a documents file beside it")
        }
        let path = ((headerPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(header.documentsFile)
        let size = FileStamp(path: path).map { Int($0.size) }
        guard size == header.documentsBytes else {
            throw .partials("\(path) holds \(size.map { "\($0) bytes" } ?? "nothing") where its header says \(header.documentsBytes): it is incomplete or from another run; run its map task again")
        }
        var times = ExportTimes(taken: [], untimedExport: header.untimedExport)
        for text in header.exportTimes {
            guard let time = try? Timestamp(rfc3339: text) else { throw .partials("\(headerPath): \"\(text)\" is not an export time") }
            times.taken.append(time)
        }
        var count = 0
        var failure: BuildError?
        do throws(ExportError) {
            var source = try ExportedDocumentLog.open(path, files: files, database: config.database)
            try source.forEach(progress: progress) { exported in
                guard failure == nil else { return }
                do throws(BuildError) {
                    try documents.add(exported)
                    count += 1
                } catch {
                    failure = error
                }
            }
        } catch {
            throw .partials("\(path) is damaged: \(error)")
        }
        if let failure { throw failure }
        guard count == header.documents else {
            throw .partials("\(path) holds \(count) documents where its header says \(header.documents); run its map task again")
        }
        return times
    }

    /// What a partial must agree on with the merge: the config's text and the duplicates rule
    /// it was read with.
    static func pipelineDigest(_ config: PipelineConfig) -> String {
        var hash = SHA256()
        hash.update(data: Data("\(format)\n\(config.database)\nduplicates \(config.duplicates.rawValue)\n".utf8))
        hash.update(data: Data(config.source.utf8))
        return hash.finalize().hex
    }
}

/// Streams a map task's documents into its partial as they are read, so the task holds no
/// more than a buffer of them, then writes the header (``PartialFiles``).
///
/// Documents are written as read, duplicates included: the merge resolves duplicates within a
/// slice as it does across slices, in reading order. A document that is no candidate when it is
/// read (``CandidateTracker``) is written without its fields: the merge, judging it again by the
/// same rules, finds it no candidate either (no field filter or orderBy matches a document
/// without the field, and whatever its fields, one of a limit query's best is not: the best
/// documents read before it in its slice are written whole). Each limit query's best documents
/// of the slice are among those written whole, with those its best displaced as the slice went on.
struct PartialWriter: ~Copyable {
    let shard: Shard
    let config: PipelineConfig
    private let rules: CandidateRules?
    private var tracker: CandidateTracker
    private let directory: String
    private let documentsName: String
    private let headerPath: String
    private let file: OutputFile
    private var buffer: [UInt8] = []
    /// The files the locations name, each with the piece it was read in, by index.
    private var files: [PartialFiles.Header.File] = []
    private var fileIndexes: [String: Int] = [:]
    private var lastPiece = -1
    private(set) var count = 0

    /// Starts the partial of `shard` in `directory` (created if missing), removing what an
    /// earlier run of the shard left there first: until the new header is in place, the shard
    /// is missing, not stale.
    init(shard: Shard, directory: String, config: PipelineConfig, candidates rules: CandidateRules?) throws(BuildError) {
        self.shard = shard
        self.config = config
        self.rules = rules
        tracker = CandidateTracker(rules)
        self.directory = directory
        let base = PartialFiles.baseName(of: shard)
        headerPath = (directory as NSString).appendingPathComponent(base + ".json")
        documentsName = "\(base).\(UUID().uuidString.prefix(8).lowercased()).documents"
        do throws(PublishError) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasPrefix(base + ".") {
                    try FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
                }
            } catch {
                throw PublishError(path: directory, message: "cannot prepare the partial directory: \(error.localizedDescription)")
            }
            file = try OutputFile(creating: (directory as NSString).appendingPathComponent(documentsName + ".partial"))
        } catch {
            throw .publish(error)
        }
    }

    /// Writes `exported`, read in piece `piece` of the slice.
    mutating func append(_ exported: ExportedDocument, piece: Int) throws(BuildError) {
        if piece != lastPiece {
            // Locations are numbered per piece: a file read in two pieces is two entries.
            fileIndexes.removeAll(keepingCapacity: true)
            lastPiece = piece
        }
        let name = exported.location.file
        let index: Int
        if let known = fileIndexes[name] {
            index = known
        } else {
            index = files.count
            files.append(PartialFiles.Header.File(path: name, piece: piece))
            fileIndexes[name] = index
        }
        let (verdict, kept) = Verdict.of(exported.document, by: rules, keeping: config.fieldsRead)
        var written = exported
        if !tracker.admit(kept, verdict, tag: count).isCandidate {
            written.document.fields = MapValue()
            written.encodedFields = nil
        }
        ExportedDocumentLog.append(written, file: index, to: &buffer)
        count += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Flushes the documents to disk and moves them into place, then writes the header, which
    /// completes the partial; returns the header's path.
    consuming func finish(_ read: SliceRead, layout: InputLayout) throws(BuildError) -> String {
        try flush()
        let documentsPath = (directory as NSString).appendingPathComponent(documentsName)
        do throws(PublishError) {
            try file.finish()
            try DurableFiles.rename(documentsPath + ".partial", to: documentsPath)
            let header = PartialFiles.Header(
                format: PartialFiles.format, bundlepress: Version.current, binary: BinaryDigest.current,
                pipelineSHA256: PartialFiles.pipelineDigest(config), shard: shard.index, shards: shard.count,
                inputs: layout.inputs.map { PartialFiles.Header.Input(path: $0.path, bytes: $0.size, dataFiles: $0.dataFiles, modified: $0.modified) },
                pieces: read.pieces.map { PartialFiles.Header.Piece(input: $0.input, start: $0.byteRange?.lowerBound, end: $0.byteRange?.upperBound, newlines: $0.newlines) },
                files: files, exportTimes: read.exportTimes.taken.map(\.rfc3339), untimedExport: read.exportTimes.untimedExport,
                candidatesJudgedWith: rules?.previousDigest(), documentsFile: documentsName, documents: count, documentsBytes: file.byteCount)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data: Data
            do {
                data = try encoder.encode(header)
            } catch {
                throw PublishError(path: headerPath, message: "cannot encode: \(error)")
            }
            // Written whole or not at all, and on disk (with the documents' rename) before the
            // task reports success.
            try DurableFiles.replaceAtomically(path: headerPath, with: Array(data) + [UInt8(ascii: "\n")])
        } catch {
            throw .publish(error)
        }
        return headerPath
    }

    private mutating func flush() throws(BuildError) {
        do throws(PublishError) {
            try file.append(buffer)
        } catch {
            throw .publish(error)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// What tells the running binary from any other: its GNU build ID (which the linker derives
/// from its content) where it has one, else the executable file's ``FileDigest/contentDigest(of:)``,
/// computed once.
/// Partials from another binary are refused.
enum BinaryDigest {
    static let current: String = buildID() ?? fileDigest() ?? unknown
    /// What ``current`` is when the binary cannot be told.
    static let unknown = "unknown"

    /// The build ID note of a 64-bit little-endian ELF executable (Linux), read from its
    /// program headers: a few kilobytes, however large the binary.
    private static func buildID(executable path: String = "/proc/self/exe") -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return Array(data)
        }
        func integer<T: FixedWidthInteger>(_ bytes: [UInt8], _ offset: Int, as: T.Type) -> T {
            bytes[offset..<offset + MemoryLayout<T>.size].reversed().reduce(0) { $0 << 8 | T($1) }
        }
        // ELF magic, 64-bit, little-endian.
        guard let header = read(64, at: 0), header[0..<6] == [0x7F, 0x45, 0x4C, 0x46, 2, 1] else { return nil }
        let (tableOffset, entrySize, entries) = (integer(header, 32, as: UInt64.self), Int(integer(header, 54, as: UInt16.self)), Int(integer(header, 56, as: UInt16.self)))
        guard entrySize >= 56, entries < 256, let table = read(entrySize * entries, at: tableOffset) else { return nil }
        for entry in 0..<entries where integer(table, entry * entrySize, as: UInt32.self) == 4 {  // PT_NOTE
            let (offset, size) = (integer(table, entry * entrySize + 8, as: UInt64.self), Int(integer(table, entry * entrySize + 32, as: UInt64.self)))
            guard size < 1 << 16, let notes = read(size, at: offset) else { continue }
            var position = 0
            while position + 12 <= notes.count {
                let (nameSize, descriptionSize, type) = (Int(integer(notes, position, as: UInt32.self)), Int(integer(notes, position + 4, as: UInt32.self)), integer(notes, position + 8, as: UInt32.self))
                let description = position + 12 + (nameSize + 3) & ~3
                guard description + descriptionSize <= notes.count else { break }
                if type == 3, nameSize == 4, notes[position + 12..<position + 16] == [0x47, 0x4E, 0x55, 0] {  // NT_GNU_BUILD_ID, "GNU"
                    return "build-id " + notes[description..<description + descriptionSize].map { byte in
                        let digits = String(byte, radix: 16)
                        return digits.count == 1 ? "0" + digits : digits
                    }.joined()
                }
                position = description + (descriptionSize + 3) & ~3
            }
        }
        return nil
    }

    private static func fileDigest() -> String? {
        Bundle.main.executablePath.flatMap(FileDigest.contentDigest(of:)).map { "content " + $0 }
    }
}
