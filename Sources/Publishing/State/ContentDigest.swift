import Crypto
import FirestoreModel

/// A SHA-256 over what a bundle holds except its own times (`createTime` and the read times
/// that equal it): its named queries, and per document its name, version, content and query
/// membership, in bundle order. Two builds of a bundle id with the same digest are the same
/// bundle, so an unchanged rebuild keeps the published bytes and times exactly.
///
/// It is computed the same way from a bundle being planned and from a published bundle read
/// back, so a previous state derived from a deployed site compares equal too.
///
/// Each entry is a list of parts, each part length-prefixed (4 bytes, little-endian) so that no
/// two different lists feed the same bytes, and the list ended by 0xFF. The lists of many
/// documents can be written apart (``Lists``, on every core) and hashed in their order
/// (``add(_:)``): the hash of the bytes one after another is the hash of them added one by one.
struct ContentDigest {
    private var hasher = SHA256()
    /// The list being added; its storage is reused from one list to the next.
    private var list = Lists()

    mutating func addNamedQuery(name: String, bundledQuery: [UInt8]) {
        list.removeAll()
        list.appendNamedQuery(name: name, bundledQuery: bundledQuery)
        add(list)
    }

    /// `queries` in any order: a bundle lists them sorted by UTF-8 bytes.
    mutating func addExisting(_ path: ResourcePath, updateTime: Timestamp, fingerprint: DocumentFingerprint, queries: [String]) {
        list.removeAll()
        list.appendExisting(path, updateTime: updateTime, fingerprint: fingerprint, queries: queries)
        add(list)
    }

    mutating func addMissing(_ path: ResourcePath, readTime: Timestamp) {
        list.removeAll()
        list.appendMissing(path, readTime: readTime)
        add(list)
    }

    /// Adds the lists of `lists`, in their order.
    mutating func add(_ lists: Lists) {
        hasher.update(data: lists.bytes)
    }

    /// Lowercase hex.
    func finalize() -> String { hasher.finalize().hex }

    /// Entries' lists, one after another, as the digest takes them.
    struct Lists: Sendable {
        private(set) var bytes: [UInt8] = []

        /// Empties the lists, keeping their storage.
        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
        }

        mutating func appendNamedQuery(name: String, bundledQuery: [UInt8]) {
            part("q")
            part(name)
            part(bytes: bundledQuery)
            bytes.append(0xFF)
        }

        /// `queries` in any order: a bundle lists them sorted by UTF-8 bytes.
        mutating func appendExisting(_ path: ResourcePath, updateTime: Timestamp, fingerprint: DocumentFingerprint, queries: [String]) {
            part("d")
            part(path)
            part(updateTime.rfc3339)
            fingerprint.withHexDigits { part(bytes: $0) }
            for query in queries.count > 1 ? queries.sorted(by: { UTF8Order.compare($0, $1) == .less }) : queries {
                part(query)
            }
            bytes.append(0xFF)
        }

        mutating func appendMissing(_ path: ResourcePath, readTime: Timestamp) {
            part("m")
            part(path)
            part(readTime.rfc3339)
            bytes.append(0xFF)
        }

        private mutating func part(_ text: String) {
            part(bytes: text.utf8)
        }

        private mutating func part(bytes part: some Collection<UInt8>) {
            length(part.count)
            bytes.append(contentsOf: part)
        }

        /// The path as its `description` (segments joined by `/`), without building that string.
        private mutating func part(_ path: ResourcePath) {
            length(path.segments.reduce(max(0, path.segments.count - 1)) { $0 + $1.utf8.count })
            for (index, segment) in path.segments.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "/")) }
                bytes.append(contentsOf: segment.utf8)
            }
        }

        private mutating func length(_ count: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: count >> shift)) }
        }
    }
}
