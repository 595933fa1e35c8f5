import ExportReader
import FirestoreModel
import Testing

@Suite("Re-rooting")
struct ReRootingTests {
    static let target = DatabaseID(project: "prod", database: "bundles")
    let reader = ExportReader(target: target)

    func reference(_ database: DatabaseID, _ path: String) -> Value {
        .reference(ResourceName(database: database, path: try! ResourcePath(parsing: path)))
    }

    @Test func namesAndSameDatabaseReferencesMoveToTheTarget() throws {
        let source = "projects/staging/databases/(default)/documents"
        let line = """
            {"name":"\(source)/cities/SF","fields":{"mayor":{"referenceValue":"\(source)/users/lurie"},\
            "list":{"arrayValue":{"values":[{"mapValue":{"fields":{"r":{"referenceValue":"\(source)/users/a"}}}}]}}}}
            """
        let documents = try reader.readAll(Fixtures.temporaryFile("one.ndjson", line + "\n" + line.replacingOccurrences(of: "cities/SF", with: "cities/LA")))
        let sf = try #require(documents.first)
        #expect(sf.document.path.description == "cities/SF")
        #expect(sf.sourceDatabase == DatabaseID(project: "staging"))
        #expect(sf.document.fields["mayor"] == reference(Self.target, "users/lurie"))
        #expect(sf.document.fields["list"] == .array([.map(MapValue([("r", reference(Self.target, "users/a"))]))]))
    }

    @Test func relativeNamesAndReferencesAreInTheTarget() throws {
        let path = Fixtures.temporaryFile("relative.json", """
            [{"name":"cities/SF","fields":{"mayor":{"referenceValue":"users/lurie"}}}]
            """)
        let document = try #require(try reader.readAll(path).first)
        #expect(document.document.path.description == "cities/SF")
        #expect(document.sourceDatabase == Self.target)
        #expect(document.document.fields["mayor"] == reference(Self.target, "users/lurie"))
    }

    @Test func relativeReferencesInAForeignDocumentFollowItToTheTarget() throws {
        let path = Fixtures.temporaryFile("r.json", """
            {"name":"projects/demo/databases/(default)/documents/cities/SF","fields":{"mayor":{"referenceValue":"users/lurie"}}}
            """)
        let document = try #require(try reader.readAll(path).first)
        #expect(document.document.fields["mayor"] == reference(Self.target, "users/lurie"))
    }

    @Test func referencesIntoAnotherDatabaseAreKept() throws {
        let other = DatabaseID(project: "elsewhere", database: "archive")
        let path = Fixtures.temporaryFile("foreign.json", """
            {"name":"projects/demo/databases/(default)/documents/cities/SF",
             "fields":{"old":{"referenceValue":"\(other.documentsRoot)/users/lurie"}}}
            """)
        let document = try #require(try reader.readAll(path).first)
        #expect(document.document.fields["old"] == reference(other, "users/lurie"))
    }

    @Test func theCanonicalSampleReRootedKeepsEveryValue() throws {
        let documents = try reader.readAll(Fixtures.path("canonical/rest-documents.ndjson"))
        let sf = try #require(documents.first { $0.document.id == "SF" })
        #expect(sf.document.fields["mayor"] == reference(Self.target, "users/lurie"))
        #expect(sf.document.fields["big"] == .integer(9_007_199_254_740_993))
    }
}
