import FirestoreModel
import Foundation

/// The documents a bundle carries, each with the version it carries, listed in key order (the
/// order the bundle carries them and the state file lists them) and looked up by path: kept in
/// that order rather than sorted again for every state written (sorting a million paths took
/// 1.6 s).
struct ShippedDocuments: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    typealias Element = (path: ResourcePath, version: ShippedVersion)

    /// In key order, each path once.
    private let documents: [Element]
    /// Each path's place in `documents`.
    private let positions: Positions

    /// From documents already in key order, each path once (a plan's entries). Their places
    /// are found on the first look-up: a build writes the state it makes without looking a path
    /// up in it, unless a bundle published before is succeeded (hashing a million paths took
    /// 0.43 s of the plan's one thread).
    init(inKeyOrder documents: [Element]) {
        assert(
            documents.indices.dropFirst().allSatisfy { ResourcePath.compare(documents[$0 - 1].path, documents[$0].path) != .greater },
            "documents out of key order")
        assert(Set(documents.map(\.path)).count == documents.count, "a path is there twice")
        self.documents = documents
        positions = Positions(foundIn: documents)
    }

    /// From documents in any order (a state file or a bundle read back): put in key order; a
    /// path given twice keeps its last version.
    init(_ documents: [Element]) {
        // Sorting is stable, so a path's later versions come after its first in key order.
        var ordered: [Element] = []
        ordered.reserveCapacity(documents.count)
        var table = [ResourcePath: Int](minimumCapacity: documents.count)
        for document in documents.sorted(byPath: \.path) {
            if let known = table[document.path] {
                ordered[known].version = document.version
            } else {
                table[document.path] = ordered.count
                ordered.append(document)
            }
        }
        self.documents = ordered
        positions = Positions(table)
    }

    init(dictionaryLiteral elements: (ResourcePath, ShippedVersion)...) {
        self.init(elements.map { (path: $0.0, version: $0.1) })
    }

    /// The version of `path` carried, if it is.
    subscript(path: ResourcePath) -> ShippedVersion? {
        positions.position(of: path).map { documents[$0].version }
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

extension ShippedDocuments {
    /// Each path's place in a list of documents in key order, each path once: a table given,
    /// or found from the list on the first look-up and kept.
    ///
    /// A reference shared by copies of one ``ShippedDocuments``, whose list never changes;
    /// `@unchecked Sendable`: a table found later is found and read under the lock.
    private final class Positions: @unchecked Sendable {
        /// The table, when it was given.
        private let given: [ResourcePath: Int]?
        private let documents: [Element]
        private let lock = NSLock()
        private var found: [ResourcePath: Int]?

        init(_ table: [ResourcePath: Int]) {
            given = table
            documents = []
        }

        init(foundIn documents: [Element]) {
            given = nil
            self.documents = documents
        }

        func position(of path: ResourcePath) -> Int? {
            if let given { return given[path] }
            return lock.withLock {
                if found == nil {
                    var table = [ResourcePath: Int](minimumCapacity: documents.count)
                    for (position, document) in documents.enumerated() { table[document.path] = position }
                    found = table
                }
                return found![path]
            }
        }
    }
}
