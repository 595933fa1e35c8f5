/// A header-rule or CORS path pattern that cannot be used.
public enum PathPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern is the empty string.
    case empty
    /// The pattern holds a NUL, line break or other control character.
    case controlCharacter(pattern: String)
    /// A segment uses `**` together with other characters (`a**`), where it would only mean `*`.
    case globstarInsideSegment(pattern: String, segment: String)

    public var description: String {
        switch self {
        case .empty:
            return "a path pattern cannot be empty; use /** for every path"
        case .controlCharacter(let pattern):
            return "the path pattern \"\(pattern.debugDescription.dropFirst().dropLast())\" contains control characters; write it on one line"
        case .globstarInsideSegment(let pattern, let segment):
            return "the path pattern \"\(pattern)\" uses ** inside the segment \"\(segment)\"; ** must be a whole segment (/**/), * matches within one"
        }
    }
}
