import ExportReader
import FirestoreModel
import PipelineLanguage

/// Documents read so far, one per path, as `duplicates:` says: in the order their paths first
/// appeared, each in its last version under `last-wins` (a later one takes its first one's
/// place), or an error at the second appearance under `error`.
///
/// One process adds every document in reading order; a merge adds the documents of every
/// shard's partial in shard order, which is the same order.
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
}
