import ExportReader
import FirestoreModel
import JSONCore
import ParallelWork
import PipelineLanguage

/// Documents read so far, one per path, as `duplicates:` says: in the order their paths first
/// appeared, each in its last version under `last-wins` (a later one takes its first one's
/// place), or an error at the second appearance under `error`.
///
/// The fields of each document that may ship (``ShippableScope``) are set aside whole, encoded as
/// a bundle carries them, in a ``DocumentArchive``; the set keeps of a document only the fields the
/// queries read (`keeping`), its times, where it was read, and the fields that look sensitive when
/// it is published whole. That work is done for runs of documents on every core.
///
/// One process adds every document in reading order; a merge adds the documents of every
/// shard's partial in shard order, which is the same order.
struct DocumentSet {
    /// One document of the set.
    struct Entry: Sendable {
        /// The document with only the fields the queries read (whole until it is set aside).
        var document: Document
        var location: SourceLocation
        /// Nil until the document is set aside, and for a document that cannot ship.
        var archived: Archived?
    }

    /// What a build knows of a document's whole fields without reading them back.
    struct Archived: Sendable {
        var position: DocumentArchive.Position
        /// The fields that look sensitive when it is published whole: indices into ``candidates``.
        var exposure: [Int32]
    }

    let duplicates: DuplicatePolicy
    /// The fields kept of each document in memory.
    let fields: [FieldPath]
    /// The documents set aside: those in it (nil: all).
    let shippable: ShippableScope?
    private(set) var entries: [Entry] = []
    /// Every distinct exposure candidate of the documents.
    private(set) var candidates: [ExposureScan.Candidate] = []
    private var candidateIndex: [ExposureScan.Candidate: Int32] = [:]
    /// Where each path is in `entries`.
    private var positions: [ResourcePath: Int] = [:]
    /// The positions in `entries` of documents not set aside yet, in the order they were added.
    private var unsettled: [Int] = []
    private let archive: DocumentArchive.Writer
    /// Documents set aside together.
    private static let batch = 4_096

    /// An empty set that keeps `fields` of each document in memory, and sets the fields of the
    /// documents in `shippable` (nil: of every document) aside in a file in `directory`.
    init(duplicates: DuplicatePolicy, keeping fields: [FieldPath], settingAside shippable: ShippableScope?, in directory: String) throws(BuildError) {
        self.duplicates = duplicates
        self.fields = fields
        self.shippable = shippable
        archive = try DocumentArchive.Writer(directory: directory)
    }

    /// The documents in the set.
    var count: Int { entries.count }

    mutating func add(_ exported: ExportedDocument) throws(BuildError) {
        let path = exported.document.path
        let entry = Entry(document: exported.document, location: exported.location, archived: nil)
        if let position = positions[path] {
            guard duplicates == .lastWins else {
                throw .data(
                    "document \(path) appears twice (first at \(entries[position].location)); remove one or set duplicates: last-wins",
                    location: exported.location)
            }
            entries[position] = entry
            unsettled.append(position)
        } else {
            positions[path] = entries.count
            unsettled.append(entries.count)
            entries.append(entry)
        }
        if unsettled.count >= Self.batch { try settle() }
    }

    /// The entries, every one that may ship set aside, and the archive that holds their fields.
    /// The set takes no more documents.
    mutating func finish() throws(BuildError) -> (entries: [Entry], candidates: [ExposureScan.Candidate], archive: DocumentArchive) {
        try settle()
        positions = [:]
        candidateIndex = [:]
        return (entries, candidates, try archive.finish())
    }

    /// Sets aside the documents added since the last time: encodes and scans them on every core,
    /// then appends them to the archive in order.
    private mutating func settle() throws(BuildError) {
        let documents = unsettled.map { entries[$0].document }
        let (fields, shippable) = (fields, shippable)
        let run = 256
        let prepared = parallelMap(count: (documents.count + run - 1) / run, threads: Processors.online) { index in
            var scratch = JSONWriter(reservingCapacity: 4096)
            var names = ExposureScan.NameJudgements()
            return documents[(index * run)..<min(documents.count, (index + 1) * run)].map { document in
                var kept = document
                kept.fields = document.fields.keepingOnly(fields)
                guard shippable?.contains(document.path) ?? true else { return (kept: kept, encoded: nil as [UInt8]?, candidates: [ExposureScan.Candidate]()) }
                scratch.removeAll()
                document.fields.encodeFields(into: &scratch)
                return (kept: kept, encoded: scratch.bytes, candidates: ExposureScan.candidates(in: document.fields, names: &names))
            }
        }
        for (position, document) in zip(unsettled, prepared.joined()) {
            entries[position].document = document.kept
            // A document that cannot ship stays as it was added: not set aside.
            guard let encoded = document.encoded else { continue }
            let exposure = document.candidates.map { candidate in
                if let index = candidateIndex[candidate] { return index }
                candidates.append(candidate)
                candidateIndex[candidate] = Int32(candidates.count - 1)
                return Int32(candidates.count - 1)
            }
            entries[position].archived = Archived(position: try archive.append(encoded), exposure: exposure)
        }
        unsettled.removeAll(keepingCapacity: true)
        // The whole documents go: freed on another core while reading goes on.
        BackgroundRelease.release(documents)
    }
}
