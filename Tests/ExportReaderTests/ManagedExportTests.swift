import FirestoreModel
import Foundation
import JSONCore
import Testing

@testable import ExportReader

/// Managed (`gcloud firestore export`) and Emulator Suite exports, against the fixtures of
/// `scripts/make_managed_exports.py` (encoded with Google's own `EntityProto` encoder).
@Suite("Managed and emulator exports")
struct ManagedExportTests {
    static let fixtures = Fixtures.path("managed-export")
    static let exportTime = try! Timestamp(rfc3339: "2026-01-02T03:04:05.123456Z")

    /// (what the input names, the database the expected names are in, the expected NDJSON).
    static let exports: [(input: String, database: String, expected: String)] = [
        ("managed", "(default)", "managed.expected.ndjson"),
        ("managed/2026-01-02T03_04_05_12345.overall_export_metadata", "(default)", "managed.expected.ndjson"),
        ("emulator", "reviews", "emulator.expected.ndjson"),
        ("emulator/firebase-export-metadata.json", "reviews", "emulator.expected.ndjson"),
        ("emulator/firestore_export", "reviews", "emulator.expected.ndjson"),
    ]

    @Test(arguments: exports.indices)
    func convertEqualsTheExpectedRESTNDJSON(index: Int) throws {
        let (input, database, expectedFile) = Self.exports[index]
        let target = DatabaseID(project: "demo", database: database)
        var converter = ExportConverter(reader: ExportReader(target: target))
        try converter.add("\(Self.fixtures)/\(input)")
        let converted = Fixtures.temporaryFile("converted.ndjson", bytes: converter.restNDJSON())

        let reader = ExportReader(target: target)
        let actual = try reader.readAll(converted, format: .restNDJSON)
        let expected = try reader.readAll("\(Self.fixtures)/\(expectedFile)", format: .restNDJSON)
        #expect(actual.map(\.document.path) == expected.map(\.document.path), "sorted by name, numeric IDs first")
        expectDocuments(actual, Dictionary(uniqueKeysWithValues: expected.map { ($0.document.path.description, $0.document) }))
    }

    @Test(arguments: ["managed", "emulator"])
    func detectionAndExportTime(input: String) throws {
        let reader = ExportReader(target: Fixtures.demo)
        let path = "\(Self.fixtures)/\(input)"
        #expect(try reader.detectFormat(of: path) == .managedExport)
        let exportTime = try reader.read(path) { _ in }
        #expect(exportTime == Self.exportTime)
        #expect(try reader.open(path).exportTime == Self.exportTime)
    }

    /// An export folder reports the bytes of its data files read so far, up to their total.
    @Test(arguments: ["managed", "emulator"])
    func progressCountsTheDataFiles(input: String) throws {
        let reader = ExportReader(target: Fixtures.demo)
        let path = "\(Self.fixtures)/\(input)"
        let total = try reader.files(of: path).reduce(0) { $0 + (try FileManager.default.attributesOfItem(atPath: $1)[.size] as! Int) }
        var reports: [Int] = []
        try reader.read(path, progress: { reports.append($0) }) { _ in }
        #expect(!reports.isEmpty && reports == reports.sorted())
        #expect(reports.last == total)
    }

