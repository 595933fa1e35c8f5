/// Why a resource name or path was rejected.
public struct PathError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A path of segments below a database's `documents` root, e.g. `stories/s1/comments/c1`.
///
/// An even number of segments names a document, an odd number a collection, zero the root.
/// Segments are raw (not percent-encoded), compared byte-exactly.
public struct ResourcePath: Sendable, Hashable, CustomStringConvertible {
    public private(set) var segments: [String]

    public init(segments: [String]) {
        self.segments = segments
    }

    public static let root = ResourcePath(segments: [])

    /// Parses a slash-separated relative path (`stories/s1`). Empty segments are an error.
    public init(parsing path: String) throws(PathError) {
        if path.isEmpty {
            self.init(segments: [])
            return
        }
        // `withUTF8` reads a native String in place (a bridged one it first copies).
        var text = path
        guard let segments = text.withUTF8({ bytes in
            var parts = SlashSeparatedParts(bytes)
            return parts.segments()
        }) else {
            throw PathError("\"\(path)\" has an empty path segment (a leading, trailing or doubled '/')")
        }
        self.init(segments: segments)
    }

    public var isEmpty: Bool { segments.isEmpty }
    public var count: Int { segments.count }
    public var isDocument: Bool { !segments.isEmpty && segments.count % 2 == 0 }
    public var isCollection: Bool { segments.count % 2 == 1 }
    public var lastSegment: String? { segments.last }

    /// The path without its last segment.
    public var parent: ResourcePath {
        ResourcePath(segments: Array(segments.dropLast()))
    }

    public func appending(_ segment: String) -> ResourcePath {
        ResourcePath(segments: segments + [segment])
    }

    /// True when `self` is a (non-strict) prefix of `other`.
    public func isPrefix(of other: ResourcePath) -> Bool {
        guard segments.count <= other.segments.count else { return false }
        return zip(segments, other.segments).allSatisfy { UTF8Order.equal($0, $1) }
    }

    /// True when `self` is exactly `other` minus its last segment.
    public func isImmediateParent(of other: ResourcePath) -> Bool {
        segments.count + 1 == other.segments.count && isPrefix(of: other)
    }

    public var description: String { segments.joined(separator: "/") }

    public static func == (lhs: ResourcePath, rhs: ResourcePath) -> Bool {
        lhs.segments.count == rhs.segments.count && zip(lhs.segments, rhs.segments).allSatisfy { UTF8Order.equal($0, $1) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments.count)
        for segment in segments {
            // The UTF-8 bytes in place (no per-segment array), preceded by their count so that
            // segment boundaries are part of the hash.
            var segment = segment
            segment.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            }
        }
    }

    /// Document-key order, as the Firestore clients sort `__name__`: segment by segment, where a
    /// segment `__id<integer>__` sorts before every other segment and numerically against other
    /// such segments, other segments by UTF-8 bytes; then the shorter path first.
    public static func compare(_ lhs: ResourcePath, _ rhs: ResourcePath) -> Ordering {
        for (l, r) in zip(lhs.segments, rhs.segments) {
            let order = compareSegments(l, r)
            if order != .equal { return order }
        }
        return Ordering.of(lhs.segments.count, rhs.segments.count)
    }

    /// One segment of a document key or field path in the clients' order (`BasePath.compareSegments`).
    static func compareSegments(_ lhs: String, _ rhs: String) -> Ordering {
        // Almost no segment is numeric: decide that on the first byte before any parsing.
        guard NumericID.mayBeNumeric(lhs) || NumericID.mayBeNumeric(rhs) else { return UTF8Order.compare(lhs, rhs) }
        switch (NumericID(lhs), NumericID(rhs)) {
        case let (l?, r?): return NumericID.compare(l, r)
        case (.some, nil): return .less
        case (nil, .some): return .greater
        case (nil, nil): return UTF8Order.compare(lhs, rhs)
        }
    }
}

