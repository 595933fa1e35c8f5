import ExportReader
import FirestoreModel
import JSONCore
import ParallelWork
import PipelineLanguage

/// Documents read so far, one per path, as `duplicates:` says: in the order their paths first
/// appeared, each in its last version under `last-wins` (a later one takes its first one's
/// place), or an error at the second appearance under `error`.
///
/// Of every document the set keeps a compact record: its path (``PathTable``), its times and
/// where it was read, what duplicates, the snapshot time and the count need; and the IDs of the
/// collections that hold documents, and which of the `watched` ones do. Each document is judged
/// as it is read (``CandidateTracker``): only the candidates, the documents that can ship, are
/// set aside whole, encoded as a bundle carries them, in a ``DocumentArchive``, and kept as
/// ``Entry``s with the fields the queries read (`keeping`) and the fields that look sensitive
/// when published whole. That work is done for runs of documents on every core.
///
/// One process adds every document in reading order; a merge adds the documents of every
/// shard's partial in shard order, which is the same order.
struct DocumentSet {
    /// A candidate.
    struct Entry: Sendable {
        /// The document with only the fields the queries read.
        var document: Document
        /// Its path's number: where its path first appeared.
        var number: Int
        /// Nil once the document is no candidate any more (a limit query's better ones came, or
        /// a later version took its place).
        var archived: Archived?
    }

    /// What a build knows of a document's whole fields without reading them back.
    struct Archived: Sendable {
        var position: DocumentArchive.Position
        /// The fields that look sensitive when it is published whole: indices into ``candidates``.
        var exposure: [Int32]
        /// Its ``DocumentFingerprint`` when published whole, found while its encoded fields were
        /// at hand; nil when it was read without a `createTime` (its own is only known once the
        /// snapshot time is).
        var fingerprint: DocumentFingerprint?
    }

    /// One document read, as ``subscript(_:)`` gives it back.
    struct Read {
        var path: ResourcePath
        var createTime: Timestamp?
        var updateTime: Timestamp?
        /// Where its version was read.
        var location: SourceLocation
    }

    /// What the set keeps of every document.
    private struct Record {
        var createTime: Timestamp?
        var updateTime: Timestamp?
        /// The line, or with `column` -1 the byte offset in a binary file.
        var line: Int
        var column: Int32
        /// Into `files`.
        var file: Int32
        /// Into `entries` while the document is a candidate, else -1.
        var entry: Int32
    }

    let duplicates: DuplicatePolicy
    /// The fields kept of each candidate in memory.
    let fields: [FieldPath]
    /// What makes a document a candidate (nil: every document is one).
    let rules: CandidateRules?
    private var tracker: CandidateTracker
    private var paths = PathTable()
    /// By path number.
    private var records: [Record] = []
    private var files: [String] = []
    private var fileNumbers: [String: Int32] = [:]
    private var entries: [Entry] = []
    /// False once an entry's path appeared before the last entry's (a later version of a path
    /// under last-wins).
    private var entriesInOrder = true
    /// Every distinct exposure candidate of the documents.
    private(set) var candidates: [SensitiveFields.Candidate] = []
    private var candidateIndex: [SensitiveFields.Candidate: Int32] = [:]
    /// The IDs (UTF-8, told apart byte for byte as the store does) of the collections holding
    /// documents read, and the collections of `watched` that hold some.
    private(set) var collectionIDs: Set<[UInt8]> = []
    private(set) var watchedFound: Set<ResourcePath> = []
    private let watched: [ResourcePath]
    /// What the documents hold of the fields the config names, when counted (a plain build).
    private(set) var census: FieldCensus?
    private var lastCollectionID = ""
    /// The documents not judged yet, in the order they were added.
    private var unsettled: [Unsettled] = []
    private let archive: DocumentArchive.Writer
    /// Documents judged together.
    private static let batch = 4_096

    /// An empty set that keeps `fields` of each candidate of `rules` (nil: of every document) in
    /// memory and sets its fields aside in a file in `directory`, noting which collections of
    /// `watched` hold documents, and counting in `census` the fields it counts.
    init(
        duplicates: DuplicatePolicy, keeping fields: [FieldPath], candidates rules: CandidateRules?, watching watched: [ResourcePath], in directory: String,
        census: FieldCensus? = nil
    ) throws(BuildError) {
        self.census = census
        self.duplicates = duplicates
        self.fields = fields
        self.rules = rules
        self.watched = watched
        tracker = CandidateTracker(rules)
        archive = try DocumentArchive.Writer(directory: directory)
    }

    /// The documents in the set.
    var count: Int { paths.count }

