import Crypto
import FirestoreModel
import JSONCore

/// What tells two versions of a document apart when their `updateTime`s do not: a short hash of
/// its `createTime` and its fields as a bundle encodes them.
///
/// A client replaces a cached document only with a strictly newer `updateTime` (bundle-format.md
/// §7), so a build that ships changed content under an `updateTime` it shipped before (an export
/// without times, a restored backup, a hand-edited file) must give it a newer one; comparing
/// fingerprints is how it notices. 64 bits of SHA-256: a collision among the versions of one
/// document is not a practical concern. Held as a number (a build keeps one per document it
/// ships), written as 16 lowercase hex digits: the state file and the content digests say it so.
struct DocumentFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The first 8 bytes of the SHA-256, big-endian.
    var bits: UInt64

    init(bits: UInt64) {
        self.bits = bits
    }

    /// A fingerprint as ``description`` writes it: 16 lowercase hex digits; nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 16 else { return nil }
        var bits: UInt64 = 0
        for digit in digits {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): bits = bits << 4 | UInt64(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): bits = bits << 4 | UInt64(digit - UInt8(ascii: "a") + 10)
            default: return nil
            }
        }
        self.bits = bits
    }

    /// 16 lowercase hex digits.
    var description: String { withHexDigits { String(decoding: $0, as: UTF8.self) } }

    /// Calls `body` with ``description``'s digits as bytes, without building the string: the
    /// state and the content digests write one for every document a site ships.
    func withHexDigits<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: bits >> UInt64(60 - 4 * index)) & 0xF
                digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return body(UnsafeBufferPointer(digits))
        }
    }

    /// The fingerprint of `document` as it stands.
    static func of(_ document: Document) -> DocumentFingerprint {
        var fields = JSONWriter(reservingCapacity: 4096)
        document.fields.encodeFields(into: &fields)
        return of(createTime: document.createTime, encodedFields: fields.bytes)
    }

    /// The fingerprint of a document created at `createTime` whose fields encode (by
    /// ``FirestoreModel/MapValue/encodeFields(into:)``) as `encodedFields`.
    static func of(createTime: Timestamp?, encodedFields: [UInt8]) -> DocumentFingerprint {
        var time = JSONWriter(reservingCapacity: 40)
        time.string(createTime?.rfc3339 ?? "")
        var hasher = SHA256()
        hasher.update(data: time.bytes)
        hasher.update(data: encodedFields)
        return DocumentFingerprint(bits: hasher.finalize().prefix(8).reduce(0) { $0 << 8 | UInt64($1) })
    }
}
