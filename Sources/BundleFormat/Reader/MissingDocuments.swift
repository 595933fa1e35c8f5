/// Whether the strict reader accepts missing documents (`documentMetadata` with `exists: false`
/// and no `document`, the tombstones a site publishes for returning clients).
///
/// JS, Android and iOS load them and hold the document as deleted (bundle-format.md §7);
/// Python's `deserialize_bundle` fails on them (§2, row "Missing document").
public enum MissingDocuments: Sendable, Equatable {
    /// Every reader, Python included, must load the bundle: a missing document is an error.
    case rejected
    /// The Firebase SDKs must load the bundle: a missing document is accepted when it names no
    /// query (a deleted document is nobody's result) and its read time is not after the
    /// bundle's `createTime`.
    case accepted
}