/// A document ID of the form `__id<integer>__`, which the clients order numerically
/// (firebase-js-sdk `BasePath.compareSegments`). The integer may be negative and of any size.
///
/// The SDK treats any `__id…__` segment as numeric and parses it with `Integer.fromString`;
/// segments whose middle is not an integer give undefined results there, so we order those
/// as plain strings.
struct NumericID {
    var negative: Bool
    /// Decimal digits without leading zeros ("" for zero).
    var digits: Substring.UTF8View

    /// False for every segment that cannot be `__id…__` (all that do not start with `_`).
    static func mayBeNumeric(_ segment: String) -> Bool {
        segment.utf8.first == UInt8(ascii: "_")
    }

    init?(_ segment: String) {
        let utf8 = segment.utf8
        guard utf8.count > 6, utf8.starts(with: "__id".utf8), utf8.reversed().starts(with: "__".utf8) else { return nil }
        var middle = Substring(segment).dropFirst(4).dropLast(2)
        negative = middle.hasPrefix("-")
        if negative { middle = middle.dropFirst() }
        guard !middle.isEmpty, middle.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        let trimmed = middle.drop { $0 == "0" }
        digits = trimmed.utf8
        if trimmed.isEmpty { negative = false }
    }

    static func compare(_ lhs: NumericID, _ rhs: NumericID) -> Ordering {
        if lhs.negative != rhs.negative { return lhs.negative ? .less : .greater }
        var magnitude = Ordering.of(lhs.digits.count, rhs.digits.count)
        if magnitude == .equal {
            magnitude = lhs.digits.lexicographicallyPrecedes(rhs.digits) ? .less
                : (lhs.digits.elementsEqual(rhs.digits) ? .equal : .greater)
        }
        return lhs.negative ? magnitude.reversed : magnitude
    }
}

/// A fully qualified Firestore resource name: a database plus a path below its documents root.
public struct ResourceName: Sendable, Hashable, CustomStringConvertible {
    public var database: DatabaseID
    public var path: ResourcePath

    public init(database: DatabaseID, path: ResourcePath) {
        self.database = database
        self.path = path
    }

    /// Parses `projects/{p}/databases/{d}/documents[/path…]`.
    public init(parsing name: String) throws(PathError) {
        try self.init(parsing: name, reusing: nil)
    }

    /// Parses `projects/{p}/databases/{d}/documents[/path…]`, with `known`'s Strings for a
    /// project or database that is `known`'s: most names in an export are in the same database.
    init(parsing name: String, reusing known: DatabaseID?) throws(PathError) {
        var text = name
        let parsed: Result<ResourceName, PathError> = text.withUTF8 { bytes in
            // The words as bytes are the words as Strings: no other Character is canonically
            // equivalent to one of their letters (only `K`, `;` and `` ` `` have others).
            var parts = SlashSeparatedParts(bytes)
            guard parts.next(is: "projects"), let project = parts.nextNonEmpty(), parts.next(is: "databases"),
                  let database = parts.nextNonEmpty(), parts.next(is: "documents")
            else {
                return .failure(PathError("\"\(name)\" is not a resource name of the form projects/{project}/databases/{database}/documents/…"))
            }
            guard let segments = parts.segments() else { return .failure(PathError("\"\(name)\" has an empty path segment")) }
            let id = DatabaseID(project: project, database: database, reusing: known)
            return .success(ResourceName(database: id, path: ResourcePath(segments: segments)))
        }
        self = try parsed.get()
    }

    /// True when `name` starts with `projects/` (a full name rather than a relative path).
    public static func looksQualified(_ name: String) -> Bool {
        name.hasPrefix("projects/")
    }

    /// Parses the name of a document: a full name, or a path relative to `database`
    /// (`users/lurie`). A collection's name is an error.
    public init(documentName text: String, relativeTo database: DatabaseID) throws(PathError) {
        self = Self.looksQualified(text)
            ? try ResourceName(parsing: text, reusing: database)
            : ResourceName(database: database, path: try ResourcePath(parsing: text))
        guard path.isDocument else {
            throw PathError("\"\(text)\" does not name a document (it needs an even number of path segments)")
        }
    }

    /// `projects/{p}/databases/{d}/documents[/path]`.
    public var description: String {
        path.isEmpty ? database.documentsRoot : database.documentsRoot + "/" + path.description
    }
}
