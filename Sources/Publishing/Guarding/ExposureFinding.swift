/// A field of the documents a bundle publishes that looks like it should not be public, and no
/// `fields:` rule lists explicitly.
public struct ExposureFinding: Sendable, Equatable, Codable, CustomStringConvertible {
    public var bundle: String
    /// The collection id of the documents.
    public var collection: String
    /// The field path, as pipeline.yml writes it.
    public var field: String
    /// What it looks like (`an email address`).
    public var looksLike: String
    /// A document that holds it.
    public var example: String

    public var description: String {
        "bundle \"\(bundle)\" publishes \(collection).\(field), which looks like \(looksLike) (e.g. \(example)); "
            + "anyone can download a bundle: remove it with redact: {\(collection): [\(field)]}, or list it in fields: if it is meant to be public"
    }
}
