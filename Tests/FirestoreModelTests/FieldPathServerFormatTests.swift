import Testing
@testable import FirestoreModel

/// FieldPath parsing and order as firebase-js-sdk `model/path.ts` (@6f865964) does them.
@Suite("FieldPath server format and order")
struct FieldPathServerFormatTests {
    @Test func parsesEscapesLikeTheClients() throws {
        #expect(try FieldPath(serverFormat: "a.b").segments == ["a", "b"])
        #expect(try FieldPath(serverFormat: "`a.b`.c").segments == ["a.b", "c"])
        #expect(try FieldPath(serverFormat: #"a\.b"#).segments == ["a.b"])
        #expect(try FieldPath(serverFormat: #"`a\`b\\c`"#).segments == [#"a`b\c"#])
        #expect(throws: PathError.self) { try FieldPath(serverFormat: #"`a\b`"#) }
        #expect(throws: PathError.self) { try FieldPath(serverFormat: "``") }
        #expect(throws: PathError.self) { try FieldPath(serverFormat: "a..b") }
        #expect(throws: PathError.self) { try FieldPath(serverFormat: "`a") }
    }

    @Test func canonicalStringRoundTrips() throws {
        for segments in [["a", "b"], ["a.b", "é"], [#"x`y\z"#], ["0"]] {
            let path = FieldPath(segments: segments)
            #expect(try FieldPath(serverFormat: path.canonicalString) == path)
        }
    }

    @Test func ordersNumericIDSegmentsFirstLikeBasePath() {
        let numeric5 = FieldPath(segments: ["__id5__"])
        let numeric10 = FieldPath(segments: ["__id10__"])
        let plain = FieldPath(segments: ["A"])
        #expect(FieldPath.compare(numeric5, numeric10) == .less)
        #expect(FieldPath.compare(numeric10, plain) == .less)
        #expect(FieldPath.compare(FieldPath(segments: ["a"]), FieldPath(segments: ["a", "b"])) == .less)
        #expect(FieldPath(segments: ["__id05__"]) != numeric5)
    }
}
