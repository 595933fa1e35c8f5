/// A path to a field inside a document: `a.b` is field `b` of map `a`; `` `a.b` `` is the single
/// field named "a.b". `__name__` (one segment) is the document key.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    public let segments: [String]

    public init(segments: [String]) {
        self.segments = segments
    }

    /// The document-key pseudo field `__name__`.
    public static let documentKey = FieldPath(segments: ["__name__"])

    public var isDocumentKey: Bool {
        segments.count == 1 && UTF8Order.equal(segments[0], "__name__")
    }

    /// Parses the server format exactly as the clients do (`FieldPath.fromServerFormat`):
    /// dot-separated segments, backticks quote a segment, and `\` escapes `\`, `.` or `` ` ``
    /// anywhere. Empty segments (also a quoted "``") are an error.
    public init(serverFormat text: String) throws(PathError) {
        var segments: [String] = []
        var current = ""
        var inBackticks = false
        var iterator = text.unicodeScalars.makeIterator()
        func finishSegment() throws(PathError) {
            guard !current.isEmpty else {
                throw PathError("field path \"\(text)\" has an empty segment (it must not be empty, begin or end with '.', or contain '..')")
            }
            segments.append(current)
            current = ""
        }
        while let scalar = iterator.next() {
            switch scalar {
            case "\\":
                guard let next = iterator.next() else { throw PathError("field path \"\(text)\" ends with a lone '\\'") }
                guard next == "\\" || next == "." || next == "`" else {
                    throw PathError("field path \"\(text)\" has an invalid escape '\\\(next)'; only \\\\, \\. and \\` are allowed")
                }
                current.unicodeScalars.append(next)
            case "`":
                inBackticks.toggle()
            case "." where !inBackticks:
                try finishSegment()
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        try finishSegment()
        guard !inBackticks else { throw PathError("field path \"\(text)\" has an unclosed backtick") }
        self.segments = segments
    }

    /// The canonical server format: segments matching `[_a-zA-Z][_a-zA-Z0-9]*` as they are,
    /// others in backticks with `` ` `` and `\` escaped.
    public var canonicalString: String {
        segments.map(Self.quoteIfNeeded).joined(separator: ".")
    }

    public var description: String { canonicalString }

    static func quoteIfNeeded(_ segment: String) -> String {
        func isIdentifierStart(_ b: UInt8) -> Bool {
            b == UInt8(ascii: "_") || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
        }
        let bytes = Array(segment.utf8)
        if let first = bytes.first, isIdentifierStart(first),
           bytes.dropFirst().allSatisfy({ isIdentifierStart($0) || ($0 >= 48 && $0 <= 57) }) {
            return segment
        }
        var quoted = "`"
        for scalar in segment.unicodeScalars {
            if scalar == "`" || scalar == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "`"
    }

    /// Field-path order used for implicit orderBys: segment by segment as the clients compare
    /// path segments (`BasePath.comparator`: `__id<n>__` segments first and numerically, others
    /// by UTF-8), shorter first.
    public static func compare(_ lhs: FieldPath, _ rhs: FieldPath) -> Ordering {
        for (l, r) in zip(lhs.segments, rhs.segments) {
            let order = ResourcePath.compareSegments(l, r)
            if order != .equal { return order }
        }
        return Ordering.of(lhs.segments.count, rhs.segments.count)
    }

    /// Byte-exact equality of the segments (consistent with `hash(into:)`).
    public static func == (lhs: FieldPath, rhs: FieldPath) -> Bool {
        lhs.segments.count == rhs.segments.count && zip(lhs.segments, rhs.segments).allSatisfy { UTF8Order.equal($0, $1) }
    }

    public func hash(into hasher: inout Hasher) {
        for segment in segments { hasher.combine(Array(segment.utf8)) }
    }
}
