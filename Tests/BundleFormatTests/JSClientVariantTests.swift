import BundleFormat
import FirestoreModel
import Testing

/// The js-client variant bundles (copied to Fixtures/variants): the strict reader's verdict next
/// to what the real JS SDK does (js-client README, "What the SDK does with odd bundles").
@Suite struct JSClientVariantTests {
    /// Loaded by every client; the reader accepts them (some with §10 warnings).
    @Test(arguments: [
        "ok-reference", "int-as-json-string", "int-as-json-number", "double-nan-string", "ts-field-rfc3339",
        "metadata-only", "bundle-version-2", "null-value-enum-string", "doc-id-unicode-and-space",
        "query-limit-plain-number", "missing-create-time", "project-mismatch", "database-mismatch",
    ])
    func accepted(name: String) throws {
        _ = try BundleReader.read(try FixtureLoader.bytes("variants", name))
    }

    @Test func acceptedVariantsWarnAboutDeviationsFromTheContract() throws {
        let version = try BundleReader.read(try FixtureLoader.bytes("variants", "bundle-version-2"))
        #expect(version.warnings.contains { $0.message.contains("metadata.version is 2") })
        let unicode = try BundleReader.read(try FixtureLoader.bytes("variants", "doc-id-unicode-and-space"))
        #expect(unicode.warnings.contains { $0.message.contains("non-ASCII") })
        let noCreate = try BundleReader.read(try FixtureLoader.bytes("variants", "missing-create-time"))
        #expect(noCreate.documents[0].document?.createTime == nil)
        #expect(noCreate.warnings.contains { $0.message.contains("createTime is missing") })
    }

    /// Rejected, with the code of the first (and here only) cause.
    @Test(arguments: [
        // JS loads these but another client fails, or clients are silently misled.
        ("total-bytes-too-small", BundleProblem.Code.totalBytesMismatch),
        ("total-bytes-too-large", .totalBytesMismatch),
        ("total-bytes-includes-metadata", .totalBytesMismatch),
        ("total-bytes-as-string", .wrongType),
        ("total-documents-wrong", .totalDocumentsMismatch),
        ("int-beyond-2p53", .invalidValue),
        ("int-not-a-number", .invalidValue),
        ("ts-field-seconds-nanos", .timestampForm),
        ("ts-field-seconds-nanos-numbers", .timestampForm),
        ("ts-field-rfc3339-offset", .invalidTimestamp),
        ("ts-field-rfc3339-lowercase-z", .invalidTimestamp),
        ("newline-before-length", .whitespaceInLengthPrefix),
        ("crlf-before-length", .whitespaceInLengthPrefix),
        ("unknown-element", .unknownElement),
        ("metadata-exists-missing-with-document", .missingField),
        ("document-name-not-in-metadata-order", .documentWithoutMetadata),
        ("deleted-document", .missingDocument),
        ("document-without-fields", .missingField),
        ("geopoint-zero-omitted", .invalidValue),
        ("doc-queries-unknown-name", .unknownQueryName),
        ("query-limit-wrapper-object", .unsupportedQuery),
        ("query-no-from", .unsupportedQuery),
        // JS fails too.
        ("project-mismatch-query-only", .databaseMismatch),
        ("ts-meta-rfc3339-offset", .invalidTimestamp),
        ("missing-read-time", .missingField),
        ("query-missing-read-time", .missingField),
        ("missing-update-time", .missingField),
        ("length-counts-utf16-units", .lengthMismatch),
        ("trailing-newline", .trailingBytes),
        ("truncated-last-element", .truncatedElement),
        ("document-without-metadata", .documentWithoutMetadata),
        ("exists-true-without-document", .metadataWithoutDocument),
        ("query-unknown-operator", .unsupportedQuery),
    ])
    func rejected(name: String, code: BundleProblem.Code) throws {
        let error = try #require(try FixtureLoader.verdict("variants", name))
        #expect(error.problems[0].code == code, "\(error)")
        #expect(error.problems.allSatisfy { $0.message.contains("JS") || $0.message.contains("Android") || $0.message.contains("iOS") || $0.message.contains("Python") })
    }

    @Test func foreignProjectIsRejectedForTheApp() throws {
        let bytes = try FixtureLoader.bytes("variants", "project-mismatch")
        #expect(throws: BundleReadError.self) { try BundleReader.read(bytes, database: DatabaseID(project: "demo")) }
        let database = try FixtureLoader.bytes("variants", "database-mismatch")
        do {
            _ = try BundleReader.read(database, database: DatabaseID(project: "demo"))
            Issue.record("accepted a bundle of another database")
        } catch {
            #expect(error.codes.allSatisfy { $0 == .databaseMismatch })
            #expect(error.problems[0].message.contains("other-db"))
        }
    }

    @Test func problemsCarryElementAndOffset() throws {
        let error = try #require(try FixtureLoader.verdict("variants", "length-counts-utf16-units"))
        let problem = error.problems[0]
        #expect(problem.elementIndex == 3)
        #expect(problem.offset == 520)
        #expect(problem.message.contains("UTF-16"))
        let trailing = try #require(try FixtureLoader.verdict("variants", "trailing-newline"))
        #expect(trailing.problems[0].elementIndex == nil && trailing.problems[0].offset == 720)
    }

    @Test func metadataNotFirst() throws {
        let error = try #require(try FixtureLoader.verdict("variants", "metadata-not-first"))
        #expect(error.problems[0].code == .metadataNotFirst && error.problems[0].elementIndex == 0)
    }
}
