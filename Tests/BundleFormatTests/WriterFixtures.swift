import BundleFormat
import FirestoreModel

/// Inputs shared by the writer tests.
enum WriterFixtures {
    static let database = DatabaseID(project: "demo")
    static let snapshot = try! Timestamp(rfc3339: "2024-05-01T12:00:00Z")
    static let created = try! Timestamp(rfc3339: "2024-01-01T00:00:00Z")
    static let updated = try! Timestamp(rfc3339: "2024-04-01T08:15:30.123456789Z")

    static let bigCitiesQuery = Array(#"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"cities"}],"where":{"fieldFilter":{"field":{"fieldPath":"pop"},"op":"GREATER_THAN","value":{"integerValue":100000}}},"orderBy":[{"field":{"fieldPath":"pop"},"direction":"DESCENDING"}],"limit":2},"limitType":"FIRST"}"#.utf8)
    static let lastQuery = Array(#"{"parent":"projects/demo/databases/(default)/documents","structuredQuery":{"from":[{"collectionId":"cities"}],"orderBy":[{"field":{"fieldPath":"name"},"direction":"ASCENDING"}],"limit":1},"limitType":"LAST"}"#.utf8)

    static func document(_ path: String, _ fields: [(String, Value)], created: Timestamp = created, updated: Timestamp = updated) -> Document {
        Document(path: try! ResourcePath(parsing: path), fields: MapValue(fields), createTime: created, updateTime: updated)
    }

    static let sf = document("cities/SF", [
        ("name", .string("San Francisco é✓😀")), ("pop", .integer(870_000)), ("ratio", .double(-0.0)),
        ("nan", .double(.nan)), ("when", .timestamp(try! Timestamp(seconds: 1, nanos: 5))),
        ("geo", .geoPoint(GeoPoint(latitude: 37.77, longitude: 0))), ("blob", .bytes([0, 1, 254, 255])),
        ("ref", .reference(ResourceName(database: database, path: try! ResourcePath(parsing: "cities/LA")))),
        ("list", .array([.integer(1), .null, .boolean(true)])), ("empty", .map(MapValue())),
    ])
    static let la = document("cities/LA", [("name", .string("Los Angeles")), ("pop", .integer(3_900_000))])
    static let bridge = document("cities/SF/landmarks/bridge", [])

    /// A writer holding two queries and three documents.
    static func sampleWriter() throws -> BundleWriter {
        var writer = try BundleWriter(id: "cities", snapshotTime: snapshot, database: database)
        try writer.addNamedQuery(name: "big-cities", bundledQuery: bigCitiesQuery)
        try writer.addNamedQuery(name: "last-city", bundledQuery: lastQuery)
        try writer.addDocument(sf, queries: ["last-city", "big-cities"])
        try writer.addDocument(la, queries: ["big-cities"])
        try writer.addDocument(bridge)
        return writer
    }
}