    @Test func everyTypeReadsExactly() throws {
        let documents = try ExportReader(target: Fixtures.demo).readAll("\(Self.fixtures)/managed")
        let byPath = Dictionary(uniqueKeysWithValues: documents.map { ($0.document.path.description, $0) })
        let sf = try #require(byPath["cities/SF"]).document.fields
        #expect(sf["founded"] == .timestamp(try Timestamp(rfc3339: "1776-07-04T00:00:00Z")))
        #expect(sf["justBeforeEpoch"] == .timestamp(try Timestamp(rfc3339: "1969-12-31T23:59:59.999999Z")))
        #expect(sf["mayor"] == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["users", "lurie"]))))
        #expect(sf["numbered"] == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["cities", "__id42__"]))))
        #expect(sf["empty"] == .array([]))
        #expect(sf["meta"] == .map(MapValue()))
        #expect(sf["logo"] == .bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF]))
        let numbers = try #require(byPath["numbers/edge"]).document.fields
        #expect(numbers["big"] == .integer(9_007_199_254_740_993))
        #expect(numbers["min"] == .integer(.min))
        guard case .double(let negativeZero)? = numbers["negzero"], case .double(let nan)? = numbers["nan"] else {
            Issue.record("expected doubles")
            return
        }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)
        #expect(nan.isNaN)
        #expect(numbers["ninf"] == .double(-.infinity))
        let spanning = try #require(byPath["big/spanning"])
        #expect(spanning.location == SourceLocation(file: "\(Self.fixtures)/managed/all_namespaces/all_kinds/output-1", byteOffset: 0))
        #expect(byPath["users/lurie/posts/__id7__"] != nil)
        #expect(byPath["filler/pad"] != nil, "the record before the block's zero filler")
        #expect(documents.allSatisfy { $0.sourceDatabase == DatabaseID(project: "demo-source") })
    }

    @Test func namedDatabaseIsReRooted() throws {
        let documents = try ExportReader(target: Fixtures.demo).readAll("\(Self.fixtures)/emulator")
        let sf = try #require(documents.first { $0.document.path.description == "cities/SF" })
        #expect(sf.sourceDatabase == DatabaseID(project: "demo-emulator", database: "reviews"))
        #expect(sf.document.fields["mayor"] == .reference(ResourceName(database: Fixtures.demo, path: ResourcePath(segments: ["users", "lurie"]))))
    }

    /// One case of `broken/errors.json`: the file and byte offset the error must name, and a
    /// piece of its message.
    struct BrokenCase: Decodable, Sendable, CustomTestStringConvertible {
        private enum CodingKeys: String, CodingKey { case file, offset, message }
        var name = ""
        var file: String
        var offset: Int?
        var message: String
        var testDescription: String { name }
    }

    static let brokenCases: [BrokenCase] = {
        let data = FileManager.default.contents(atPath: "\(fixtures)/broken/errors.json")!
        let cases = try! JSONDecoder().decode([String: BrokenCase].self, from: data)
        return cases.keys.sorted().map { name in
            var broken = cases[name]!
            broken.name = name
            return broken
        }
    }()

    @Test(arguments: brokenCases)
    func brokenExportsNameFileOffsetAndWhatWasExpected(broken: BrokenCase) {
        let folder = "\(Self.fixtures)/broken/\(broken.name)"
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).readAll(folder) }
        let description = error?.description ?? "no error"
        let place = "\(folder)/\(broken.file)" + (broken.offset.map { " at byte \($0):" } ?? ":")
        #expect(description.hasPrefix(place), "\(description)")
        #expect(description.contains(broken.message), "\(description)")
    }

    @Test func hintsDoNotApply() {
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).open("\(Self.fixtures)/managed", hints: typeHints([("x", .doubles)])) }
        #expect(error == .hintsNotApplicable(.managedExport, file: "\(Self.fixtures)/managed"))
    }

    @Test func aFolderWithoutAnExportIsAnError() {
        let folder = (Fixtures.temporaryFile("notes.txt", "hello") as NSString).deletingLastPathComponent
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).readAll(folder, format: .managedExport) }
        guard case .invalidExportFolder(let path, let message)? = error else {
            Issue.record("expected invalidExportFolder, got \(String(describing: error))")
            return
        }
        #expect(path == folder)
        #expect(message.contains("no all_namespaces/ folder"))
    }

    @Test func duplicateDocumentsInConvertNameBothPlaces() {
        var converter = ExportConverter(reader: ExportReader(target: Fixtures.demo))
        let error = exportError {
            try converter.add("\(Self.fixtures)/managed")
            try converter.add("\(Self.fixtures)/managed/2026-01-02T03_04_05_12345.overall_export_metadata")
        }
        guard case .duplicateDocument(_, let first, let second)? = error else {
            Issue.record("expected duplicateDocument, got \(String(describing: error))")
            return
        }
        #expect(first.byteOffset != nil && first == second)
    }

    @Test func crc32cCheckValueAndMask() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum(Array("6789".utf8), continuing: CRC32C.checksum(Array("12345".utf8))) == 0xE306_9283)
        #expect(CRC32C.mask(0) == 0xA282_EAD8)
    }

    @Test func implausibleExportTimesAreIgnored() throws {
        // An emulator of 2020 wrote 1587242711 where later ones write microseconds.
        let old = try KindExportMetadata(bytes: [0x0A, 0x08, 0x10, 0xD7, 0xCD, 0xED, 0xF4, 0x05, 0x18, 0x01, 0x12, 0x0A, 0x0A, 0x00, 0x12, 0x06] + Array("output".utf8))
        #expect(old.startTime == nil)
        #expect(old.outputFiles == ["output"])
    }
}

/// `ExportConverter` over every supported format: the NDJSON it writes reads back, as
/// `rest-ndjson`, to exactly the documents the input gave. (The ID-less import-only list of
/// firestore-export-import is rejected by every reader, so it has nothing to convert.)
@Suite("Converting any format to REST NDJSON")
struct ConversionTests {
    static let inputs: [(file: String, hints: TypeHints)] = [
        ("canonical/rest-documents.ndjson", TypeHints()),
        ("rest/runquery-response.json", TypeHints()),
        ("managed-export/emulator", TypeHints()),
    ] + DetectionTests.samples.filter { !$0.file.hasSuffix("import-array-autoid.json") }.map { ($0.file, typeHints([("density", .doubles)])) }

    @Test(arguments: inputs.indices)
    func convertedDocumentsReadBackUnchanged(index: Int) throws {
        let (file, hints) = Self.inputs[index]
        let reader = ExportReader(target: Fixtures.demo)
        let hinted = try reader.detectFormat(of: Fixtures.path(file)).carriesTypes ? TypeHints() : hints
        var converter = ExportConverter(reader: reader)
        try converter.add(Fixtures.path(file), hints: hinted)
        let original = try reader.readAll(Fixtures.path(file), hints: hinted)
        let converted = try reader.readAll(Fixtures.temporaryFile("converted.ndjson", bytes: converter.restNDJSON()), format: .restNDJSON)
        #expect(converted.map(\.document.path) == original.map(\.document.path).sorted { ResourcePath.compare($0, $1) == .less })
        expectDocuments(converted, Dictionary(original.map { ($0.document.path.description, $0.document) }) { _, last in last })
    }
}
