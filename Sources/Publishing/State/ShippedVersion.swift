import FirestoreModel

/// A document as a bundle last published it.
enum ShippedVersion: Sendable, Equatable {
    /// The document with this `updateTime` (the version clients compare) and content.
    case existing(updateTime: Timestamp, fingerprint: DocumentFingerprint)
    /// A missing-document marker with this `readTime` (the version clients give a deleted document).
    case missing(readTime: Timestamp)
}

/// A version of a document that a bundle published before its current one, which a client that
/// loaded that build may still hold.
struct EarlierVersion: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// An existing document; `updateTime` is nil when it is not known (a previous state
        /// derived from a published site only knows that some other version was shipped).
        case existing(updateTime: Timestamp?)
        case missing(readTime: Timestamp)
    }

    var kind: Kind
    /// The `createTime` of the last bundle that carried it: the horizon counts from here.
    var until: Timestamp

    /// True when a client holding this version could get a wrong answer from a bundle whose
    /// current version of the document is `current` (nil: the document is deleted).
    func differs(from current: Timestamp?) -> Bool {
        guard case .existing(let updateTime) = kind else { return false }
        return updateTime == nil || updateTime != current
    }
}
