import FirestoreModel

/// The documents a bundle carries, each with the version it carries, listed in key order (the
/// order the bundle carries them and the state file lists them) and looked up by path: kept in
/// that order rather than sorted again for every state written (sorting a million paths took
/// 1.6 s).
struct ShippedDocuments: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    typealias Element = (path: ResourcePath, version: ShippedVersion)

    /// In key order, each path once.
    private var documents: [Element]
    /// Each path's place in `documents`.
    private var positions: [ResourcePath: Int]

    /// From documents already in key order, each path once (a plan's entries).
    init(inKeyOrder documents: [Element]) {
        self.documents = documents
        positions = Dictionary(minimumCapacity: documents.count)
        for (position, document) in documents.enumerated() {
            assert(position == 0 || ResourcePath.compare(documents[position - 1].path, document.path) != .greater, "\(document.path) is out of key order")
            let known = positions.updateValue(position, forKey: document.path)
            assert(known == nil, "\(document.path) is there twice")
        }
    }

    /// From documents in any order (a state file or a bundle read back): put in key order; a
    /// path given twice keeps its last version.
    init(_ documents: [Element]) {
        // Sorting is stable, so a path's later versions come after its first in key order.
        self.documents = []
        self.documents.reserveCapacity(documents.count)
        positions = Dictionary(minimumCapacity: documents.count)
        for document in documents.sorted(byPath: \.path) {
            if let known = positions[document.path] {
                self.documents[known].version = document.version
            } else {
                positions[document.path] = self.documents.count
                self.documents.append(document)
            }
        }
    }

    init(dictionaryLiteral elements: (ResourcePath, ShippedVersion)...) {
        self.init(elements.map { (path: $0.0, version: $0.1) })
    }

    /// The version of `path` carried, if it is.
    subscript(path: ResourcePath) -> ShippedVersion? {
        positions[path].map { documents[$0].version }
    }

    /// The paths carried, in key order.
    var paths: some Collection<ResourcePath> { documents.lazy.map(\.path) }

    var count: Int { documents.count }

    /// The documents in key order, by position.
    var elements: [Element] { documents }

    /// The documents in key order.
    func makeIterator() -> IndexingIterator<[Element]> { documents.makeIterator() }

    /// Equal when they carry the same versions of the same paths (the order of paths that order
    /// alike, numeric ids such as `__id7__` and `__id007__`, aside).
    static func == (lhs: ShippedDocuments, rhs: ShippedDocuments) -> Bool {
        lhs.count == rhs.count && lhs.documents.allSatisfy { rhs[$0.path] == $0.version }
    }
}
