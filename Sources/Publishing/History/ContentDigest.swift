import Crypto
import FirestoreModel

/// A SHA-256 over what a bundle holds except its own times (`createTime` and the read times
/// that equal it): its named queries, and per document its name, version, content and query
/// membership, in bundle order. Two builds of a bundle id with the same digest are the same
/// bundle, so an unchanged rebuild keeps the published bytes and times exactly.
///
/// It is computed the same way from a bundle being planned and from a published bundle read
/// back, so a previous state derived from a deployed site compares equal too.
struct ContentDigest {
    private var hasher = SHA256()

    mutating func addNamedQuery(name: String, bundledQuery: [UInt8]) {
        add(["q", name, String(decoding: bundledQuery, as: UTF8.self)])
    }

    /// `queries` in any order: a bundle lists them sorted by UTF-8 bytes.
    mutating func addExisting(_ path: ResourcePath, updateTime: Timestamp, fingerprint: String, queries: [String]) {
        add(["d", path.description, updateTime.rfc3339, fingerprint] + queries.sorted { UTF8Order.compare($0, $1) == .less })
    }

    mutating func addMissing(_ path: ResourcePath, readTime: Timestamp) {
        add(["m", path.description, readTime.rfc3339])
    }

    /// Lowercase hex.
    func finalize() -> String { hasher.finalize().hex }

    /// Each part length-prefixed, so no two different lists feed the same bytes. The bytes of one
    /// list go to the hasher in one update (a bundle adds one list per document).
    private mutating func add(_ parts: [String]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(1) { $0 + 4 + $1.utf8.count })
        for part in parts {
            let count = UInt32(part.utf8.count)
            bytes += [UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 24)]
            bytes += part.utf8
        }
        bytes.append(0xFF)
        hasher.update(data: bytes)
    }
}
