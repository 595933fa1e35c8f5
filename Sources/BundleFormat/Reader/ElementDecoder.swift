import FirestoreModel
import JSONCore

/// Reads the body of each element kind strictly (bundle-format.md §3), logging every problem and
/// returning the model when the element is usable.
enum ElementDecoder {
    static func metadata(_ node: JSONNode, log: inout ProblemLog) -> BundleMetadata? {
        guard let object = requireObject(node, element: "metadata", log: &log) else { return nil }
        log.checkKeys(object, allowed: ["id", "createTime", "version", "totalDocuments", "totalBytes"], in: "metadata")
        var id: String?
        if let idNode = object["id"] {
            if let text = idNode.stringValue {
                if let reason = BundleID.problem(with: text) {
                    log.error(.invalidBundleID, at: idNode.offset, "metadata.id \"\(text)\" is unusable: \(reason); every client builds the path __bundle__/docs/<id> from it")
                } else {
                    id = text
                }
            } else {
                log.error(.wrongType, at: idNode.offset, "metadata.id must be a string, found \(idNode.kindDescription): Android and iOS require a string")
            }
        } else {
            log.error(.missingField, at: node.offset, "metadata.id is missing: Android and iOS require it and JS keys its bundle cache on it")
        }
        let createTime = StrictTimestamp.readPositive(object["createTime"], field: "metadata.createTime", requiredBy: "JS, Android and iOS", in: node, log: &log)
        let version = unsigned(object["version"], field: "metadata.version", maximum: UInt64(UInt32.max), in: node, log: &log)
        if let version, version != 1 {
            log.warn(once: "version", at: object["version"]!.offset, "metadata.version is \(version): no client checks it, but §10 writes 1")
        }
        let totalDocuments = unsigned(object["totalDocuments"], field: "metadata.totalDocuments", maximum: UInt64(UInt32.max), in: node, log: &log)
        let totalBytes = unsigned(object["totalBytes"], field: "metadata.totalBytes", maximum: UInt64.max, in: node, log: &log)
        guard let id, let createTime, let version, let totalDocuments, let totalBytes else { return nil }
        return BundleMetadata(id: id, createTime: createTime, version: UInt32(version), totalDocuments: UInt32(totalDocuments), totalBytes: totalBytes)
    }

    /// An unsigned JSON integer literal; Android requires every metadata count.
    private static func unsigned(_ node: JSONNode?, field: String, maximum: UInt64, in parent: JSONNode, log: inout ProblemLog) -> UInt64? {
        guard let node else {
            log.error(.missingField, at: parent.offset, "\(field) is missing: Android requires it (getInt/getLong)")
            return nil
        }
        guard let number = node.numberValue else {
            let detail = node.stringValue != nil ? "a string: JS copies it into LoadBundleTaskProgress, whose counts then become strings" : "\(node.kindDescription): Android and iOS fail to read it"
            log.error(.wrongType, at: node.offset, "\(field) must be a JSON integer, found \(detail)")
            return nil
        }
        guard number.isIntegerLiteral, let value = UInt64(number.literal), value <= maximum else {
            log.error(.wrongType, at: node.offset, "\(field) \(number.literal) is not an integer in 0…\(maximum): Android and iOS fail to read it")
            return nil
        }
        return value
    }

    /// The query's name when readable (so later references to it do not cascade into more
    /// errors), and the query when the whole element is valid.
    static func namedQuery(_ node: JSONNode, json: UnsafeBufferPointer<UInt8>, log: inout ProblemLog) -> (name: String?, query: NamedQuery?) {
        guard let object = requireObject(node, element: "namedQuery", log: &log) else { return (nil, nil) }
        log.checkKeys(object, allowed: ["name", "bundledQuery", "readTime"], in: "namedQuery")
        let name = requiredString(object["name"], field: "namedQuery.name", in: node, log: &log)
        let readTime = StrictTimestamp.readPositive(object["readTime"], field: "namedQuery.readTime", requiredBy: "JS, Android and iOS", in: node, log: &log)
        guard let queryNode = object["bundledQuery"] else {
            log.error(.missingField, at: node.offset, "namedQuery.bundledQuery is missing: JS, Android and iOS require it")
            return (name, nil)
        }
        let errorsBefore = log.errors.count
        BundledQueryCheck.check(queryNode, log: &log)
        guard let name, let readTime, log.errors.count == errorsBefore,
              let end = JSONSpan.scan(json, from: queryNode.offset).end
        else { return (name, nil) }
        let bytes = Array(json[queryNode.offset..<end])
        return (name, NamedQuery(name: name, bundledQuery: RawJSON(bytes: bytes, node: try? JSONParser.parse(bytes)), readTime: readTime))
    }

    /// What a `documentMetadata` element says, as far as it is readable.
    struct DocumentMetadataFields {
        /// The name, when readable; it is what pairs the metadata with its document.
        var name: ResourceName?
        /// `exists`, or nil when absent or not a boolean (already logged).
        var exists: Bool?
        /// The whole metadata, when every field is valid.
        var metadata: BundledDocumentMetadata?
    }

