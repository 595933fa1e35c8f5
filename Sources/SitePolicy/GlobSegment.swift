import SystemSupport

/// One `/`-separated segment of a glob: a literal name, an fnmatch(3) pattern, or `**`.
///
/// `*`, `?` and `[…]` match within one segment and never across `/`; none of them matches a
/// leading `.` (`FNM_PERIOD`), so dotfiles are only matched by patterns that name the dot.
/// `**` stands for any number of whole segments, including none.
public enum GlobSegment: Sendable, Hashable {
    /// A name without wildcards, compared byte for byte.
    case literal(String)
    /// A pattern with `*`, `?` or `[…]`, matched with fnmatch(3).
    case wildcard(String)
    /// `**`: zero or more segments.
    case anyDepth

    /// Classifies one segment of a pattern.
    public init(_ text: some StringProtocol) {
        if text == "**" {
            self = .anyDepth
        } else if text.contains(where: { $0 == "*" || $0 == "?" || $0 == "[" }) {
            self = .wildcard(String(text))
        } else {
            self = .literal(String(text))
        }
    }

    /// Whether this segment matches the name `name` (one path segment, without `/`).
    /// `**` matches any single name here; ``PathPattern`` handles its zero-or-more meaning.
    public func matches(_ name: some StringProtocol) -> Bool {
        switch self {
        case .literal(let literal):
            return name.utf8.elementsEqual(literal.utf8)
        case .wildcard(let pattern):
            return fnmatch(pattern, String(name), FNM_PERIOD) == 0
        case .anyDepth:
            return true
        }
    }

    /// Whether the segment is a plain name (a file walk can go straight to it).
    public var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }

    /// The segment as written.
    public var text: String {
        switch self {
        case .literal(let text), .wildcard(let text): return text
        case .anyDepth: return "**"
        }
    }
}
