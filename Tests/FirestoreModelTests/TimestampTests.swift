import FirestoreModel
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2024-05-01T12:34:56.123456Z", "2024-05-01T12:34:56.123456000Z"),
        ("2024-05-01T12:34:56Z", "2024-05-01T12:34:56.000000000Z"),
        ("2024-01-01T01:00:00+01:00", "2024-01-01T00:00:00.000000000Z"),
        ("2024-01-01t00:30:00.5-02:30", "2024-01-01T03:00:00.500000000Z"),
        ("1969-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.999999999Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000000Z"),
        ("9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z"),
        ("2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000000000Z"),
    ])
    func parsesAndNormalisesToUTC(input: String, expected: String) throws {
        #expect(try Timestamp(rfc3339: input).rfc3339 == expected)
    }

    @Test(arguments: [
        "2024-05-01", "2024-05-01 12:00:00Z", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-01-01T24:00:00Z", "2024-01-01T00:00:00.1234567891Z", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00",
        "0000-12-31T23:59:59Z", "0001-01-01T00:00:00+01:00", "2024-01-01T00:00:00Zjunk",
    ])
    func rejectsMalformedOrOutOfRange(input: String) {
        #expect(throws: TimestampError.self) { try Timestamp(rfc3339: input) }
    }

    /// A timestamp of the canonical shape that parses is written back as the same bytes; the
    /// shape alone is no timestamp.
    @Test func theCanonicalShapeIsWrittenBackAsItIs() throws {
        let shaped = ["2024-05-01T12:34:56.123456789Z", "1969-12-31T23:59:59.999999999Z", "0001-01-01T00:00:00.000000000Z"]
        func parse(_ text: String) -> (shaped: Bool, parsed: Result<Timestamp, TimestampError>) {
            Array(text.utf8).withUnsafeBufferPointer { bytes in
                (Timestamp.hasCanonicalShape(bytes), Result { () throws(TimestampError) in try Timestamp(rfc3339: bytes) })
            }
        }
        for text in shaped {
            let (isShaped, parsed) = parse(text)
            #expect(isShaped)
            #expect(try parsed.get().rfc3339 == text)
        }
        for text in ["2024-02-30T00:00:00.000000000Z", "0000-01-01T00:00:00.000000000Z", "2024-01-01T24:00:00.000000000Z"] {
            let (isShaped, parsed) = parse(text)
            #expect(isShaped)
            #expect(throws: TimestampError.self) { try parsed.get() }
        }
        for text in ["2024-05-01t12:34:56.123456789Z", "2024-05-01T12:34:56.123456789z", "2024-05-01T12:34:56.12345678Z", "2024-05-01T12:34:56.123456789+00:00"] {
            #expect(!parse(text).shaped, "\(text)")
        }
    }

    @Test func ordersBySecondsThenNanos() throws {
        #expect(try Timestamp(seconds: -1, nanos: 999_999_999) < Timestamp(seconds: 0, nanos: 0))
        #expect(try Timestamp(seconds: 5, nanos: 1) > Timestamp(seconds: 5, nanos: 0))
        #expect(try !Timestamp(seconds: 0, nanos: 0).isPositive)
        #expect(try Timestamp(seconds: 0, nanos: 1).isPositive)
    }
}

@Suite struct Base64Tests {
    @Test func roundTripsAndAcceptsURLSafeUnpadded() {
        for length in 0..<10 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 97 + 250) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode([0x89, 0x50, 0x4E, 0x47]) == "iVBORw==")
        #expect(Base64.decode("AAH-_w") == [0x00, 0x01, 0xFE, 0xFF])
        #expect(Base64.decode("AAH+/w==") == [0x00, 0x01, 0xFE, 0xFF])
        #expect(Base64.decode("A") == nil)
        #expect(Base64.decode("AA=A") == nil)
        #expect(Base64.decode("A*==") == nil)
    }

    /// Canonical is what encoding writes: decoding and encoding again gives the text back.
    @Test func canonicalIsWhatEncodingWrites() {
        let canonical = ["", "AA==", "AAA=", "aGk+/w==", "iVBORw==", "AAECAwQF"]
        let other = ["AB==", "AAB=", "aGk+/x==", "aGk-_w==", "aGk+/w", "A", "AA=A", "A===", "====", "AA==AA==", "A*==", "aGk+/w=\n"]
        let isCanonical = { (text: String) in Array(text.utf8).withUnsafeBufferPointer(Base64.isCanonical) }
        for text in canonical { #expect(isCanonical(text), "\(text)") }
        for text in other { #expect(!isCanonical(text), "\(text)") }
        for text in canonical + other {
            #expect(isCanonical(text) == (Base64.decode(text).map(Base64.encode) == text), "\(text)")
        }
    }
}

@Suite struct PathTests {
    @Test func parsesResourceNames() throws {
        let name = try ResourceName(parsing: "projects/p/databases/(default)/documents/c/d/s/x")
        #expect(name.database == DatabaseID(project: "p"))
        #expect(name.path.segments == ["c", "d", "s", "x"])
        #expect(name.description == "projects/p/databases/(default)/documents/c/d/s/x")
        #expect(throws: PathError.self) { try ResourceName(parsing: "projects/p/databases/d/c/x") }
        #expect(throws: PathError.self) { try ResourceName(parsing: "projects/p/databases/d/documents/c//x") }
        #expect(throws: PathError.self) { try ResourcePath(parsing: "/c/x") }
    }

    @Test func fieldPathsUseServerFormat() throws {
        #expect(try FieldPath(serverFormat: "a.b").segments == ["a", "b"])
        #expect(try FieldPath(serverFormat: "`a.b`").segments == ["a.b"])
        #expect(try FieldPath(serverFormat: "arr.`0`").segments == ["arr", "0"])
        #expect(try FieldPath(serverFormat: "`we\\`ird`.x").segments == ["we`ird", "x"])
        #expect(FieldPath(segments: ["a.b", "0", "ok_1", "é", "back\\tick`"]).canonicalString == "`a.b`.`0`.ok_1.`é`.`back\\\\tick\\``")
        #expect(throws: PathError.self) { try FieldPath(serverFormat: "a..b") }
        #expect(throws: PathError.self) { try FieldPath(serverFormat: "`a") }
        #expect(FieldPath.documentKey.isDocumentKey)
    }
}
