import ExportReader
import FirestoreModel
import JSONCore
import Testing

@Suite("Nested export formats")
struct NestedFormatTests {
    let reader = ExportReader(target: Fixtures.demo)

    func read(_ text: String, _ format: ExportFormat) throws -> [ExportedDocument] {
        try reader.readAll(Fixtures.temporaryFile("export.json", text), format: format)
    }

    func error(_ text: String, _ format: ExportFormat) -> (path: String, message: String?) {
        let path = Fixtures.temporaryFile("export.json", text)
        return (path, exportError { _ = try reader.readAll(path, format: format) }?.description)
    }

    @Test func jlooseMissingParentsAreSkippedButEmptyDocumentsKept() throws {
        let documents = try read("""
            {"__collections__": {"users": {
              "u1": {"__collections__": {"posts": {"p1": {"t": 1, "__collections__": {}}}}},
              "u2": {"__collections__": {}}
            }}}
            """, .nodeFirestoreImportExport)
        #expect(documents.map(\.document.path.description) == ["users/u1/posts/p1", "users/u2"])
        #expect(documents[1].document.fields.isEmpty)
    }

    @Test func jlooseExportsOfOneCollectionOrDocumentHaveNoPath() {
        let collection = error(#"{"SF": {"name": "x", "__collections__": {}}}"#, .nodeFirestoreImportExport)
        #expect(collection.message == "\(collection.path):1:1: no \"__collections__\" at the top of the file: this is the export of one collection, "
            + "which does not record its path; export the database root (`firestore-export` without `--nodePath`)")
        let document = error(#"{"__collections__": {}, "name": "x"}"#, .nodeFirestoreImportExport)
        #expect(document.message?.hasPrefix("\(document.path):1:25: a field beside \"__collections__\" at the top of the file: this is the export of one document") == true)
    }

    @Test func jlooseTagVariants() throws {
        let documents = try read("""
            {"__collections__": {"c": {"d": {
              "iso": {"__datatype__": "timestamp", "value": "2024-05-01T12:34:56.123456789Z"},
              "old": {"__datatype__": "timestamp", "value": {"seconds": 1, "nanoseconds": 5}},
              "point": {"__datatype__": "geopoint", "value": {"latitude": 1.5, "longitude": 2}},
              "ref": {"__datatype__": "documentReference", "value": "users/lurie"},
              "plain": {"_seconds": 1, "_nanoseconds": 5}
            }}}}
            """, .nodeFirestoreImportExport)
        let fields = try #require(documents.first).document.fields
        #expect(fields["iso"] == .timestamp(try Timestamp(rfc3339: "2024-05-01T12:34:56.123456789Z")))
        #expect(fields["old"] == .timestamp(try Timestamp(seconds: 1, nanos: 5)))
        #expect(fields["point"] == .geoPoint(GeoPoint(latitude: 1.5, longitude: 2)))
        #expect(fields["ref"] == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["users", "lurie"]))))
        // jloosli tags every timestamp, so an untagged {_seconds, _nanoseconds} is a map.
        #expect(fields["plain"] == .map(MapValue([("_seconds", .integer(1)), ("_nanoseconds", .integer(5))])))
    }

    @Test func jlooseBadTags() {
        let unknown = error(#"{"__collections__": {"c": {"d": {"b": {"__datatype__": "bytes", "value": "aGk="}}}}}"#, .nodeFirestoreImportExport)
        #expect(unknown.message == "\(unknown.path):1:56: unknown __datatype__ \"bytes\"; expected one of \"timestamp\", \"geopoint\", \"documentReference\"")
        let extra = error(#"{"__collections__": {"c": {"d": {"t": {"__datatype__": "timestamp", "value": "2024-01-01T00:00:00Z", "x": 1}}}}}"#, .nodeFirestoreImportExport)
        #expect(extra.message == "\(extra.path):1:39: a value tagged with \"__datatype__\" must have exactly the keys \"__datatype__\" and \"value\"")
        let nanos = error(#"{"__collections__": {"c": {"d": {"t": {"__datatype__": "timestamp", "value": {"_seconds": 1, "_nanoseconds": 1000000000}}}}}}"#, .nodeFirestoreImportExport)
        #expect(nanos.message == "\(nanos.path):1:78: invalid timestamp: nanos must be in 0…999999999, got 1000000000")
    }

    @Test func dalenguyenCollectionPathsAndSubcollectionKeys() throws {
        let documents = try read("""
            {"a/b/c": {"d": {"n": 1, "subCollection": {"e": {"f": {}}, "a/b/c/d/g": {"h": {}}}}}}
            """, .firestoreExportImport)
        #expect(documents.map(\.document.path.description) == ["a/b/c/d", "a/b/c/d/e/f", "a/b/c/d/g/h"])
        #expect(documents[0].document.fields.count == 1)
    }

    @Test func dalenguyenStructureErrors() {
        let stranger = error(#"{"c": {"d": {"subCollection": {"x/y/z": {}}}}}"#, .firestoreExportImport)
        #expect(stranger.message == "\(stranger.path):1:32: subcollection of \"c/d\": \"x/y/z\" is not a collection directly below \"c/d\" "
            + "(expected \"c/d/<collection>\" or a collection ID)")
        let documentPath = error(#"{"c/d": {}}"#, .firestoreExportImport)
        #expect(documentPath.message == "\(documentPath.path):1:9: \"c/d\" is not a collection path (it needs an odd number of segments)")
        let notAnObject = error(#"{"c": {"d": 5}}"#, .firestoreExportImport)
        #expect(notAnObject.message == "\(notAnObject.path):1:13: document \"c/d\" must be an object of fields, found a number")
        let badID = error(#"{"c": {"": {}}}"#, .firestoreExportImport)
        #expect(badID.message == "\(badID.path):1:8: a document ID must be non-empty and without '/', found \"\" in collection \"c\"")
        let badByte = error(#"{"c": {"d": {"logo": {"type": "Buffer", "data": [1, 256]}}}}"#, .firestoreExportImport)
        #expect(badByte.message == "\(badByte.path):1:53: a byte must be an integer 0…255, found 256")
    }

    @Test func dalenguyenReferenceObjectsBelongToTheTarget() throws {
        // `_firestore.projectId` names the exporting project; documents carry none, so both
        // are read as the target's.
        let documents = try read("""
            {"c": {"d": {"r": {"_firestore": {"projectId": "elsewhere"}, "_path": {"segments": ["users", "u"]}, "_converter": {}}}}}
            """, .firestoreExportImport)
        #expect(try #require(documents.first).document.fields["r"]
            == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["users", "u"]))))
        let odd = error(#"{"c": {"d": {"r": {"_path": {"segments": ["users"]}}}}}"#, .firestoreExportImport)
        #expect(odd.message == "\(odd.path):1:43: the reference \"users\" does not name a document (it needs an even number of path segments)")
    }
}
