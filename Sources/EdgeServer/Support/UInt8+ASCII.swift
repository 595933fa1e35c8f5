extension UInt8 {
    /// The value of an ASCII hex digit (`0`–`9`, `a`–`f`, `A`–`F`), nil for any other byte.
    var hexDigitValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The byte with an ASCII capital letter lowercased (field names, tokens and codings compare
    /// case-insensitively in ASCII only).
    var asciiLowercased: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self + 32 : self
    }

    /// Whether the byte is a space or a horizontal tab: HTTP's optional whitespace (OWS).
    var isSpaceOrTab: Bool {
        self == UInt8(ascii: " ") || self == UInt8(ascii: "\t")
    }

    /// Whether the byte is an ASCII digit.
    var isDigit: Bool {
        self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")
    }

    /// RFC 3986 `unreserved` or `sub-delims`: what a registered name (a host) holds unescaped,
    /// and, with `:`, `@` and `/`, a path.
    var isUnreservedOrSubDelimiter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~!$&'()*+,;=".utf8).contains(self)
        }
    }
}