    static func documentMetadata(_ node: JSONNode, log: inout ProblemLog) -> DocumentMetadataFields {
        guard let object = requireObject(node, element: "documentMetadata", log: &log) else { return DocumentMetadataFields() }
        log.checkKeys(object, allowed: ["name", "readTime", "exists", "queries"], in: "documentMetadata")
        var fields = DocumentMetadataFields()
        fields.name = documentName(object["name"], field: "documentMetadata.name", in: node, log: &log)
        let readTime = StrictTimestamp.readPositive(object["readTime"], field: "documentMetadata.readTime", requiredBy: "JS, Android and iOS", in: node, log: &log)
        if let existsNode = object["exists"] {
            fields.exists = existsNode.boolValue
            if fields.exists == nil {
                log.error(.wrongType, at: existsNode.offset, "documentMetadata.exists must be a boolean, found \(existsNode.kindDescription): iOS and Python fail on it")
            }
        } else {
            log.error(.missingField, at: node.offset, "documentMetadata.exists is missing: JS, Android and iOS read it as false, so the document counts as missing (JS then stores a following document as deleted and counts it twice; Android and iOS reject a following document); write exists explicitly")
        }
        var queries: [String] = []
        if let queriesNode = object["queries"] {
            if let list = queriesNode.arrayValue, list.allSatisfy({ $0.stringValue != nil }) {
                queries = list.compactMap(\.stringValue)
            } else {
                log.error(.wrongType, at: queriesNode.offset, "documentMetadata.queries must be an array of strings: Android, iOS and Python fail on anything else")
            }
        }
        if let name = fields.name, let readTime, let exists = fields.exists {
            fields.metadata = BundledDocumentMetadata(name: name, readTime: readTime, exists: exists, queries: queries)
        }
        return fields
    }

    /// The document and its full name.
    static func document(_ node: JSONNode, log: inout ProblemLog) -> (name: ResourceName, document: Document)? {
        guard let object = requireObject(node, element: "document", log: &log) else { return nil }
        log.checkKeys(object, allowed: ["name", "fields", "createTime", "updateTime"], in: "document")
        let errorsBefore = log.errors.count
        let name = documentName(object["name"], field: "document.name", in: node, log: &log)
        let updateTime = StrictTimestamp.readPositive(object["updateTime"], field: "document.updateTime", requiredBy: "JS, Android and iOS", in: node, log: &log)
        var createTime: Timestamp?
        if let createNode = object["createTime"] {
            createTime = StrictTimestamp.readPositive(createNode, field: "document.createTime", requiredBy: "", in: node, log: &log)
        } else {
            log.warn(once: "createTime", at: node.offset, "document.createTime is missing: every client loads it (JS uses 0), but §10 always writes it")
        }
        guard let fieldsNode = object["fields"] else {
            log.error(.missingField, at: node.offset, "document.fields is missing: Android fails with \"No value for fields\"; write {} for an empty document")
            return nil
        }
        StrictValueCheck.checkFields(fieldsNode, context: "document.fields", log: &log)
        guard let name, let updateTime, log.errors.count == errorsBefore else { return nil }
        do {
            let fields = try MapValue(protoJSONFields: fieldsNode, relativeTo: name.database)
            return (name, Document(path: name.path, fields: fields, createTime: createTime, updateTime: updateTime))
        } catch {
            log.error(.invalidValue, at: error.offset, "document.fields: \(error.message)")
            return nil
        }
    }

    // MARK: - Shared field readers

    private static func requireObject(_ node: JSONNode, element: String, log: inout ProblemLog) -> JSONObject? {
        guard let object = node.objectValue else {
            log.error(.wrongType, at: node.offset, "\(element) must be an object, found \(node.kindDescription): every client fails to read it")
            return nil
        }
        return object
    }

    private static func requiredString(_ node: JSONNode?, field: String, in parent: JSONNode, log: inout ProblemLog) -> String? {
        guard let node else {
            log.error(.missingField, at: parent.offset, "\(field) is missing: JS, Android and iOS require it")
            return nil
        }
        guard let text = node.stringValue, !text.isEmpty else {
            log.error(.wrongType, at: node.offset, "\(field) must be a non-empty string, found \(node.kindDescription): JS, Android and iOS require it")
            return nil
        }
        return text
    }

    private static func documentName(_ node: JSONNode?, field: String, in parent: JSONNode, log: inout ProblemLog) -> ResourceName? {
        guard let text = requiredString(node, field: field, in: parent, log: &log), let node else { return nil }
        guard let name = try? ResourceName(parsing: text), name.path.isDocument else {
            log.error(.invalidName, at: node.offset, "\(field) \"\(text.prefix(100))\" is not projects/{p}/databases/{d}/documents/{col}/{doc}…: JS, Android and iOS fail to decode it")
            return nil
        }
        log.checkDatabase(of: name, at: node.offset, what: "\(field) \"\(text)\"")
        return name
    }
}
