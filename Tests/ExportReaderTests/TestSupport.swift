import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import Testing

/// Fixture paths, temporary files and the canonical dataset, shared by the test suites.
enum Fixtures {
    static let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    static let demo = DatabaseID(project: "demo")

    static func path(_ relative: String) -> String {
        directory + "/" + relative
    }

    /// Writes `text` to a new temporary file named `name` and returns its path.
    static func temporaryFile(_ name: String, _ text: String) -> String {
        temporaryFile(name, bytes: Array(text.utf8))
    }

    /// One folder per test process for the temporary files, removed when the process exits.
    private static let temporaryRoot: URL = {
        atexit { try? FileManager.default.removeItem(at: Fixtures.temporaryRootURL(pid: getpid())) }
        return temporaryRootURL(pid: getpid())
    }()

    private static func temporaryRootURL(pid: Int32) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ExportReaderTests-\(pid)")
    }

    static func temporaryFile(_ name: String, bytes: [UInt8]) -> String {
        let directory = temporaryRoot.appendingPathComponent(UUID().uuidString)
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try! Data(bytes).write(to: url)
        return url.path
    }

    /// The lines of the canonical NDJSON file.
    static let canonicalLines: [String] = {
        let text = try! String(contentsOfFile: path("canonical/rest-documents.ndjson"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }()

    /// The canonical dataset by document path.
    static let canonical: [String: Document] = {
        let documents = try! ExportReader(target: demo).readAll(path("canonical/rest-documents.ndjson"))
        return Dictionary(uniqueKeysWithValues: documents.map { ($0.document.path.description, $0.document) })
    }()
}

/// The error `body` throws, or nil. (Closure literals do not infer typed throws yet, so the
/// body is untyped and anything but an `ExportError` is a test failure.)
func exportError(_ body: () throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ExportError? {
    do {
        try body()
        return nil
    } catch let error as ExportError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Checks that every document equals the canonical document of the same path: fields by
/// strict `==`, integers also bit for bit (strict `==` compares them as JS numbers), times.
func expectCanonical(_ documents: [ExportedDocument], count: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(documents.count == count, sourceLocation: sourceLocation)
    for exported in documents {
        let document = exported.document
        guard let expected = Fixtures.canonical[document.path.description] else {
            Issue.record("unexpected document \(document.path)", sourceLocation: sourceLocation)
            continue
        }
        #expect(document.fields.count == expected.fields.count, sourceLocation: sourceLocation)
        for (field, value) in zip(document.fields.fields, expected.fields.fields) {
            #expect(field.key == value.key, sourceLocation: sourceLocation)
            #expect(field.value == value.value, "\(document.path) \(field.key)", sourceLocation: sourceLocation)
            if case .integer(let a) = field.value, case .integer(let b) = value.value {
                #expect(a == b, sourceLocation: sourceLocation)
            }
        }
        #expect(document.createTime == expected.createTime, sourceLocation: sourceLocation)
        #expect(document.updateTime == expected.updateTime, sourceLocation: sourceLocation)
    }
}
