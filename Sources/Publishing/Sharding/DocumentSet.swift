import ExportReader
import FirestoreModel
import PipelineLanguage

/// Documents read so far, one per path, as `duplicates:` says: in the order their paths first
/// appeared, each in its last version under `last-wins` (a later one takes its first one's
/// place), or an error at the second appearance under `error`.
///
/// A map task adds the documents of its slice in reading order; the merge adds the slices'
/// sets in shard order. Both give the set one process reading every input in order gives.
struct DocumentSet: Sendable {
    let duplicates: DuplicatePolicy
    private(set) var documents: [ExportedDocument] = []
    /// Where each path is in `documents`.
    private var positions: [ResourcePath: Int] = [:]

    init(duplicates: DuplicatePolicy) {
        self.duplicates = duplicates
    }

    var count: Int { documents.count }

    mutating func add(_ exported: ExportedDocument) throws(BuildError) {
        let path = exported.document.path
        if let position = positions[path] {
            guard duplicates == .lastWins else {
                throw .data(
                    "document \(path) appears twice (first at \(documents[position].location)); remove one or set duplicates: last-wins",
                    location: exported.location)
            }
            documents[position] = exported
        } else {
            positions[path] = documents.count
            documents.append(exported)
        }
    }

    /// Adds every document of `other`, a set of documents read after these.
    mutating func add(contentsOf other: consuming DocumentSet) throws(BuildError) {
        if documents.isEmpty {
            self = other
            return
        }
        for exported in other.documents { try add(exported) }
    }
}
