import FirestoreModel

/// Typed field paths as a tree that is walked alongside a document's JSON: the hints of an
/// input, or the typed-field lists of one firestore-backfire record.
struct TypedFieldTree: Sendable {
    /// How the elements of an array are addressed below a node.
    enum ArrayAddressing: Sendable {
        /// An element sits at its array's node: a hint on `scores` covers every element.
        case transparent
        /// An element is the child named by its index (`tags.0`), as backfire lists them.
        case byIndex
    }

    /// The type a path was given, and who gave it (for messages: "the `timestamps` hint `updated`").
    struct Typed: Sendable {
        var kind: TypeHints.Kind
        var origin: String
    }

    private(set) var typed: Typed?
    private var children: [(key: String, tree: TypedFieldTree)] = []
    private let addressing: ArrayAddressing

    init(addressing: ArrayAddressing) {
        self.addressing = addressing
    }

    /// The tree of an input's hints, or nil when there are none.
    init?(hints: TypeHints) {
        guard !hints.isEmpty else { return nil }
        self.init(addressing: .transparent)
        for entry in hints.entries {
            insert(entry.path.segments[...], Typed(kind: entry.kind, origin: "the `\(entry.kind.rawValue)` hint `\(entry.path)`"))
        }
    }

    /// Types the path `segments` (a later type for the same path replaces an earlier one).
    mutating func insert(_ segments: ArraySlice<String>, _ typed: Typed) {
        guard let first = segments.first else {
            self.typed = typed
            return
        }
        if let index = children.firstIndex(where: { UTF8Order.equal($0.key, first) }) {
            children[index].tree.insert(segments.dropFirst(), typed)
        } else {
            var child = TypedFieldTree(addressing: addressing)
            child.insert(segments.dropFirst(), typed)
            children.append((first, child))
        }
    }

    /// The node of the map member `key` (byte-exact).
    func child(_ key: String) -> TypedFieldTree? {
        children.first { UTF8Order.equal($0.key, key) }?.tree
    }

    /// The node of element `index` of an array at this node.
    func element(_ index: Int) -> TypedFieldTree? {
        switch addressing {
        case .transparent: return self
        case .byIndex: return child(String(index))
        }
    }
}

/// Where a walk over a document's JSON stands in its typed-field trees: the record's own lists
/// (backfire) and the input's hints. The record's lists win: they are what the exporter knew.
struct TypeCursor: Sendable {
    var record: TypedFieldTree?
    var hints: TypedFieldTree?

    /// The type given to the value at this position, if any.
    var typed: TypedFieldTree.Typed? { record?.typed ?? hints?.typed }

    var isEmpty: Bool { record == nil && hints == nil }

    func child(_ key: String) -> TypeCursor {
        isEmpty ? self : TypeCursor(record: record?.child(key), hints: hints?.child(key))
    }

    func element(_ index: Int) -> TypeCursor {
        isEmpty ? self : TypeCursor(record: record?.element(index), hints: hints?.element(index))
    }
}
