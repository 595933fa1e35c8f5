/// Why a request target was refused with 400 (see ``RequestTarget``).
enum RequestTargetError: Error, Sendable, Equatable, CustomStringConvertible {
    case notOriginForm
    case fragment
    case badPercentEncoding
    case encodedSlash
    case backslash
    case controlCharacter
    case dotDotSegment
    case notUTF8

    var description: String {
        switch self {
        case .notOriginForm: return "the request target must be a path starting with / (or an absolute http:// URL)"
        case .fragment: return "the request target must not contain a # fragment"
        case .badPercentEncoding: return "the path has a % not followed by two hex digits"
        case .encodedSlash: return "the path contains an encoded slash (%2F), which could address another directory"
        case .backslash: return "the path contains a backslash"
        case .controlCharacter: return "the path contains a NUL or another control character"
        case .dotDotSegment: return "the path contains a .. segment; paths cannot leave the site directory"
        case .notUTF8: return "the decoded path is not UTF-8"
        }
    }
}
