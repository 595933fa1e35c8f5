import ExportReader
import FirestoreModel
import JSONCore
import ParallelWork
import PipelineLanguage

/// Documents read so far, one per path, as `duplicates:` says: in the order their paths first
/// appeared, each in its last version under `last-wins` (a later one takes its first one's
/// place), or an error at the second appearance under `error`.
///
/// Each document is judged as it is read (``CandidateTracker``): only candidates, the documents
/// that can ship, are set aside whole, encoded as a bundle carries them, in a
/// ``DocumentArchive``, and keep in memory the fields the queries read (`keeping`) and the
/// fields that look sensitive when published whole. Of the others the set keeps the path, times
/// and where it was read. That work is done for runs of documents on every core.
///
/// One process adds every document in reading order; a merge adds the documents of every
/// shard's partial in shard order, which is the same order.
struct DocumentSet {
    /// One document of the set.
    struct Entry: Sendable {
        /// The document with only the fields the queries read (whole until it is judged), or
        /// none when it is no candidate.
        var document: Document
        var location: SourceLocation
        /// Nil until the document is set aside, and for a document that is no candidate.
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
    /// What makes a document a candidate (nil: every document is one).
    let rules: CandidateRules?
    private var tracker: CandidateTracker
    private(set) var entries: [Entry] = []
    /// Every distinct exposure candidate of the documents.
    private(set) var candidates: [ExposureScan.Candidate] = []
    private var candidateIndex: [ExposureScan.Candidate: Int32] = [:]
    /// Where each path is in `entries`.
    private var positions: [ResourcePath: Int] = [:]
    /// The positions in `entries` of documents not judged yet, in the order they were added.
    private var unsettled: [Int] = []
    private let archive: DocumentArchive.Writer
    /// Documents set aside together.
    private static let batch = 4_096

    /// An empty set that keeps `fields` of each candidate of `rules` (nil: of every document) in
    /// memory, and sets its fields aside in a file in `directory`.
    init(duplicates: DuplicatePolicy, keeping fields: [FieldPath], candidates rules: CandidateRules?, in directory: String) throws(BuildError) {
        self.duplicates = duplicates
        self.fields = fields
        self.rules = rules
        tracker = CandidateTracker(rules)
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

    /// The entries, every candidate set aside, and the archive that holds their fields. The set
    /// takes no more documents.
    mutating func finish() throws(BuildError) -> (entries: [Entry], candidates: [ExposureScan.Candidate], archive: DocumentArchive) {
        try settle()
        positions = [:]
        candidateIndex = [:]
        return (entries, candidates, try archive.finish())
    }

    /// Judges the documents added since the last time and sets the candidates aside. On every
    /// core: the rules' verdict on each, the fields the queries read of it, and a document that is
    /// a candidate whatever is read with it encoded and scanned. Then, in reading order, the
    /// verdicts are weighed, and the candidates among a limit query's best are encoded and
    /// scanned on every core. They are appended to the archive in reading order.
    private mutating func settle() throws(BuildError) {
        let documents = unsettled.map { entries[$0].document }
        let (fields, rules) = (fields, rules)
        let run = 256
        let judged = Array(parallelMap(count: (documents.count + run - 1) / run, threads: Processors.online) { index in
            var scratch = JSONWriter(reservingCapacity: 4096)
            var names = ExposureScan.NameJudgements()
            return documents[(index * run)..<min(documents.count, (index + 1) * run)].map { document in
                let verdict = rules?.verdict(on: document) ?? .candidate
                var kept = document
                // A document no rule can make a candidate keeps no fields.
                kept.fields = verdict.isNone ? MapValue() : document.fields.keepingOnly(fields)
                return (kept: kept, verdict: verdict, whole: verdict.certain ? Whole(document, scratch: &scratch, names: &names) : nil)
            }
        }.joined())
        var chosen: [Int] = []
        var droppedNow: Set<Int> = []
        for (index, position) in unsettled.enumerated() {
            let document = judged[index].kept
            entries[position].document = document
            let admitted = tracker.admit(document, judged[index].verdict, tag: position)
            for dropped in admitted.dropped {
                entries[dropped].document.fields = MapValue()
                entries[dropped].archived = nil
                droppedNow.insert(dropped)
            }
            if admitted.isCandidate { chosen.append(index) } else { entries[position].document.fields = MapValue() }
        }
        let shipping = chosen.filter { !droppedNow.contains(unsettled[$0]) }
        let ranked = shipping.filter { judged[$0].whole == nil }
        var wholes = Dictionary(uniqueKeysWithValues: zip(ranked, parallelMap(count: (ranked.count + run - 1) / run, threads: Processors.online) { index in
            var scratch = JSONWriter(reservingCapacity: 4096)
            var names = ExposureScan.NameJudgements()
            return ranked[(index * run)..<min(ranked.count, (index + 1) * run)].map { Whole(documents[$0], scratch: &scratch, names: &names) }
        }.joined()))
        for index in shipping {
            let whole = judged[index].whole ?? wholes.removeValue(forKey: index)!
            let exposure = whole.candidates.map { candidate in
                if let index = candidateIndex[candidate] { return index }
                candidates.append(candidate)
                candidateIndex[candidate] = Int32(candidates.count - 1)
                return Int32(candidates.count - 1)
            }
            entries[unsettled[index]].archived = Archived(position: try archive.append(whole.encoded), exposure: exposure)
        }
        unsettled.removeAll(keepingCapacity: true)
        // The whole documents go: freed on another core while reading goes on.
        BackgroundRelease.release(documents)
    }
}

/// A document's fields encoded as a bundle carries them, and those that look sensitive.
private struct Whole: Sendable {
    var encoded: [UInt8]
    var candidates: [ExposureScan.Candidate]

    /// `document` encoded (with `scratch`) and scanned (with `names`).
    init(_ document: Document, scratch: inout JSONWriter, names: inout ExposureScan.NameJudgements) {
        scratch.removeAll()
        document.fields.encodeFields(into: &scratch)
        encoded = scratch.bytes
        candidates = ExposureScan.candidates(in: document.fields, names: &names)
    }
}