    mutating func add(_ exported: ExportedDocument) throws(BuildError) {
        let document = exported.document
        let (number, inserted) = paths.insert(document.path)
        let record = record(of: exported)
        if inserted {
            records.append(record)
            note(document.path)
        } else {
            guard duplicates == .lastWins else {
                throw .data(
                    "document \(document.path) appears twice (first at \(location(of: records[number]))); remove one or set duplicates: last-wins",
                    location: exported.location)
            }
            // The later version takes the earlier one's place.
            drop(number)
            records[number] = record
        }
        unsettled.append(Unsettled(number: number, document: document, encoded: exported.encodedFields))
        if unsettled.count >= Self.batch { try settle() }
    }

    /// Document `number` (of ``count``, in the order their paths first appeared), in its version.
    subscript(number: Int) -> Read {
        let record = records[number]
        return Read(path: paths[number], createTime: record.createTime, updateTime: record.updateTime, location: location(of: record))
    }

    /// The number of the first document, in that order, whose version's times pass `test`.
    func first(where test: (_ createTime: Timestamp?, _ updateTime: Timestamp?) -> Bool) -> Int? {
        records.firstIndex { test($0.createTime, $0.updateTime) }
    }

    /// The newest `updateTime` of the documents.
    var newestUpdateTime: Timestamp? {
        records.lazy.compactMap(\.updateTime).max()
    }

    /// The candidates, each set aside, in the order their paths first appeared, and the archive
    /// that holds their fields. The set takes no more documents.
    mutating func finish() throws(BuildError) -> (entries: [Entry], candidates: [SensitiveFields.Candidate], archive: DocumentArchive) {
        try settle()
        candidateIndex = [:]
        // Taken out of the set, and the dropped ones moved to the end in its buffer and removed
        // (`filter` and `removeAll(where:)` copy every entry they keep).
        var kept = entries
        entries = []
        var keptCount = 0
        kept.withUnsafeMutableBufferPointer { kept in
            for index in kept.indices where kept[index].archived != nil {
                kept.swapAt(keptCount, index)
                keptCount += 1
            }
        }
        kept.removeSubrange(keptCount...)
        if !entriesInOrder { kept.sort { $0.number < $1.number } }
        return (kept, candidates, try archive.finish())
    }

    private mutating func record(of exported: ExportedDocument) -> Record {
        let location = exported.location
        let file: Int32
        if let known = fileNumbers[location.file] {
            file = known
        } else {
            file = Int32(files.count)
            files.append(location.file)
            fileNumbers[location.file] = file
        }
        let document = exported.document
        return Record(
            createTime: document.createTime, updateTime: document.updateTime, line: location.byteOffset ?? location.line,
            column: location.byteOffset == nil ? Int32(clamping: location.column) : -1, file: file, entry: -1)
    }

    private func location(of record: Record) -> SourceLocation {
        record.column < 0
            ? SourceLocation(file: files[Int(record.file)], byteOffset: record.line)
            : SourceLocation(file: files[Int(record.file)], line: record.line, column: Int(record.column))
    }

    /// Notes the collection of a document at `path`.
    private mutating func note(_ path: ResourcePath) {
        let id = path.segments[path.count - 2]
        // Documents of a collection mostly come one after another.
        if !UTF8Order.equal(id, lastCollectionID) {
            lastCollectionID = id
            collectionIDs.insert(Array(id.utf8))
        }
        for collection in watched where collection.isImmediateParent(of: path) { watchedFound.insert(collection) }
    }

    /// Document `number` is no candidate any more.
    private mutating func drop(_ number: Int) {
        let entry = Int(records[number].entry)
        guard entry >= 0 else { return }
        entries[entry].document.fields = MapValue()
        entries[entry].archived = nil
        records[number].entry = -1
    }

