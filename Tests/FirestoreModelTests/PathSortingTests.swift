import FirestoreModel
import Testing

@Suite struct PathSortingTests {
    /// Segments that order in every way the byte keys must get right: prefixes, NUL bytes (escaped
    /// in the key), bytes above ASCII, and empty-looking neighbours.
    static let segments = ["a", "ab", "a\u{0}", "a\u{0}b", "a\u{1}", "b", "é", "z", "\u{7F}", "日本", "a b", "0", "10", "9"]

    /// A deterministic mix of one- to four-segment paths over `segments`.
    static func paths(count: Int, numeric: Bool) -> [ResourcePath] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        let pool = numeric ? segments + ["__id7__", "__id-3__", "__id007__", "__id12__", "_x"] : segments
        return (0..<count).map { _ in ResourcePath(segments: (0..<(1 + next(4))).map { _ in pool[next(pool.count)] }) }
    }

    @Test(arguments: [false, true])
    func byteKeysOrderAsTheComparatorDoes(numeric: Bool) {
        let paths = Self.paths(count: 3000, numeric: numeric)
        let expected = paths.sorted { ResourcePath.compare($0, $1) == .less }
        let actual = paths.sorted(byPath: \.self)
        // Equal paths may come in either order; compare the orders, not identities.
        #expect(zip(actual, expected).allSatisfy { ResourcePath.compare($0, $1) == .equal })
        #expect(actual.count == expected.count)
    }

    @Test(arguments: [false, true])
    func sortingInPlaceGivesTheSortedOrderEqualPathsKeptInOrder(numeric: Bool) {
        // Each element carries its index, so that the order of equal paths shows.
        let items = Self.paths(count: 3000, numeric: numeric).enumerated().map { ($1, $0) }
        var sorted = items
        sorted.sort(byPath: \.0)
        #expect(sorted.map(\.1) == items.sorted(byPath: \.0).map(\.1))
        let stable = items.sorted { lhs, rhs in
            let order = ResourcePath.compare(lhs.0, rhs.0)
            return order == .less || (order == .equal && lhs.1 < rhs.1)
        }
        #expect(sorted.map(\.1) == stable.map(\.1))
        var empty: [(ResourcePath, Int)] = []
        empty.sort(byPath: \.0)
        #expect(empty.isEmpty)
    }

    /// Elements already in key order (equal paths among them) stay as they are; a pair swapped
    /// near the end is still found and sorted.
    @Test(arguments: [false, true])
    func elementsInOrderStayAndAPairSwappedNearTheEndIsFound(numeric: Bool) {
        let items = Self.paths(count: 3000, numeric: numeric).enumerated().map { ($1, $0) }.sorted(byPath: \.0)
        var again = items
        again.sort(byPath: \.0)
        #expect(again.map(\.1) == items.map(\.1) && items.sorted(byPath: \.0).map(\.1) == items.map(\.1))
        var swapped = items
        let last = swapped.indices.last!
        let first = swapped.lastIndex { ResourcePath.compare($0.0, swapped[last].0) == .less }!
        swapped.swapAt(first, last)
        swapped.sort(byPath: \.0)
        #expect(zip(swapped, items).allSatisfy { ResourcePath.compare($0.0, $1.0) == .equal })
    }

    @Test func carriesTheElementsAlong() {
        let items = [("c/b", 2), ("c/a", 1), ("c/a/s/x", 3), ("b/z", 0)].map { (try! ResourcePath(parsing: $0.0), $0.1) }
        #expect(items.sorted(byPath: \.0).map(\.1) == [0, 1, 3, 2])
        #expect([(ResourcePath, Int)]().sorted(byPath: \.0).isEmpty)
    }
}
