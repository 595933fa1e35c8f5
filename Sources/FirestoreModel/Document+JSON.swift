import JSONCore

extension Document {
    /// Reads a Firestore REST `Document` (`{"name", "fields", "createTime", "updateTime"}`).
    ///
    /// `name` may be a full resource name or a path relative to `database`. The database the
    /// name belongs to is returned beside the document so a caller can re-root it.
    public static func decodeREST(
        _ node: JSONNode,
        relativeTo database: DatabaseID
    ) throws(JSONDecodingError) -> (database: DatabaseID, document: Document) {
        guard case .object(let object) = node.kind else {
            throw JSONDecodingError(offset: node.offset, message: "expected a Firestore document object {\"name\", \"fields\", …}, found \(node.kindDescription)")
        }
        try Value.rejectUnknownKeys(object, allowed: ["name", "fields", "createTime", "updateTime"], in: "a document", offset: node.offset)
        guard let nameNode = object["name"] else {
            throw JSONDecodingError(offset: node.offset, message: "a document needs a \"name\"")
        }
        guard let name = nameNode.stringValue else {
            throw JSONDecodingError(offset: nameNode.offset, message: "document name must be a string, found \(nameNode.kindDescription)")
        }
        let resource: ResourceName
        do throws(PathError) {
            resource = ResourceName.looksQualified(name)
                ? try ResourceName(parsing: name)
                : ResourceName(database: database, path: try ResourcePath(parsing: name))
        } catch {
            throw JSONDecodingError(offset: nameNode.offset, message: "document name: \(error.message)")
        }
        guard resource.path.isDocument else {
            throw JSONDecodingError(offset: nameNode.offset, message: "document name \"\(name)\" names a collection, not a document (it needs an even number of path segments)")
        }
        let fields = try object["fields"].map { n throws(JSONDecodingError) in try MapValue(protoJSONFields: n, relativeTo: resource.database) } ?? MapValue()
        let createTime = try object["createTime"].map { n throws(JSONDecodingError) in try Timestamp(protoJSON: n, field: "createTime") }
        let updateTime = try object["updateTime"].map { n throws(JSONDecodingError) in try Timestamp(protoJSON: n, field: "updateTime") }
        return (resource.database, Document(path: resource.path, fields: fields, createTime: createTime, updateTime: updateTime))
    }

    /// Writes the bundle `document` element body: `{"name","fields","createTime","updateTime"}`
    /// (bundle-format.md §10). Both times must be set.
    public func encodeBundleJSON(into writer: inout JSONWriter, database: DatabaseID) {
        encodeBundleJSON(into: &writer, name: { $0.string(ResourceName(database: database, path: path)) }, encodedFields: nil)
    }

    /// The same, with the document's resource name already written out as a JSON string
    /// literal, quotes included (a bundle writes it twice per document: in its metadata element
    /// and in the document).
    public func encodeBundleJSON(into writer: inout JSONWriter, quotedName: [UInt8]) {
        encodeBundleJSON(into: &writer, name: { $0.raw(bytes: quotedName) }, encodedFields: nil)
    }

    /// The same with the `fields` object already encoded (by ``MapValue/encodeFields(into:)``,
    /// perhaps in another process): `encodedFields` is copied as it is, in place of `fields`.
    public func encodeBundleJSON(into writer: inout JSONWriter, quotedName: [UInt8], encodedFields: [UInt8]) {
        encodeBundleJSON(into: &writer, name: { $0.raw(bytes: quotedName) }, encodedFields: encodedFields)
    }

    private func encodeBundleJSON(into writer: inout JSONWriter, name: (inout JSONWriter) -> Void, encodedFields: [UInt8]?) {
        precondition(createTime != nil && updateTime != nil, "document times are resolved before encoding")
        encodeRESTJSON(into: &writer, name: name, encodedFields: encodedFields)
    }

    /// Writes the document as a Firestore REST `Document` (what ``decodeREST(_:relativeTo:)``
    /// reads back losslessly): `{"name","fields"}`, then `createTime` and `updateTime` when set.
    public func encodeRESTJSON(into writer: inout JSONWriter, database: DatabaseID) {
        encodeRESTJSON(into: &writer, name: { $0.string(ResourceName(database: database, path: path)) }, encodedFields: nil)
    }

    /// `name` writes the document's resource name as a JSON string.
    private func encodeRESTJSON(into writer: inout JSONWriter, name: (inout JSONWriter) -> Void, encodedFields: [UInt8]?) {
        writer.raw("{\"name\":")
        name(&writer)
        writer.raw(",\"fields\":")
        if let encodedFields {
            writer.raw(bytes: encodedFields)
        } else {
            fields.encodeFields(into: &writer)
        }
        if let createTime {
            writer.raw(",\"createTime\":")
            writer.string(createTime.rfc3339)
        }
        if let updateTime {
            writer.raw(",\"updateTime\":")
            writer.string(updateTime.rfc3339)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}

extension ResourceName {
    /// The name as a JSON string literal, quotes included (``JSONCore/JSONWriter/string(_:)``
    /// of ``description``).
    public var quotedJSON: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128)
        writer.string(self)
        return writer.bytes
    }
}

extension JSONWriter {
    /// Appends `name` as ``string(_:)`` writes its ``ResourceName/description``, from its parts.
    public mutating func string(_ name: ResourceName) {
        // The database's documents root from its parts too (a reference in a document writes one).
        raw("\"projects/")
        escaped(name.database.project)
        raw("/databases/")
        escaped(name.database.database)
        raw("/documents")
        if !name.path.isEmpty {
            byte(UInt8(ascii: "/"))
            escaped(name.path)
        }
        byte(UInt8(ascii: "\""))
    }

    /// Appends `path`'s ``ResourcePath/description`` as ``escaped(_:)`` writes it, from its
    /// segments: no `String` of the whole path is built (a bundle and a site's state write one
    /// per document).
    public mutating func escaped(_ path: ResourcePath) {
        for (index, segment) in path.segments.enumerated() {
            if index > 0 { byte(UInt8(ascii: "/")) }
            escaped(segment)
        }
    }
}
