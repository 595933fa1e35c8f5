import ExportReader
import FirestoreModel
import JSONCore
import Testing

@Suite("Type hints")
struct TypeHintTests {
    let reader = ExportReader(target: Fixtures.demo)

    /// The fields of the one document of a firestore-export-import backup holding `fields`.
    func fields(_ fields: String, hints: [(String, TypeHints.Kind)], target: DatabaseID = Fixtures.demo) throws -> MapValue {
        let path = Fixtures.temporaryFile("backup.json", "{\"c\": {\"d\": \(fields)}}")
        let documents = try ExportReader(target: target).readAll(path, format: .firestoreExportImport, hints: typeHints(hints))
        return try #require(documents.first).document.fields
    }

    func timestamp(_ text: String) -> Value {
        .timestamp(try! Timestamp(rfc3339: text))
    }

    @Test func overlappingPathsAreRejected() throws {
        var hints = TypeHints()
        try hints.add(FieldPath(serverFormat: "stats.ratio"), as: .doubles)
        for (path, kind) in [("stats", TypeHints.Kind.bytes), ("stats.ratio", .doubles), ("stats.ratio.x", .timestamps)] {
            let error = #expect(throws: TypeHints.Overlap.self) { try hints.add(FieldPath(serverFormat: path), as: kind) }
            #expect(error?.existing.path == (try FieldPath(serverFormat: "stats.ratio")))
            #expect(error?.description == "overlaps `stats.ratio`, already listed in doubles; a field gets one type")
        }
        try hints.add(FieldPath(serverFormat: "stats.rank"), as: .doubles)
        try hints.add(FieldPath(serverFormat: "`stats.ratio`"), as: .doubles)
        #expect(hints.entries.map(\.path.canonicalString) == ["stats.ratio", "stats.rank", "`stats.ratio`"])
    }

    @Test func arraysAreTransparent() throws {
        let fields = try fields("""
            {"scores": [1, 2.5, [3]], "events": [{"at": {"_seconds": 1, "_nanoseconds": 5}}, {"at": "2024-01-01T00:00:00+01:00"}, {"at": null}]}
            """, hints: [("scores", .doubles), ("events.at", .timestamps)])
        #expect(fields["scores"] == .array([.double(1), .double(2.5), .array([.double(3)])]))
        #expect(fields["events"] == .array([
            .map(MapValue([("at", .timestamp(try Timestamp(seconds: 1, nanos: 5)))])),
            .map(MapValue([("at", timestamp("2023-12-31T23:00:00Z"))])),
            .map(MapValue([("at", .null)])),
        ]))
    }

    @Test func referencesAreResolvedAgainstTheTargetDatabase() throws {
        let prod = DatabaseID(project: "prod", database: "site")
        let fields = try fields("""
            {"relative": "users/lurie", "full": "projects/other/databases/(default)/documents/users/x",
             "object": {"_path": {"segments": ["users", "y"]}}}
            """, hints: [("relative", .references), ("full", .references), ("object", .references)], target: prod)
        #expect(fields["relative"] == .reference(ResourceName(database: prod, path: ResourcePath(segments: ["users", "lurie"]))))
        #expect(fields["full"] == .reference(ResourceName(database: DatabaseID(project: "other"), path: ResourcePath(segments: ["users", "x"]))))
        #expect(fields["object"] == .reference(ResourceName(database: prod, path: ResourcePath(segments: ["users", "y"]))))
    }

    @Test func everyShapeOfBytesAndGeopoints() throws {
        let fields = try fields("""
            {"buffer": {"type": "Buffer", "data": [1, 2]}, "index": {"0": 3, "1": 4}, "base64": "iVBORw==", "empty": {},
             "point": {"latitude": 1.5, "longitude": -2}}
            """, hints: [("buffer", .bytes), ("index", .bytes), ("base64", .bytes), ("empty", .bytes), ("point", .geopoints)])
        #expect(fields["buffer"] == .bytes([1, 2]))
        #expect(fields["index"] == .bytes([3, 4]))
        #expect(fields["base64"] == .bytes([0x89, 0x50, 0x4E, 0x47]))
        #expect(fields["empty"] == .bytes([]))
        #expect(fields["point"] == .geoPoint(GeoPoint(latitude: 1.5, longitude: -2)))
    }

    @Test func aValueThatCannotBeConvertedIsReportedWhereItIs() {
        let path = Fixtures.temporaryFile("backup.json", """
            {"c": {
              "d": {"when": 42, "at": "soon", "loc": {"_seconds": 1, "_nanoseconds": 0}}
            }}
            """)
        func error(_ field: String, _ kind: TypeHints.Kind) -> String? {
            exportError { _ = try reader.readAll(path, hints: typeHints([(field, kind)])) }?.description
        }
        #expect(error("when", .timestamps) == "\(path):2:17: the `timestamps` hint `when` names this value, which cannot be read as a timestamp: "
            + "expected {\"_seconds\", \"_nanoseconds\"} or an RFC 3339 string, found the number 42")
        #expect(error("at", .timestamps)?.hasPrefix("\(path):2:27: the `timestamps` hint `at`: \"soon\" is not an RFC 3339 timestamp") == true)
        #expect(error("loc", .geopoints) == "\(path):2:42: the `geopoints` hint `loc` names this value, but it is a timestamp, not a geopoint")
        #expect(error("when", .references) == "\(path):2:17: the `references` hint `when` names this value, which cannot be read as a reference: "
            + "expected a document path such as \"users/lurie\", a full document name, or {\"_path\": {\"segments\": […]}}, found the number 42")
    }

    @Test func hintsDoNotApplyToTheTypedRESTFormats() {
        let hints = typeHints([("density", .doubles)])
        let ndjson = Fixtures.path("canonical/rest-documents.ndjson")
        #expect(exportError { _ = try reader.readAll(ndjson, hints: hints) } == .hintsNotApplicable(.restNDJSON, file: ndjson))
        let list = Fixtures.path("rest/documents-list-response.json")
        let error = exportError { _ = try reader.readAll(list, format: .rest, hints: hints) }
        #expect(error == .hintsNotApplicable(.rest, file: list))
        #expect(error?.description == "\(list): `hints:` were given, but the file is Firestore REST JSON, whose values carry their types; "
            + "remove `hints:` from this input (hints are for the formats that lose types)")
    }

    @Test func aHintOnAMissingFieldOrNullIsHarmless() throws {
        let fields = try fields(#"{"n": null}"#, hints: [("n", .timestamps), ("absent.deep", .doubles)])
        #expect(fields["n"] == .null)
        #expect(fields.count == 1)
    }
}
