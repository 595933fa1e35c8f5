import FirestoreModel
import JSONCore

extension BundledQuery {
    /// Parses and reads the JSON of a bundled query; see ``init(json:)``.
    public init(jsonBytes: [UInt8]) throws(JSONDecodingError) {
        let node: JSONNode
        do throws(JSONSyntaxError) {
            node = try JSONParser.parse(jsonBytes)
        } catch {
            throw JSONDecodingError(offset: error.offset, message: error.message)
        }
        try self.init(json: node)
    }

    /// Reads `{"parent", "structuredQuery", "limitType"}` accepting what the JS client accepts:
    /// `limit` as a number or `{"value": n}`, unary and nested AND/OR filters, server-format
    /// field paths, a missing direction as ascending, unknown keys ignored. `offset` and
    /// `select` are kept in the model so ``QueryValidator`` can reject them.
    ///
    /// Stricter than JS where a client would fail or disagree: `from` must have exactly one
    /// entry, `parent` must contain `/documents`, `limitType` must be `FIRST` or `LAST`,
    /// `direction` must be `ASCENDING` or `DESCENDING`, and `__name__` filters need reference
    /// values.
    public init(json node: JSONNode) throws(JSONDecodingError) {
        guard let object = node.objectValue else {
            throw JSONDecodingError(offset: node.offset, message: "a bundled query must be an object {\"parent\", \"structuredQuery\", \"limitType\"}, found \(node.kindDescription)")
        }
        guard let parentNode = object["parent"], let parentText = parentNode.stringValue else {
            throw JSONDecodingError(offset: object["parent"]?.offset ?? node.offset, message: "bundledQuery.parent must be a string projects/{project}/databases/{database}/documents[/…], found \(object["parent"]?.kindDescription ?? "nothing")")
        }
        let parent: ResourceName
        do throws(PathError) {
            parent = try ResourceName(parsing: parentText)
        } catch {
            throw JSONDecodingError(offset: parentNode.offset, message: "bundledQuery.parent: \(error.message)")
        }
        guard parent.path.isEmpty || parent.path.isDocument else {
            throw JSONDecodingError(offset: parentNode.offset, message: "bundledQuery.parent \"\(parentText)\" names a collection; a query parent is the database's documents root or a document")
        }
        guard let structuredQuery = object["structuredQuery"] else {
            throw JSONDecodingError(offset: node.offset, message: "bundledQuery has no \"structuredQuery\"")
        }
        var query = try Query(structuredQuery: structuredQuery, parent: parent)
        if let limitTypeNode = object["limitType"] {
            guard let text = limitTypeNode.stringValue, let limitType = LimitType(rawValue: text) else {
                throw JSONDecodingError(offset: limitTypeNode.offset, message: "bundledQuery.limitType must be \"FIRST\" or \"LAST\", found \(limitTypeNode.stringValue.map { "\"\($0)\"" } ?? limitTypeNode.kindDescription) (Android and iOS fail on anything else)")
            }
            query.limitType = limitType
        }
        self.init(database: parent.database, query: query)
    }
}

extension Query {
    /// Reads StructuredQuery proto3 JSON (`{from, where, orderBy, startAt, endAt, limit, …}`) for
    /// a query whose parent is `parent`; relative reference values resolve against its database.
    /// The result has ``LimitType/first``.
    public init(structuredQuery node: JSONNode, parent: ResourceName) throws(JSONDecodingError) {
        self = try StructuredQueryDecoder(database: parent.database).decodeQuery(node, parent: parent.path)
    }
}
