// The generic functions are inlinable, so that each caller gets them specialised for its elements
// (a generic function called from another module runs through witness tables, copying every
// element it reads); the work on the paths themselves is not generic.

extension Collection {
    /// The elements sorted by `path(element)` in document-key order (``ResourcePath/compare(_:_:)``),
    /// equal paths in their order here.
    @inlinable
    public func sorted(byPath path: (Element) -> ResourcePath) -> [Element] {
        let elements = Array(self)
        guard let order = elements.pathOrder(path) else { return elements }
        return order.map { elements[$0] }
    }
}

extension Array {
    /// Sorts the elements in place by `path(element)` in document-key order, as
    /// ``Swift/Collection/sorted(byPath:)`` orders them, without a second copy of the elements.
    @inlinable
    public mutating func sort(byPath path: (Element) -> ResourcePath) {
        guard var order = pathOrder(path) else { return }
        // Position i takes the element at order[i]: each cycle of the permutation is followed once,
        // by swaps, and its positions marked done (order[i] == i). Swapped in the buffer, which
        // moves the elements (`Array`'s own `swapAt` copies them, retaining what each holds).
        withUnsafeMutableBufferPointer { elements in
            for start in order.indices where order[start] != start {
                var position = start
                while order[position] != start {
                    let next = order[position]
                    elements.swapAt(position, next)
                    order[position] = position
                    position = next
                }
                order[position] = position
            }
        }
    }

    /// The indices of the elements in document-key order of `path(element)` (stable); nil when
    /// they are in that order already, found in one pass.
    @inlinable
    func pathOrder(_ path: (Element) -> ResourcePath) -> [Int]? {
        // Elements often come in key order already (a query's results, a plan's entries): one
        // pass of comparisons, which stops at the first pair out of order, finds that out.
        if indices.dropFirst().allSatisfy({ ResourcePath.compare(path(self[$0 - 1]), path(self[$0])) != .greater }) { return nil }
        return ResourcePath.keyOrder(of: map(path))
    }
}

extension ResourcePath {
    /// The indices of `paths` in document-key order (stable).
    ///
    /// Comparing paths segment by segment, as `String`s, costs several times more than comparing
    /// bytes, which tells on sets of a hundred thousand documents. So unless a segment may be a
    /// numeric id (`__id…__`, ordered by value: then the paths are compared as they are), each
    /// path becomes a byte key once, whose unsigned lexicographic order is the key order: every
    /// segment's UTF-8 bytes (a 0x00 byte escaped as 0x00 0x01), followed by 0x00 0x00.
    @usableFromInline
    static func keyOrder(of paths: [ResourcePath]) -> [Int] {
        var order = [Int](paths.indices)
        guard !paths.contains(where: { $0.segments.contains(where: NumericID.mayBeNumeric) }) else {
            order.sort { ResourcePath.compare(paths[$0], paths[$1]) == .less }
            return order
        }
        var keys: [UInt8] = []
        keys.reserveCapacity(paths.count * 64)
        var ends: [Int] = []
        ends.reserveCapacity(paths.count)
        for path in paths {
            for segment in path.segments {
                let utf8 = segment.utf8
                if utf8.contains(0) {
                    for byte in utf8 {
                        keys.append(byte)
                        if byte == 0 { keys.append(1) }
                    }
                } else {
                    keys.append(contentsOf: utf8)
                }
                keys.append(0)
                keys.append(0)
            }
            ends.append(keys.count)
        }
        keys.withUnsafeBufferPointer { keys in
            func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: keys[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
            }
            order.sort { UTF8Order.compare(bytes: key($0), key($1)) == .less }
        }
        return order
    }
}
