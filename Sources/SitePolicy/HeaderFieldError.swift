/// A header field in a policy that the server refuses to send, and why.
public enum HeaderFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name is empty or has characters outside the HTTP token set.
    case invalidName(String)
    /// The name is one the server owns (see ``HeaderField/reservedNames``), with the reason.
    case reservedName(String, reason: String)
    /// The value has a control character or leading/trailing whitespace.
    case invalidValue(name: String, value: String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            return "\"\(name)\" is not a valid header name: use letters, digits and !#$%&'*+-.^_`|~ only (for example Cache-Control)"
        case .reservedName(let name, let reason):
            return "the header \(name) cannot be set by a rule: \(reason)"
        case .invalidValue(let name, _):
            return "the value of \(name) contains a control character (line break, tab at the end, NUL…) or surrounding spaces; write it on one line without them"
        }
    }
}
