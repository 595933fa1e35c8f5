import ExportReader
import FirestoreModel
import JSONCore
import Testing

@Suite("firestore-backfire and BigQuery changelog NDJSON")
struct NDJSONFormatTests {
    let reader = ExportReader(target: Fixtures.demo, chunkSize: 7)

    func read(_ lines: [String], _ format: ExportFormat, hints: TypeHints = TypeHints()) throws -> [ExportedDocument] {
        try reader.readAll(Fixtures.temporaryFile("export.ndjson", lines.joined(separator: "\n") + "\n"), format: format, hints: hints)
    }

    func error(_ lines: [String], _ format: ExportFormat, hints: TypeHints = TypeHints()) -> (path: String, message: String?) {
        let path = Fixtures.temporaryFile("export.ndjson", lines.joined(separator: "\n") + "\n")
        return (path, exportError { _ = try reader.readAll(path, format: format, hints: hints) }?.description)
    }

    func timestamp(_ seconds: Int64) -> Value {
        .timestamp(try! Timestamp(seconds: seconds, nanos: 0))
    }

    // MARK: firestore-backfire

    @Test func backfireListsNameArrayElementsByIndexAndWinOverHints() throws {
        let documents = try read([
            #"{"path":"c/d","data":{"tags":[{"_seconds":1,"_nanoseconds":0},{"_seconds":2,"_nanoseconds":0}],"m":{"_seconds":3,"_nanoseconds":0}},"timestamps":["tags.1"]}"#,
            #"{"path":"c/e","data":{"t":{"_seconds":4,"_nanoseconds":0}},"timestamps":["t"]}"#,
        ], .firestoreBackfire, hints: typeHints([("t", .doubles)]))
        let unlisted = Value.map(MapValue([("_seconds", .integer(1)), ("_nanoseconds", .integer(0))]))
        #expect(documents[0].document.fields["tags"] == .array([unlisted, timestamp(2)]))
        #expect(documents[0].document.fields["m"] == .map(MapValue([("_seconds", .integer(3)), ("_nanoseconds", .integer(0))])))
        #expect(documents[1].document.fields["t"] == timestamp(4))
    }

