import FirestoreModel
import ParallelWork
import PipelineLanguage

/// The `updateTime` each document ships with: its own, unless that would not tell a client
/// holding an earlier shipped version that the content changed.
struct VersionAssignment {
    /// The newest version of each document shipped before, with its fingerprint when known.
    let newest: [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)]
    /// The time a changed document whose own `updateTime` is not newer gets.
    let bump: Timestamp
    /// Fingerprints by path: when a bundle's field policy narrows documents, the first
    /// occurrence's of every selected document (a document in several bundles keeps it), and
    /// those of leavers found since.
    private var fingerprints: [ResourcePath: DocumentFingerprint] = [:]

    init(newest: [ResourcePath: (updateTime: Timestamp, fingerprint: DocumentFingerprint?)], bump: Timestamp) {
        self.newest = newest
        self.bump = bump
    }

    /// Where each document of `selections` is set aside (in `setAside`), and its
    /// fingerprint as its bundle's policy publishes it, found on every core (most fingerprints
    /// were taken as the documents were set aside). When a policy narrows documents, a document
    /// in several bundles keeps the fingerprint of its first occurrence (fingerprinting the
    /// repeats costs less than finding them first).
    mutating func prepare(
        _ selections: [BundleSelection], setAside: SetAsideDocuments
    ) throws(PublishError) -> [[(slot: SetAsideDocuments.Slot, fingerprint: DocumentFingerprint)]] {
        var all: [[(slot: SetAsideDocuments.Slot, fingerprint: DocumentFingerprint)]] = []
        for selection in selections {
            let (documents, policy) = (selection.documents, selection.fieldPolicy)
            let runs = parallelMap(runsOf: 2_048, count: documents.count, threads: Processors.online) { run in
                Result { () throws(PublishError) in
                    // By index: each document read where the selection holds it.
                    try run.map { index throws(PublishError) in
                        let slot = try setAside.slot(of: documents[index].document)
                        return (slot, try setAside.fingerprint(of: documents[index].document, at: slot, as: policy))
                    }
                }
            }
            var prepared: [(slot: SetAsideDocuments.Slot, fingerprint: DocumentFingerprint)] = []
            prepared.reserveCapacity(documents.count)
            for run in runs { prepared += try run.get() }
            all.append(prepared)
        }
        guard selections.contains(where: { !$0.fieldPolicy.isEmpty }) else { return all }
        for index in selections.indices {
            for position in selections[index].documents.indices {
                let path = selections[index].documents[position].document.path
                if let first = fingerprints[path] {
                    all[index][position].fingerprint = first
                } else {
                    fingerprints[path] = all[index][position].fingerprint
                }
            }
        }
        return all
    }

    /// The fingerprint `document` (set aside at `slot` of `setAside`), not selected in a
    /// bundle that publishes it as `policy` says, ships with there: a leaver's.
    mutating func fingerprint(
        of document: Document, at slot: SetAsideDocuments.Slot, policy: FieldPolicy, setAside: SetAsideDocuments
    ) throws(PublishError) -> DocumentFingerprint {
        if let known = fingerprints[document.path] { return known }
        let fingerprint = try setAside.fingerprint(of: document, at: slot, as: policy)
        fingerprints[document.path] = fingerprint
        return fingerprint
    }

    func newestShipped(_ path: ResourcePath) -> Timestamp? { newest[path]?.updateTime }

    /// `document` with the `updateTime` it ships with, given the fingerprint it ships with.
    func shipped(_ document: consuming Document, fingerprint: DocumentFingerprint) -> Document {
        guard let known = newest[document.path], let own = document.updateTime else { return document }
        var shipped = consume document
        if known.fingerprint == fingerprint {
            shipped.updateTime = known.updateTime
        } else if own > known.updateTime || (own == known.updateTime && known.fingerprint == nil) {
            shipped.updateTime = own
        } else {
            shipped.updateTime = bump
        }
        return shipped
    }
}
