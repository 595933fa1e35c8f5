/// A request's `Accept-Encoding` (RFC 9110 §12.5.3) and the coding it selects.
///
/// Codings compare case-insensitively, `x-gzip` counts as `gzip` (§8.4.1.3), `*` stands for
/// every coding not listed, and a q-value of 0 means "not acceptable". Elements whose q-value
/// is malformed are ignored. Without the field at all the client gets identity: that is what
/// curl, scripts and `fetch` in tests expect, and what nginx and Caddy do.
struct AcceptEncoding: Sendable, Equatable {
    /// Quality in thousandths (0…1000) of each named coding, lowercased.
    private(set) var qualities: [String: Int] = [:]
    /// Quality of `*`, when listed.
    private(set) var wildcard: Int?
    /// Whether the request had the field at all.
    let isPresent: Bool

    /// Parses every `Accept-Encoding` field line of a request (an empty list: no field).
    init(fieldValues: [String]) {
        isPresent = !fieldValues.isEmpty
        for value in fieldValues {
            for element in value.split(separator: ",") {
                record(element)
            }
        }
    }

    private mutating func record(_ element: Substring) {
        let parts = element.split(separator: ";")
        guard let name = parts.first?.trimmingSpaces.lowercased(), !name.isEmpty else { return }
        var quality = 1000
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" else { continue }
            guard let parsed = Self.qvalue(pair[1].trimmingSpaces) else { return }
            quality = parsed
        }
        let coding = name == "x-gzip" ? "gzip" : name
        if coding == "*" {
            wildcard = max(wildcard ?? 0, quality)
        } else {
            qualities[coding] = max(qualities[coding] ?? 0, quality)
        }
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes.dropFirst(2) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// The quality of `coding`. Identity not named explicitly nor through `*` is acceptable
    /// with the lowest preference, so any coding the client did list wins over it.
    func quality(of coding: ContentCoding) -> Int {
        switch coding {
        case .gzip:
            return isPresent ? qualities["gzip"] ?? wildcard ?? 0 : 0
        case .identity:
            return qualities["identity"] ?? wildcard ?? 1
        }
    }

    /// The coding to send, or nil when the client accepts none of those available (406).
    /// The higher quality wins; on a tie gzip, the smaller body.
    func select(gzipAvailable: Bool) -> ContentCoding? {
        let gzip = gzipAvailable ? quality(of: .gzip) : 0
        let identity = quality(of: .identity)
        if gzip > 0 && gzip >= identity { return .gzip }
        return identity > 0 ? .identity : nil
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's OWS).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
