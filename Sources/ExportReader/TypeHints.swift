import FirestoreModel

/// The Firestore types of fields that a lossy export format cannot tell from its JSON, given
/// per input in `pipeline.yml` (`hints: {doubles: [density], timestamps: [updated], …}`).
///
/// A hint names a field path from the document root and applies to every document of the
/// input. Arrays are transparent: `doubles: [scores]` makes every number in an array `scores`
/// a double, and `timestamps: [events.at]` converts `at` in every map of an array `events`.
/// A field gets at most one type, so a path may not be listed twice or inside another one.
public struct TypeHints: Sendable, Equatable {
    /// What a hint turns a field into; the raw value is the key in `pipeline.yml`.
    public enum Kind: String, Sendable, CaseIterable {
        /// Numbers become doubles (`7` → 7.0): JSON from JavaScript prints integral doubles as integers.
        case doubles
        /// `{"_seconds", "_nanoseconds"}` objects or RFC 3339 strings become timestamps.
        case timestamps
        /// `{"_latitude", "_longitude"}` (or `{"latitude", "longitude"}`) objects become geopoints.
        case geopoints
        /// Document paths (`users/lurie`, resolved against the target database), full names or
        /// serialised `DocumentReference` objects become references.
        case references
        /// Node Buffer JSON, `{"0": 137, "1": 80, …}` index maps or base64 strings become bytes.
        case bytes

        /// The Firestore type the hint produces, for messages.
        public var typeName: String {
            switch self {
            case .doubles: return "double"
            case .timestamps: return "timestamp"
            case .geopoints: return "geopoint"
            case .references: return "reference"
            case .bytes: return "bytes"
            }
        }
    }

    /// One hinted field.
    public struct Entry: Sendable, Equatable {
        /// The field, from the document root.
        public var path: FieldPath
        /// The type it gets.
        public var kind: Kind
    }

    /// Why a hint could not be added: its path is already hinted, or lies inside or around a
    /// hinted path.
    public struct Overlap: Error, Sendable, Equatable, CustomStringConvertible {
        /// The hint already present.
        public var existing: Entry

        /// "overlaps `x`, already listed in doubles; …", to follow the rejected path in a message.
        public var description: String {
            "overlaps `\(existing.path)`, already listed in \(existing.kind.rawValue); a field gets one type"
        }
    }

    /// The hints in the order they were added.
    public private(set) var entries: [Entry] = []

    /// No hints.
    public init() {}

    /// True when no field is hinted.
    public var isEmpty: Bool { entries.isEmpty }

    /// Adds a hint, unless its path equals, contains or is contained in one already added.
    public mutating func add(_ path: FieldPath, as kind: Kind) throws(Overlap) {
        if let existing = entries.first(where: { Self.overlap($0.path, path) }) {
            throw Overlap(existing: existing)
        }
        entries.append(Entry(path: path, kind: kind))
    }

    private static func overlap(_ a: FieldPath, _ b: FieldPath) -> Bool {
        zip(a.segments, b.segments).allSatisfy { UTF8Order.equal($0, $1) }
    }
}
