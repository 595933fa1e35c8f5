import ExportReader
import FirestoreModel
import Testing

/// One sample of a lossy format: what it yields compared with the canonical dataset, with and
/// without hints. Losses are written out one by one (the sample README lists them).
struct LossySample: Sendable, CustomTestStringConvertible {
    var file: String
    var format: ExportFormat
    /// What the sample yields without hints.
    var plain: LossyDataset
    var hints: TypeHints
    /// What it yields with `hints`: only what no hint can restore is still lost.
    var hinted: LossyDataset

    var testDescription: String { file }
}

private let allPaths = ["cities/LA", "cities/SF", "cities/SF/landmarks/gg", "users/lurie"]
private let sf = "cities/SF"

/// What JSON from JavaScript cannot keep: 2^53+1 was rounded to a double before it was
/// written, and NaN was written as null. No hint brings these back.
private func unrecoverable(_ dataset: LossyDataset) -> LossyDataset {
    dataset
        .changing(sf, "big", to: .integer(9_007_199_254_740_992))
        .changing(sf, "stats.ratio", to: .null)
}

/// The PNG bytes of `logo` as a map of index → byte (a Buffer walked as an object).
private let logoIndexMap = Value.map(MapValue([("0", .integer(137)), ("1", .integer(80)), ("2", .integer(78)), ("3", .integer(71))]))

/// jloosli and backfire lose the same: 7.0 became `7`, the Buffer an index map; backfire's
/// lists and jloosli's tags keep timestamps, geopoints and references.
private func indexMapSample(_ file: String, _ format: ExportFormat) -> LossySample {
    LossySample(
        file: file,
        format: format,
        plain: unrecoverable(LossyDataset(allPaths))
            .changing(sf, "density", to: .integer(7))
            .changing(sf, "logo", to: logoIndexMap),
        hints: typeHints([("density", .doubles), ("logo", .bytes)]),
        hinted: unrecoverable(LossyDataset(allPaths)))
}

let lossySamples: [LossySample] = [
    indexMapSample("node-firestore-import-export/full-export.json", .nodeFirestoreImportExport),
    LossySample(
        file: "firestore-export-import/backup-with-refs-option.json",
        format: .firestoreExportImport,
        plain: unrecoverable(LossyDataset(allPaths))
            .changing(sf, "density", to: .integer(7))
            .changing(sf, "mayor", to: .string("users/lurie")),
        hints: typeHints([("density", .doubles), ("mayor", .references)]),
        hinted: unrecoverable(LossyDataset(allPaths))),
    LossySample(
        // Only SF and its landmark; the serialised DocumentReference is recognised as such.
        file: "firestore-export-import/backup-raw-ref-object.json",
        format: .firestoreExportImport,
        plain: unrecoverable(LossyDataset([sf, "cities/SF/landmarks/gg"]))
            .changing(sf, "density", to: .integer(7)),
        hints: typeHints([("density", .doubles)]),
        hinted: unrecoverable(LossyDataset([sf, "cities/SF/landmarks/gg"]))),
    indexMapSample("firestore-backfire/export.ndjson", .firestoreBackfire),
    LossySample(
        // The extension tracked `cities` only (NY was deleted); it removed bytes. Row
        // timestamps are the update times, the CREATE row's the create time (LA was created
        // in the log at its update time).
        file: "bigquery-export/raw_changelog.ndjson",
        format: .bigQueryChangelog,
        plain: unrecoverable(LossyDataset(["cities/LA", sf], keepTimes: true))
            .withTimes("cities/LA", create: "2024-03-01T00:00:00Z", update: "2024-03-01T00:00:00Z")
            .changing(sf, "logo", to: nil)
            .changing(sf, "density", to: .integer(7))
            .changing(sf, "mayor", to: .string("users/lurie")),
        hints: typeHints([("density", .doubles), ("mayor", .references)]),
        hinted: unrecoverable(LossyDataset(["cities/LA", sf], keepTimes: true))
            .withTimes("cities/LA", create: "2024-03-01T00:00:00Z", update: "2024-03-01T00:00:00Z")
            .changing(sf, "logo", to: nil)),
]

@Suite("Lossy export format samples")
struct LossyFormatSampleTests {
    @Test(arguments: lossySamples, [1, 7, ExportReader.defaultChunkSize])
    func yieldsTheCanonicalDocumentsMinusTheDocumentedLosses(sample: LossySample, chunkSize: Int) throws {
        let reader = ExportReader(target: Fixtures.demo, chunkSize: chunkSize)
        let path = Fixtures.path(sample.file)
        expectDocuments(try reader.readAll(path), sample.plain.documents)
        expectDocuments(try reader.readAll(path, format: sample.format), sample.plain.documents)
    }

    @Test(arguments: lossySamples)
    func hintsRestoreWhatTheJSONCannotTell(sample: LossySample) throws {
        let documents = try ExportReader(target: Fixtures.demo).readAll(Fixtures.path(sample.file), hints: sample.hints)
        expectDocuments(documents, sample.hinted.documents)
    }

    @Test func documentsAreInFileOrderAtTheirObjects() throws {
        let reader = ExportReader(target: Fixtures.demo)
        let jloosli = try reader.readAll(Fixtures.path("node-firestore-import-export/full-export.json"))
        #expect(jloosli.map(\.document.path.description) == ["cities/LA", "cities/SF", "cities/SF/landmarks/gg", "users/lurie"])
        #expect(jloosli.map { [$0.location.line, $0.location.column] } == [[4, 13], [16, 13], [64, 19], [74, 16]])
        #expect(jloosli.allSatisfy { $0.sourceDatabase == Fixtures.demo })
        let backfire = try reader.readAll(Fixtures.path("firestore-backfire/export.ndjson"))
        #expect(backfire.map { [$0.location.line, $0.location.column] } == [[1, 1], [2, 1], [3, 1], [4, 1]])
        let changelog = try reader.readAll(Fixtures.path("bigquery-export/raw_changelog.ndjson"))
        #expect(changelog.map(\.document.path.description) == ["cities/SF", "cities/LA"])
        #expect(changelog.map(\.location.line) == [2, 3])
    }

    @Test func theImportOnlyListFormHasNoDocumentIDs() {
        let path = Fixtures.path("firestore-export-import/import-array-autoid.json")
        let error = exportError { _ = try ExportReader(target: Fixtures.demo).readAll(path) }
        #expect(error?.description == "\(path):2:13: collection \"cities\" must be an object of document ID → document, found an array; "
            + "a list of documents has no IDs (the import-only list form of firestore-export-import), and a bundle needs them: key each document by its ID")
    }
}