    @Test func backfireRecordErrors() {
        let cases: [(line: String, column: Int, message: String)] = [
            (#"{"path":"c/d","data":[1]}"#, 22, "\"data\" must be an object of fields, found an array"),
            (#"{"path":"c/d","data":{},"queries":["q"]}"#, 25,
             "unknown key \"queries\" in a firestore-backfire record; expected \"data\", \"documents\", \"geopoints\", \"path\", \"timestamps\""),
            (#"{"path":"c","data":{}}"#, 9, "document path: \"c\" does not name a document (it needs an even number of path segments)"),
            (#"{"path":"c/d","data":{},"timestamps":[1]}"#, 39, "\"timestamps\" must hold field path strings, found a number"),
            (#"{"path":"c/d","data":{},"geopoints":"loc"}"#, 37, "\"geopoints\" must be a list of field paths, found a string"),
            (#"{"path":"c/d","data":{"t":"soon"},"timestamps":["t"]}"#, 27, "the record's \"timestamps\" entry \"t\": \"soon\" is not an RFC 3339 timestamp"),
            (#"{"name":"c/d"}"#, 1, "expected a firestore-backfire record {\"path\", \"data\", …}, found an object with keys \"name\""),
        ]
        for (line, column, message) in cases {
            let (path, description) = error([#"{"path":"c/a","data":{}}"#, line], .firestoreBackfire)
            #expect(description?.hasPrefix("\(path):2:\(column): \(message)") == true, "\(line): \(description ?? "no error")")
        }
    }

    // MARK: BigQuery changelog

    func row(_ time: String, _ document: String, _ operation: String, _ data: String?) -> String {
        let name = "projects/demo/databases/(default)/documents/\(document)"
        let dataJSON = data.map { "\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "null"
        return #"{"timestamp":"\#(time)","event_id":"e","document_name":"\#(name)","operation":"\#(operation)","data":\#(dataJSON),"document_id":"x"}"#
    }

    @Test func changelogKeepsTheNewestRowPerDocument() throws {
        let documents = try read([
            row("2024-01-02 00:00:00 UTC", "c/a", "UPDATE", #"{"v":2}"#),
            row("2024-01-01 00:00:00 UTC", "c/a", "CREATE", #"{"v":1}"#),  // older, read later
            row("2024-01-03 00:00:00 UTC", "c/b", "CREATE", #"{"v":1}"#),
            row("2024-01-03 00:00:00 UTC", "c/b", "UPDATE", #"{"v":2}"#),  // same time: the later row wins
            row("2024-01-04 00:00:00 UTC", "c/c", "DELETE", nil),
            row("2024-01-01 00:00:00 UTC", "c/c", "CREATE", #"{"v":1}"#),  // older than its DELETE
            row("2024-01-01 00:00:00 UTC", "c/d", "CREATE", #"{"v":1}"#),
            row("2024-01-02 00:00:00 UTC", "c/d", "DELETE", nil),
            row("2024-01-03T00:00:00.5Z", "c/d", "CREATE", #"{"v":3}"#),  // re-created; RFC 3339 accepted
            row("1970-01-01 00:00:00 UTC", "c/e", "IMPORT", #"{"v":1}"#),  // imports carry the epoch
        ], .bigQueryChangelog)
        #expect(documents.map(\.document.path.description) == ["c/a", "c/b", "c/d", "c/e"])
        #expect(documents.map { $0.document.fields["v"] } == [.integer(2), .integer(2), .integer(3), .integer(1)])
        let day: Int64 = 86_400
        let january1 = Int64(1_704_067_200)
        #expect(documents[0].document.createTime == (try Timestamp(seconds: january1, nanos: 0)))
        #expect(documents[0].document.updateTime == (try Timestamp(seconds: january1 + day, nanos: 0)))
        #expect(documents[1].document.createTime == (try Timestamp(seconds: january1 + 2 * day, nanos: 0)))
        #expect(documents[2].document.createTime == (try Timestamp(seconds: january1 + 2 * day, nanos: 500_000_000)))
        #expect(documents[2].document.updateTime == documents[2].document.createTime)
        #expect(documents[3].document.createTime == nil && documents[3].document.updateTime == nil)
        #expect(documents.map(\.location.line) == [1, 4, 9, 10])
    }

    @Test func changelogRowErrors() {
        let good = row("2024-01-01 00:00:00 UTC", "c/a", "CREATE", "{}")
        let cases: [(line: String, column: Int, message: String)] = [
            (good.replacingOccurrences(of: "2024-01-01 00:00:00 UTC", with: "yesterday"), 14,
             "timestamp \"yesterday\" is not a BigQuery TIMESTAMP; expected e.g. \"2024-05-01 12:34:56.123456 UTC\" or RFC 3339"),
            (good.replacingOccurrences(of: "CREATE", with: "MERGE"), 133, "operation must be one of CREATE, UPDATE, IMPORT, DELETE, found \"MERGE\""),
            (#"{"timestamp":"2024-01-01 00:00:00 UTC","operation":"CREATE","data":"{}"}"#, 1,
             "a raw changelog row needs \"document_name\"; found an object with keys \"timestamp\", \"operation\", \"data\""),
            (row("2024-01-01 00:00:00 UTC", "c/a", "UPDATE", nil), 1, "\"data\" is null or missing in a UPDATE row; only DELETE rows have no data"),
            (row("2024-01-01 00:00:00 UTC", "c", "CREATE", "{}"), 71, "document_name: \"projects/demo/databases/(default)/documents/c\" does not name a document"),
            (#"[1]"#, 1, "expected a raw changelog row {\"timestamp\", \"document_name\", \"operation\", \"data\", …}, found an array"),
        ]
        for (line, column, message) in cases {
            let (path, description) = error([good, line], .bigQueryChangelog)
            #expect(description?.hasPrefix("\(path):2:\(column): \(message)") == true, "\(line): \(description ?? "no error")")
        }
    }

    @Test func changelogDataErrorsNameTheirPlaceInTheDataText() {
        let invalid = error([row("2024-01-01 00:00:00 UTC", "c/a", "CREATE", #"{"v":}"#)], .bigQueryChangelog)
        #expect(invalid.message == "\(invalid.path):1:149: in the \"data\" JSON text at 1:6: invalid JSON: unexpected '}'; expected a JSON value")
        let hinted = error([row("2024-01-01 00:00:00 UTC", "c/a", "CREATE", #"{"v": 5}"#)], .bigQueryChangelog, hints: typeHints([("v", .references)]))
        #expect(hinted.message?.hasPrefix("\(hinted.path):1:149: in the \"data\" JSON text at 1:7: the `references` hint `v` names this value") == true)
        let notAnObject = error([row("2024-01-01 00:00:00 UTC", "c/a", "CREATE", "[]")], .bigQueryChangelog)
        #expect(notAnObject.message == "\(notAnObject.path):1:149: in the \"data\" JSON text at 1:1: expected an object of fields, found an array")
    }
}
