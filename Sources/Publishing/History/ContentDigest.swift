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
/// two different lists feed the same bytes, and the list ended by 0xFF; a list goes to the
/// hasher in one update (a bundle adds one list per document).
struct ContentDigest {
    private var hasher = SHA256()
    /// The list being added; its storage is reused from one list to the next.
    private var list: [UInt8] = []

    mutating func addNamedQuery(name: String, bundledQuery: [UInt8]) {
        add { digest in
            digest.part("q")
            digest.part(name)
            digest.part(bytes: bundledQuery)
        }
    }

    /// `queries` in any order: a bundle lists them sorted by UTF-8 bytes.
    mutating func addExisting(_ path: ResourcePath, updateTime: Timestamp, fingerprint: DocumentFingerprint, queries: [String]) {
        add { digest in
            digest.part("d")
            digest.part(path)
            digest.part(updateTime.rfc3339)
            digest.part(fingerprint.description)
            for query in queries.count > 1 ? queries.sorted(by: { UTF8Order.compare($0, $1) == .less }) : queries {
                digest.part(query)
            }
        }
    }

    mutating func addMissing(_ path: ResourcePath, readTime: Timestamp) {
        add { digest in
            digest.part("m")
            digest.part(path)
            digest.part(readTime.rfc3339)
        }
    }

    /// Lowercase hex.
    func finalize() -> String { hasher.finalize().hex }

    private mutating func add(_ parts: (inout ContentDigest) -> Void) {
        list.removeAll(keepingCapacity: true)
        parts(&self)
        list.append(0xFF)
        hasher.update(data: list)
    }

    private mutating func part(_ text: String) {
        part(bytes: text.utf8)
    }

    private mutating func part(bytes: some Collection<UInt8>) {
        length(bytes.count)
        list.append(contentsOf: bytes)
    }

    /// The path as its `description` (segments joined by `/`), without building that string.
    private mutating func part(_ path: ResourcePath) {
        length(path.segments.reduce(max(0, path.segments.count - 1)) { $0 + $1.utf8.count })
        for (index, segment) in path.segments.enumerated() {
            if index > 0 { list.append(UInt8(ascii: "/")) }
            list.append(contentsOf: segment.utf8)
        }
    }

    private mutating func length(_ count: Int) {
        for shift in stride(from: 0, to: 32, by: 8) { list.append(UInt8(truncatingIfNeeded: count >> shift)) }
    }
}