    /// Judges the documents added since the last time and sets the candidates aside. On every
    /// core: the rules' verdict on each, the fields the queries read of it, and a document that is
    /// a candidate whatever is read with it encoded and scanned. Then, in reading order, the
    /// verdicts are weighed, and the candidates among a limit query's best are encoded and
    /// scanned on every core. They become entries in reading order.
    private mutating func settle() throws(BuildError) {
        let batch = unsettled
        unsettled.removeAll(keepingCapacity: true)
        let (fields, rules) = (fields, rules)
        if let census {
            let saturated = census.saturated
            let tallies = parallelMap(runsOf: 256, count: batch.count, threads: Processors.online) { run in
                var tally = FieldCensus.Tally()
                for index in run { tally.count(batch[index].document, encoded: batch[index].encoded, census: census, saturated: saturated) }
                return [tally]
            }
            for tally in tallies.joined() { self.census!.merge(tally) }
        }
        let judged = Self.onEveryCore(batch.count) { index, scratch, names in
            let (verdict, kept) = Verdict.of(batch[index].document, by: rules, keeping: fields)
            return Judgement(kept: kept, verdict: verdict, whole: verdict.certain ? Whole(of: batch[index].document, encoded: batch[index].encoded, scratch: &scratch, names: &names) : nil)
        }
        // Under last-wins a path can come twice in a batch: its last version counts.
        var last: [Int: Int] = [:]
        if duplicates == .lastWins {
            for index in batch.indices { last[batch[index].number] = index }
        }
        var chosen: [Int] = []
        var droppedNow: Set<Int> = []
        for index in batch.indices where last.isEmpty || last[batch[index].number] == index {
            let admitted = tracker.admit(judged[index].kept, judged[index].verdict, tag: batch[index].number)
            for dropped in admitted.dropped {
                drop(dropped)
                droppedNow.insert(dropped)
            }
            if admitted.isCandidate { chosen.append(index) }
        }
        let shipping = chosen.filter { !droppedNow.contains(batch[$0].number) }
        let ranked = shipping.filter { judged[$0].whole == nil }
        var wholes = Dictionary(uniqueKeysWithValues: zip(ranked, Self.onEveryCore(ranked.count) { index, scratch, names in
            Whole(of: batch[ranked[index]].document, encoded: batch[ranked[index]].encoded, scratch: &scratch, names: &names)
        }))
        for index in shipping {
            let whole = judged[index].whole ?? wholes.removeValue(forKey: index)!
            let exposure = whole.candidates.map { candidate in
                if let index = candidateIndex[candidate] { return index }
                candidates.append(candidate)
                candidateIndex[candidate] = Int32(candidates.count - 1)
                return Int32(candidates.count - 1)
            }
            let number = batch[index].number
            records[number].entry = Int32(entries.count)
            if let last = entries.last, last.number > number { entriesInOrder = false }
            entries.append(Entry(document: judged[index].kept, number: number, archived: Archived(position: try archive.append(whole.encoded), exposure: exposure, fingerprint: whole.fingerprint)))
        }
        // The whole documents go: freed on another core while reading goes on.
        BackgroundRelease.release(batch)
    }
}

extension DocumentSet {
    /// `body` of every index below `count`, in order, found in runs of 256 on every core, each
    /// run with a scratch writer and name judgements of its own.
    fileprivate static func onEveryCore<T: Sendable>(
        _ count: Int, _ body: @Sendable (_ index: Int, _ scratch: inout JSONWriter, _ names: inout SensitiveFields.NameJudgements) -> T
    ) -> [T] {
        Array(parallelMap(runsOf: 256, count: count, threads: Processors.online) { run in
            var scratch = JSONWriter(reservingCapacity: 4096)
            var names = SensitiveFields.NameJudgements()
            return run.map { body($0, &scratch, &names) }
        }.joined())
    }
}

/// A document added to a ``DocumentSet`` and not judged yet: its path number, and its encoded
/// fields when the reader gave them (``ExportReader/ExportedDocument/encodedFields``).
///
/// A struct, as ``Judgement`` is, rather than a tuple: an element's part read from an array of
/// structs is read where it is, while an array of tuples copied the whole element for each part
/// read, a cache miss per reference it holds (30 ms of the reading thread's time per 100k
/// documents).
private struct Unsettled: Sendable {
    var number: Int
    var document: Document
    var encoded: [UInt8]?
}

/// What judging an unsettled document found: the fields the queries read of it, the rules'
/// verdict, and, when it is a candidate whatever is read with it, its fields whole.
private struct Judgement: Sendable {
    var kept: Document
    var verdict: Verdict
    var whole: Whole?
}

/// A document's fields encoded as a bundle carries them, those that look sensitive, and its
/// fingerprint when its `createTime` is known.
private struct Whole: Sendable {
    var encoded: [UInt8]
    var candidates: [SensitiveFields.Candidate]
    var fingerprint: DocumentFingerprint?

    /// `document`'s fields, `encoded` when the reader encoded them, else encoded here (with
    /// `scratch`), scanned (with `names`) and fingerprinted. (The document is borrowed where the
    /// batch holds it: a copy of each costs a cache miss per reference it holds.)
    init(of document: borrowing Document, encoded: [UInt8]?, scratch: inout JSONWriter, names: inout SensitiveFields.NameJudgements) {
        if let encoded {
            self.encoded = encoded
        } else {
            scratch.removeAll()
            document.fields.encodeFields(into: &scratch)
            self.encoded = scratch.bytes
        }
        candidates = SensitiveFields.candidates(inEncoded: self.encoded, names: &names)
        // A document read without a createTime takes its updateTime's, or the snapshot time.
        fingerprint = document.createTime.map { [encoded = self.encoded] createTime in DocumentFingerprint.of(createTime: createTime, encodedFields: encoded) }
    }
}

extension PipelineConfig {
    /// The collections the named queries read, but for collection groups: a ``DocumentSet``
    /// watches them, so that a query over one whose documents are no candidates is not taken
    /// for a typo.
    var queriedCollections: [ResourcePath] {
        bundles.flatMap(\.queries).map(\.query).filter { !$0.allDescendants }.map(\.collectionPath)
    }
}
