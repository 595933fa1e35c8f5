/// A request target (RFC 9112 §3.2) decoded once and checked, so that no layer behind the
/// transport ever sees a path that could leave the site root.
///
/// Accepted: origin-form (`/path?query`) and absolute-form (`http://host/path?query`, of which
/// only the path and query are kept). The path is percent-decoded once; `.` segments and empty
/// segments (`//`) are dropped; a trailing `/` is kept. Rejected with 400: any other form, a
/// fragment, malformed percent-encoding, an encoded `/` (`%2F`), a backslash, NUL or another
/// control character, a `..` segment (raw or encoded as `%2e%2e`), bytes that are not UTF-8.
struct RequestTarget: Sendable, Equatable {
    /// The decoded, normalised path, starting with `/`.
    var path: String
    /// The query without `?`, exactly as sent, or nil when there was no `?`.
    var query: String?

    init(parsing target: String) throws(RequestTargetError) {
        if let plain = Self.plainOriginForm(target) {
            self = plain
            return
        }
        var bytes = Array(target.utf8)
        if let schemeLength = Self.schemeLength(bytes) {
            let rest = bytes.dropFirst(schemeLength)
            let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
            bytes = (rest[authorityEnd...].first == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + rest[authorityEnd...]
        }
        guard bytes.first == UInt8(ascii: "/") else { throw .notOriginForm }
        guard !bytes.contains(UInt8(ascii: "#")) else { throw .fragment }
        var pathBytes = bytes[...]
        if let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) {
            pathBytes = bytes[..<questionMark]
            query = String(decoding: bytes[(questionMark + 1)...], as: UTF8.self)
        }
        var segments: [String] = []
        for raw in pathBytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            guard let segment = String(validating: try Self.percentDecoded(raw), as: UTF8.self) else { throw .notUTF8 }
            switch segment {
            case ".": continue
            case "..": throw .dotDotSegment
            default: segments.append(segment)
            }
        }
        let trailingSlash = pathBytes.last == UInt8(ascii: "/") && !segments.isEmpty
        path = "/" + segments.joined(separator: "/") + (trailingSlash ? "/" : "")
    }

    /// The common case without a second pass or copies: an origin-form target whose path is
    /// printable ASCII without `%`, `\`, `#`, `//` or `/.`, which decoding and normalising
    /// would leave as it is. Nil for anything else.
    private static func plainOriginForm(_ target: String) -> RequestTarget? {
        var target = target
        return target.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return nil }
            var previous: UInt8 = 0
            var pathEnd = 0
            while pathEnd < bytes.count, bytes[pathEnd] != UInt8(ascii: "?") {
                let byte = bytes[pathEnd]
                let unsafe = byte < 0x21 || byte > 0x7E || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "#")
                let dotOrEmptySegment = previous == UInt8(ascii: "/") && (byte == UInt8(ascii: "/") || byte == UInt8(ascii: "."))
                guard !unsafe, !dotOrEmptySegment else { return nil }
                previous = byte
                pathEnd += 1
            }
            let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<pathEnd]), as: UTF8.self)
            guard pathEnd < bytes.count else { return RequestTarget(path: path, query: nil) }
            let query = UnsafeBufferPointer(rebasing: bytes[(pathEnd + 1)...])
            guard !query.contains(UInt8(ascii: "#")) else { return nil }
            return RequestTarget(path: path, query: String(decoding: query, as: UTF8.self))
        }
    }

    private init(path: String, query: String?) {
        self.path = path
        self.query = query
    }

    /// The length of a leading `http://` or `https://` (any case), or nil when there is none.
    private static func schemeLength(_ bytes: [UInt8]) -> Int? {
        for scheme in ["http://", "https://"] {
            let prefix = bytes.prefix(scheme.utf8.count)
            if prefix.count == scheme.utf8.count && prefix.elementsEqual(scheme.utf8, by: { $0 | 0x20 == $1 | 0x20 }) {
                return prefix.count
            }
        }
        return nil
    }

    private static func percentDecoded(_ raw: ArraySlice<UInt8>) throws(RequestTargetError) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            var byte = raw[index]
            index += 1
            if byte == UInt8(ascii: "%") {
                guard index + 1 < raw.endIndex, let high = raw[index].hexDigitValue, let low = raw[index + 1].hexDigitValue else {
                    throw .badPercentEncoding
                }
                byte = high << 4 | low
                index += 2
                if byte == UInt8(ascii: "/") { throw .encodedSlash }
            }
            if byte == UInt8(ascii: "\\") { throw .backslash }
            if byte < 0x20 || byte == 0x7F { throw .controlCharacter }
            decoded.append(byte)
        }
        return decoded
    }
}
