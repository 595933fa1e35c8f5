import JSONCore

/// The shapes of a Firestore REST export record (one NDJSON line, one array element, or a
/// whole single-value file).
enum RESTRecordKind: Sendable {
    /// A `Document`: `{"name", "fields"?, "createTime"?, "updateTime"?}`.
    case document
    /// A `runQuery` response element with a result: `{"document", "readTime", …}`.
    case runQueryResult
    /// A `runQuery` response element without a document (`readTime`, `done`, …): skipped.
    case runQueryProgress
    /// A `batchGet` response element for an existing document: `{"found", "readTime"}`.
    case batchGetFound
    /// A `batchGet` response element for a missing document: `{"missing", "readTime"}`; skipped.
    case batchGetMissing
    /// A `documents.list` page: `{"documents": […], "nextPageToken"?}`.
    case listPage

    static let documentKeys: Set<String> = ["name", "fields", "createTime", "updateTime"]
    static let runQueryKeys: Set<String> = ["document", "readTime", "transaction", "skippedResults", "done", "explainMetrics"]
    static let batchGetKeys: Set<String> = ["found", "missing", "readTime", "transaction"]
    static let listPageKeys: Set<String> = ["documents", "nextPageToken"]

    /// The kind of `object`, judged by its keys and their JSON types, or nil when it is none.
    init?(_ object: JSONObject) {
        if object["document"]?.objectValue != nil {
            self = .runQueryResult
        } else if object["found"]?.objectValue != nil {
            self = .batchGetFound
        } else if object["missing"]?.stringValue != nil {
            self = .batchGetMissing
        } else if object["documents"]?.arrayValue != nil {
            self = .listPage
        } else if object["name"]?.stringValue != nil, object.members.allSatisfy({ Self.documentKeys.contains($0.key) }) {
            self = .document
        } else if !object.isEmpty, object.members.allSatisfy({ Self.runQueryKeys.contains($0.key) }) {
            self = .runQueryProgress
        } else {
            return nil
        }
    }

    /// The keys a record of this kind may have.
    var allowedKeys: Set<String> {
        switch self {
        case .document: return Self.documentKeys
        case .runQueryResult, .runQueryProgress: return Self.runQueryKeys
        case .batchGetFound, .batchGetMissing: return Self.batchGetKeys
        case .listPage: return Self.listPageKeys
        }
    }

    /// How the record is called in messages.
    var displayName: String {
        switch self {
        case .document: return "a document"
        case .runQueryResult, .runQueryProgress: return "a runQuery response element"
        case .batchGetFound, .batchGetMissing: return "a batchGet response element"
        case .listPage: return "a documents.list page"
        }
    }
}
