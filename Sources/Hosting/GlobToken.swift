/// One element of a wildcard path segment as fnmatch(3) reads it in the C locale (byte by byte,
/// `\` escaping the next byte), which is how ``SitePolicy/GlobSegment`` matches.
///
/// The hosting renderers rewrite segments token by token into each host's pattern language.
enum GlobToken: Equatable {
    /// A byte that must appear as it is.
    case literal(UInt8)
    /// `?`: any one byte.
    case anyByte
    /// `*`: any run of bytes, including none.
    case anyRun
    /// `[…]`: one byte of a set.
    case byteSet(ByteSet)

    /// The tokens of the segment `text`, or nil when it uses what the renderers do not follow
    /// exactly: a character class (`[:alpha:]`), an equivalence class or collating symbol, a
    /// non-ASCII byte or a reversed range in brackets, an unterminated `[`, a trailing `\`.
    static func parse(_ text: String) -> [GlobToken]? {
        let bytes = Array(text.utf8)
        var tokens: [GlobToken] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "*"):
                tokens.append(.anyRun)
                index += 1
            case UInt8(ascii: "?"):
                tokens.append(.anyByte)
                index += 1
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { return nil }
                tokens.append(.literal(bytes[index + 1]))
                index += 2
            case UInt8(ascii: "["):
                guard let (set, end) = ByteSet.parseBracket(bytes, at: index) else { return nil }
                tokens.append(.byteSet(set))
                index = end
            default:
                tokens.append(.literal(bytes[index]))
                index += 1
            }
        }
        return tokens
    }

    /// The literal bytes before the first wildcard token of `tokens`.
    static func literalPrefix(_ tokens: [GlobToken]) -> [UInt8] {
        literalBytes(tokens.prefix { $0.literalByte != nil })
    }

    /// The literal bytes after the last wildcard token of `tokens`.
    static func literalSuffix(_ tokens: [GlobToken]) -> [UInt8] {
        literalBytes(tokens.reversed().prefix { $0.literalByte != nil }.reversed())
    }

    private static func literalBytes(_ tokens: some Sequence<GlobToken>) -> [UInt8] {
        tokens.compactMap(\.literalByte)
    }

    /// The byte of a ``literal(_:)`` token.
    var literalByte: UInt8? {
        if case .literal(let byte) = self { return byte }
        return nil
    }
}
