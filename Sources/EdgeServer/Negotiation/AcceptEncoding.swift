/// A request's `Accept-Encoding` (RFC 9110 §12.5.3) and the coding it selects.
///
/// Codings compare case-insensitively, `x-gzip` counts as `gzip` (§8.4.1.3), `*` stands for
/// every coding not listed, and a q-value of 0 means "not acceptable". Elements whose q-value
/// is malformed are ignored. Without the field at all the client gets identity: that is what
/// curl, scripts and `fetch` in tests expect, and what nginx and Caddy do.
struct AcceptEncoding: Sendable, Equatable {
    /// Quality in thousandths (0…1000) of `gzip` (or `x-gzip`), when listed.
    private var gzip: Int?
    /// Quality of `identity`, when listed.
    private var identity: Int?
    /// Quality of `*`, when listed.
    private var wildcard: Int?

    /// Parses every `Accept-Encoding` field line of a request (an empty list: no field), byte by
    /// byte: codings other than `gzip`, `x-gzip`, `identity` and `*` are skipped, since the
    /// origin has nothing else to offer.
    init(fieldValues: [String]) {
        for var value in fieldValues {
            value.withUTF8 { bytes in
                for element in bytes.split(separator: UInt8(ascii: ",")) {
                    record(element)
                }
            }
        }
    }

    private mutating func record(_ element: Slice<UnsafeBufferPointer<UInt8>>) {
        var parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)[...]
        guard let name = parts.popFirst()?.trimmingSpaces, !name.isEmpty else { return }
        var quality = 1000
        for parameter in parts {
            guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")),
                Self.equalsIgnoringCase(parameter[..<equals].trimmingSpaces, "q")
            else { continue }
            guard let parsed = Self.qvalue(parameter[parameter.index(after: equals)...].trimmingSpaces) else { return }
            quality = parsed
        }
        if Self.equalsIgnoringCase(name, "gzip") || Self.equalsIgnoringCase(name, "x-gzip") {
            gzip = max(gzip ?? 0, quality)
        } else if Self.equalsIgnoringCase(name, "identity") {
            identity = max(identity ?? 0, quality)
        } else if name.elementsEqual("*".utf8) {
            wildcard = max(wildcard ?? 0, quality)
        }
    }

    /// Whether `bytes` spell `lowercase` with ASCII letters in any case.
    private static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return bytes.elementsEqual(expected) { $0.asciiLowercased == $1 }
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qvalue(_ text: some Collection<UInt8>) -> Int? {
        var bytes = text.makeIterator()
        guard let first = bytes.next(), first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard let dot = bytes.next() else { return value }
        guard dot == UInt8(ascii: "."), text.count <= 5 else { return nil }
        var scale = 100
        while let digit = bytes.next() {
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
            return gzip ?? wildcard ?? 0
        case .identity:
            return identity ?? wildcard ?? 1
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

extension Slice<UnsafeBufferPointer<UInt8>> {
    /// The bytes without leading and trailing spaces and tabs (HTTP's OWS).
    fileprivate var trimmingSpaces: Self {
        guard let start = firstIndex(where: { !$0.isSpaceOrTab }), let end = lastIndex(where: { !$0.isSpaceOrTab }) else { return self[endIndex...] }
        return self[start...end]
    }
}
