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

/// Hints from (field path, kind) pairs.
func typeHints(_ pairs: [(String, TypeHints.Kind)]) -> TypeHints {
    var hints = TypeHints()
    for (path, kind) in pairs {
        try! hints.add(FieldPath(serverFormat: path), as: kind)
    }
    return hints
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
    expectDocuments(documents, Fixtures.canonical, count: count, sourceLocation: sourceLocation)
}

/// Checks that there are `count` documents (all of `expected` when nil), each equal to the
/// document of the same path in `expected`.
func expectDocuments(
    _ documents: [ExportedDocument], _ expected: [String: Document], count: Int? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(documents.count == count ?? expected.count, sourceLocation: sourceLocation)
    for exported in documents {
        let document = exported.document
        guard let expected = expected[document.path.description] else {
            Issue.record("unexpected document \(document.path)", sourceLocation: sourceLocation)
            continue
        }
        #expect(document.fields.fields.map(\.key) == expected.fields.fields.map(\.key), "\(document.path)", sourceLocation: sourceLocation)
        for (field, value) in zip(document.fields.fields, expected.fields.fields) {
            #expect(field.value == value.value, "\(document.path) \(field.key)", sourceLocation: sourceLocation)
            if case .integer(let a) = field.value, case .integer(let b) = value.value {
                #expect(a == b, sourceLocation: sourceLocation)
            }
        }
        #expect(document.createTime == expected.createTime, "\(document.path) createTime", sourceLocation: sourceLocation)
        #expect(document.updateTime == expected.updateTime, "\(document.path) updateTime", sourceLocation: sourceLocation)
    }
}

/// The canonical documents as a lossy format yields them: some of them, without their times,
/// with the format's losses written out one by one.
struct LossyDataset: Sendable {
    var documents: [String: Document]

    /// The canonical documents at `paths`; without their create and update times unless `keepTimes`.
    init(_ paths: [String], keepTimes: Bool = false) {
        documents = [:]
        for path in paths {
            var document = Fixtures.canonical[path]!
            if !keepTimes {
                document.createTime = nil
                document.updateTime = nil
            }
            documents[path] = document
        }
    }

    /// The dataset with the field at `field` (a dotted path) of document `path` set to
    /// `value`, or removed when `value` is nil.
    func changing(_ path: String, _ field: String, to value: Value?) -> LossyDataset {
        var copy = self
        let segments = field.split(separator: ".").map(String.init)
        copy.documents[path]!.fields = Self.setting(segments[...], to: value, in: documents[path]!.fields)
        return copy
    }

    /// The dataset with the times of document `path` replaced.
    func withTimes(_ path: String, create: String?, update: String?) -> LossyDataset {
        var copy = self
        copy.documents[path]!.createTime = create.map { try! Timestamp(rfc3339: $0) }
        copy.documents[path]!.updateTime = update.map { try! Timestamp(rfc3339: $0) }
        return copy
    }

    private static func setting(_ segments: ArraySlice<String>, to value: Value?, in map: MapValue) -> MapValue {
        var map = map
        guard let first = segments.first else { return map }
        if segments.count == 1 {
            map[first] = value
        } else if case .map(let inner)? = map[first] {
            map[first] = .map(setting(segments.dropFirst(), to: value, in: inner))
        }
        return map
    }
}
