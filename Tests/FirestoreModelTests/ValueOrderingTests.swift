import FirestoreModel
import Testing

@Suite struct ValueOrderingTests {
    let db = DatabaseID(project: "p")

    private func ref(_ path: String, database: DatabaseID? = nil) -> Value {
        .reference(ResourceName(database: database ?? db, path: try! ResourcePath(parsing: path)))
    }

    @Test func typeOrderIsFirestores() {
        let ascending: [Value] = [
            .null, .boolean(false), .boolean(true), .double(.nan), .double(-.infinity), .integer(-1), .double(0.5),
            .integer(1), .timestamp(try! Timestamp(seconds: 0, nanos: 1)), .string("a"), .bytes([0]), ref("c/a"),
            .geoPoint(GeoPoint(latitude: 0, longitude: 0)), .array([]),
            .map(MapValue([("__type__", .string("__vector__")), ("value", .array([.double(1)]))])),
            .map(MapValue()),
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect(Value.compare(a, b) == Ordering.of(i, j), "\(a) vs \(b)")
            }
        }
    }

    @Test func numbersCompareAcrossIntAndDoubleAsTheJSClientDoes() {
        #expect(Value.compare(.integer(1), .double(1.0)) == .equal)
        #expect(Value.compare(.double(-0.0), .integer(0)) == .equal)
        #expect(Value.compare(.double(.nan), .double(.nan)) == .equal)
        #expect(Value.compare(.double(.nan), .integer(Int64.min)) == .less)
        // The JS client turns int64 into a double: 2^53 + 1 equals 2^53 there.
        #expect(Value.compare(.integer(9_007_199_254_740_993), .integer(9_007_199_254_740_992)) == .equal)
    }

    @Test func stringsCompareByUTF8BytesWithoutNormalisation() {
        let ascending = ["", "B", "a", "aa", "z", "é", "\u{FFFD}", "😀"]
        for (a, b) in zip(ascending, ascending.dropFirst()) {
            #expect(Value.compare(.string(a), .string(b)) == .less, "\(a) < \(b)")
        }
        // Swift says NFC == NFD; Firestore does not.
        #expect("\u{E9}" == "e\u{301}")
        #expect(Value.compare(.string("\u{E9}"), .string("e\u{301}")) == .greater)
        #expect(Value.string("\u{E9}") != Value.string("e\u{301}"))
    }

    @Test func referencesCompareSegmentsInUTF16WithoutNumericIDs() {
        let other = DatabaseID(project: "p", database: "other")
        let ascending = [ref("c/B"), ref("c/__id10__"), ref("c/__id5__"), ref("c/a"), ref("c/a/s/x"), ref("c/aa"), ref("d/a"), ref("c/a", database: other)]
        for (a, b) in zip(ascending, ascending.dropFirst()) {
            #expect(Value.compare(a, b) == .less, "\(a) < \(b)")
        }
        // U+FFFD vs an astral character: UTF-16 order differs from UTF-8 order.
        #expect(Value.compare(ref("c/\u{FFFD}"), ref("c/😀")) == .greater)
    }

    @Test func documentKeysPutNumericIDsFirstInNumericOrder() {
        let ids = ["__id-3__", "__id5__", "__id10__", "B", "_x", "a", "z", "é"]
        for (a, b) in zip(ids, ids.dropFirst()) {
            let order = ResourcePath.compare(try! ResourcePath(parsing: "c/\(a)"), try! ResourcePath(parsing: "c/\(b)"))
            #expect(order == .less, "\(a) < \(b)")
        }
        #expect(ResourcePath.compare(try! ResourcePath(parsing: "c/a"), try! ResourcePath(parsing: "c/a/s/x")) == .less)
        #expect(ResourcePath.compare(try! ResourcePath(parsing: "c/__id007__"), try! ResourcePath(parsing: "c/__id7__")) == .equal)
    }

    @Test func arraysMapsVectorsAndBytes() {
        let arrays: [[Value]] = [[], [.integer(1), .integer(2), .integer(3)], [.integer(1), .integer(2), .integer(3), .integer(1)], [.integer(2)], [.string("a")]]
        for (a, b) in zip(arrays, arrays.dropFirst()) {
            #expect(Value.compare(.array(a), .array(b)) == .less)
        }
        func map(_ pairs: [(String, String)]) -> Value { .map(MapValue(pairs.map { ($0.0, Value.string($0.1)) })) }
        let maps = [map([]), map([("a", "aaa"), ("b", "baz")]), map([("a", "foo"), ("b", "bar")]), map([("a", "foo"), ("b", "bar"), ("c", "qux")]),
                    map([("a", "foo"), ("b", "baz")]), map([("b", "aaa"), ("c", "baz")]), map([("c", "aaa")])]
        for (a, b) in zip(maps, maps.dropFirst()) {
            #expect(Value.compare(a, b) == .less, "\(a) < \(b)")
        }
        func vector(_ values: [Double]) -> Value {
            .map(MapValue([("__type__", .string("__vector__")), ("value", .array(values.map(Value.double)))]))
        }
        #expect(Value.compare(vector([9]), vector([0, 9])) == .less)  // dimension first
        #expect(Value.compare(vector([0, 9]), vector([1, 1])) == .less)
        #expect(Value.compare(.array([.double(9)]), vector([])) == .less)
        let bytes: [[UInt8]] = [[], [0], [0, 0], [0x7F], [0x80], [0xFF]]
        for (a, b) in zip(bytes, bytes.dropFirst()) {
            #expect(Value.compare(.bytes(a), .bytes(b)) == .less)
        }
    }

    @Test func strictEqualityIsTypeExact() {
        #expect(Value.integer(1) != Value.double(1.0))
        #expect(Value.double(0.0) != Value.double(-0.0))
        #expect(Value.double(.nan) == Value.double(.nan))
        #expect(Value.array([.integer(1), .integer(2)]) != Value.array([.integer(1), .double(2)]))
        #expect(Value.compare(.array([.integer(1), .integer(2)]), .array([.integer(1), .double(2)])) == .equal)
        #expect(Set([Value.integer(1), .double(1), .double(.nan), .double(.nan)]).count == 3)
    }
}
