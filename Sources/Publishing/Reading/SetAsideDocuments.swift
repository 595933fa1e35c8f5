import FirestoreModel
import JSONCore
import PipelineLanguage

/// The documents that can ship, as reading set them aside: each one's fields encoded as a bundle
/// carries them in the ``DocumentArchive``, with what publishing it whole needs to know
/// (``DocumentSet/Archived``: its fingerprint, the fields that look sensitive).
///
/// Reading hands it forward with the store (``LoadedInputs/setAside``); planning, the guard and
/// writing read the documents they publish through it, each found by its path once (``Slot``).
struct SetAsideDocuments: Sendable {
    /// The database the documents' references name.
    let database: DatabaseID
    private let archive: DocumentArchive
    /// Where each document is set aside.
    private let slots: [ResourcePath: Slot]
    /// What is set aside of each document, by slot.
    private let archived: [DocumentSet.Archived]
    /// The exposure candidates ``DocumentSet/Archived/exposure`` refers to.
    private let candidates: [SensitiveFields.Candidate]

    /// Where a document is set aside: found by its path once (``slot(of:)``), and given instead
    /// of the path from then on (a look-up by path hashes and compares every segment: four of
    /// them per document took a build of 100k documents 70 ms).
    struct Slot: Sendable {
        fileprivate var index: Int32
    }

    /// The documents of `entries` (``DocumentSet/finish()``: each set aside), in `archive`.
    init(entries: [DocumentSet.Entry], candidates: [SensitiveFields.Candidate], archive: DocumentArchive, database: DatabaseID) {
        var slots: [ResourcePath: Slot] = Dictionary(minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() { slots[entry.document.path] = Slot(index: Int32(index)) }
        self.slots = slots
        archived = entries.map { $0.archived! }
        self.candidates = candidates
        self.archive = archive
        self.database = database
    }

    /// How many documents are set aside.
    var count: Int { slots.count }

    /// The paths of the documents, in the order they were set aside (reading the archive front
    /// to back).
    var pathsInArchiveOrder: [ResourcePath] {
        slots.sorted { setAside(at: $0.value).position.offset < setAside(at: $1.value).position.offset }.map(\.key)
    }

    /// Where `document`, a document that may ship, is set aside.
    func slot(of document: Document) throws(PublishError) -> Slot {
        guard let slot = slots[document.path] else {
            throw PublishError(path: document.path.description, message: "this document ships but was not set aside as one that can (a bug in bundlepress: please report it)")
        }
        return slot
    }

    /// What is set aside of the document at `slot`.
    private func setAside(at slot: Slot) -> DocumentSet.Archived {
        archived[Int(slot.index)]
    }

    /// `document`, a document set aside, whole: with every field it was read with.
    func whole(_ document: Document) throws(PublishError) -> Document {
        try whole(document, at: try slot(of: document))
    }

    private func whole(_ document: Document, at slot: Slot) throws(PublishError) -> Document {
        var whole = document
        whole.fields = try archive.fields(at: setAside(at: slot).position, database: database)
        return whole
    }

    /// The fields of `document`, set aside at `slot`, as `policy` publishes them, encoded as a
    /// bundle carries them: copied from the archive when the policy publishes it whole.
    func encodedFields(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> [UInt8] {
        guard policy.rule(forDocument: document.path) != nil else { return try archive.encodedFields(at: setAside(at: slot).position) }
        var writer = JSONWriter()
        policy.apply(to: try whole(document, at: slot)).fields.encodeFields(into: &writer)
        return writer.bytes
    }

    /// The byte count of ``encodedFields(of:at:as:)``, known without reading the archive when
    /// the policy publishes the document whole (else its narrowed fields are encoded to count them).
    func encodedFieldsCount(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> Int {
        guard policy.rule(forDocument: document.path) != nil else { return setAside(at: slot).position.length }
        return try encodedFields(of: document, at: slot, as: policy).count
    }

    /// The ``DocumentFingerprint`` of `document`, set aside at `slot`, as `policy` publishes it:
    /// found as it was set aside when published whole, else computed here.
    func fingerprint(of document: Document, at slot: Slot, as policy: FieldPolicy) throws(PublishError) -> DocumentFingerprint {
        if policy.rule(forDocument: document.path) == nil, let known = setAside(at: slot).fingerprint { return known }
        return DocumentFingerprint.of(createTime: document.createTime, encodedFields: try encodedFields(of: document, at: slot, as: policy))
    }

    /// The fields of `document`, set aside at `slot`, that look sensitive as `policy` publishes
    /// it (`names` remembers the judgements of field names).
    func exposureCandidates(
        of document: Document, at slot: Slot, as policy: FieldPolicy, names: inout SensitiveFields.NameJudgements
    ) throws(PublishError) -> [SensitiveFields.Candidate] {
        guard policy.rule(forDocument: document.path) == nil else {
            return SensitiveFields.candidates(in: policy.apply(to: try whole(document, at: slot)).fields, names: &names)
        }
        return setAside(at: slot).exposure.map { candidates[Int($0)] }
    }
}
