import FirestoreModel
import JSONCore

/// Reads a timestamp in the one form every client accepts (bundle-format.md §4): an RFC 3339
/// string with uppercase `T` and `Z`, no offset, at most nine fraction digits.
enum StrictTimestamp {
    /// Checks `node` and returns its time, or nil after logging why it is unusable.
    /// - Parameter field: the field's name in messages, e.g. `documentMetadata.readTime`.
    static func read(_ node: JSONNode, field: String, log: inout ProblemLog) -> Timestamp? {
        guard let text = node.stringValue else {
            if node.objectValue != nil {
                log.error(.timestampForm, at: node.offset, "\(field) is a {seconds, nanos} object: Python deserialize_bundle accepts only RFC 3339 strings, so it fails to parse the bundle")
            } else {
                log.error(.invalidTimestamp, at: node.offset, "\(field) must be an RFC 3339 string, found \(node.kindDescription): every client fails to read it")
            }
            return nil
        }
        let time: Timestamp
        do {
            time = try Timestamp(rfc3339: text)
        } catch {
            log.error(.invalidTimestamp, at: node.offset, "\(field): \(error.message): JS, Android, iOS and Python fail to parse it")
            return nil
        }
        let bytes = Array(text.utf8)
        guard bytes[10] == UInt8(ascii: "T"), bytes.last == UInt8(ascii: "Z") else {
            log.error(.invalidTimestamp, at: node.offset, "\(field) \"\(text)\" is not in UTC with an uppercase 'T' and 'Z': the JS SDK only parses '…Z' timestamps and fails with INTERNAL ASSERTION FAILED (b5de) when it reads one")
            return nil
        }
        if bytes.count != 30 {
            log.warn(once: "timestamp-digits", at: node.offset, "\(field) \"\(text)\" does not have exactly nine fraction digits: every client reads it, but §10 writes nine so JS's same-length string comparison of timestamps stays valid")
        }
        return time
    }

    /// Reads a required bundle time (a read, create or update time), which must be after the
    /// epoch: Android and iOS assert on zero read times and JS removes a zero-version deleted
    /// document instead of tombstoning it (§7).
    static func readPositive(_ node: JSONNode?, field: String, requiredBy clients: String, in object: JSONNode, log: inout ProblemLog) -> Timestamp? {
        guard let node else {
            log.error(.missingField, at: object.offset, "\(field) is missing: \(clients) require it")
            return nil
        }
        guard let time = read(node, field: field, log: &log) else { return nil }
        guard time.isPositive else {
            log.error(.zeroTime, at: node.offset, "\(field) \(time) is not after the epoch: Android throws an AssertionError and iOS aborts on a zero read time, and JS mishandles zero versions")
            return nil
        }
        return time
    }
}
