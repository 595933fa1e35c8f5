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
/// document is not a practical concern.
enum DocumentFingerprint {
    /// 16 lowercase hex digits.
    static func of(_ document: Document) -> String {
        var fields = JSONWriter(reservingCapacity: 4096)
        document.fields.encodeFields(into: &fields)
        return of(createTime: document.createTime, encodedFields: fields.bytes)
    }

    /// The fingerprint of a document created at `createTime` whose fields encode (by
    /// ``FirestoreModel/MapValue/encodeFields(into:)``) as `encodedFields`.
    static func of(createTime: Timestamp?, encodedFields: [UInt8]) -> String {
        var time = JSONWriter(reservingCapacity: 40)
        time.string(createTime?.rfc3339 ?? "")
        var hasher = SHA256()
        hasher.update(data: time.bytes)
        hasher.update(data: encodedFields)
        return hasher.finalize().hex(bytes: 8)
    }
}
