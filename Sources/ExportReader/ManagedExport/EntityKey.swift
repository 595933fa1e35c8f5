import FirestoreModel

/// The key of a datastore v3 entity, or the target of a reference value: the Firestore
/// resource name it stands for.
///
/// A key (`Reference`) and a reference value (`PropertyValue.ReferenceValue`) hold the same
/// parts under different field numbers: `app` (the project, after a partition prefix such as
/// `e~`, `s~` or `dev~`), `name_space` (always empty in Firestore), path elements (`type` = the
/// collection ID, then a `name` or a numeric `id`) and `database_id` (empty for `(default)`).
/// Numeric IDs become `__id<N>__`, as Firestore names them.
enum EntityKey {
    /// The field numbers of one of the two shapes.
    private struct Layout {
        var app: Int
        var nameSpace: Int
        var databaseID: Int
        var element: Int
        var elementType: Int
        var elementID: Int
        var elementName: Int
        /// Whether the path elements are groups inside a `Path` message (a key) or groups
        /// directly in the reference value.
        var elementsInPathMessage: Bool
        var what: String
    }

    private static let reference = Layout(
        app: 13, nameSpace: 20, databaseID: 23, element: 1, elementType: 2, elementID: 3, elementName: 4,
        elementsInPathMessage: true, what: "an entity key")
    private static let referenceValue = Layout(
        app: 13, nameSpace: 20, databaseID: 23, element: 14, elementType: 15, elementID: 16, elementName: 17,
        elementsInPathMessage: false, what: "a reference value")

    /// The path element fields of a key's `Path` message.
    private static let pathField = 14

    /// Reads a `Reference` message (an entity's key) whose bytes `reader` covers.
    static func decodeKey(_ reader: inout ProtoReader, at offset: Int) throws(ProtoError) -> ResourceName {
        try decode(&reader, layout: reference, at: offset)
    }

    /// Reads a `ReferenceValue` group with `reader` positioned inside it.
    static func decodeReferenceValue(_ reader: inout ProtoReader, at offset: Int) throws(ProtoError) -> ResourceName {
        try decode(&reader, layout: referenceValue, at: offset)
    }

    private static func decode(_ reader: inout ProtoReader, layout: Layout, at offset: Int) throws(ProtoError) -> ResourceName {
        var app = "", database = "", segments: [String] = []
        while let tag = try reader.nextTag() {
            switch tag.field {
            case layout.app:
                app = try text(&reader, tag, "app")
            case layout.nameSpace:
                let nameSpace = try text(&reader, tag, "name_space")
                guard nameSpace.isEmpty else {
                    throw ProtoError(offset: tag.offset, "\(layout.what) in namespace \"\(nameSpace)\": Firestore has no namespaces (a Datastore-mode export?); expected the default namespace")
                }
            case layout.databaseID:
                database = try text(&reader, tag, "database_id")
            case pathField where layout.elementsInPathMessage:
                try ProtoReader.expect(tag, .lengthDelimited, "path")
                var path = try reader.readMessage()
                while let inner = try path.nextTag() {
                    guard inner.field == layout.element else { throw unknown(inner, in: "a key's path") }
                    segments += try element(&path, inner, layout: layout)
                }
            case layout.element where !layout.elementsInPathMessage:
                segments += try element(&reader, tag, layout: layout)
            default:
                throw unknown(tag, in: layout.what)
            }
        }
        guard !segments.isEmpty else {
            throw ProtoError(offset: offset, "\(layout.what) with no path elements; expected collection/document pairs")
        }
        guard let project = app.split(separator: "~", maxSplits: 1).last.map(String.init), !project.isEmpty else {
            throw ProtoError(offset: offset, "\(layout.what) with no app (project); expected e.g. \"e~my-project\"")
        }
        let databaseID = DatabaseID(project: project, database: database.isEmpty ? DatabaseID.defaultDatabase : database)
        return ResourceName(database: databaseID, path: ResourcePath(segments: segments))
    }

    /// One path element group: `[collection ID, document ID]`.
    private static func element(_ reader: inout ProtoReader, _ tag: ProtoReader.Tag, layout: Layout) throws(ProtoError) -> [String] {
        try ProtoReader.expect(tag, .startGroup, "a path element")
        return try reader.readGroup(tag.field) { group throws(ProtoError) in
            var type: String?, id: String?
            while let field = try group.nextTag() {
                switch field.field {
                case layout.elementType:
                    type = try text(&group, field, "a path element's type")
                case layout.elementID:
                    try ProtoReader.expect(field, .varint, "a path element's id")
                    guard id == nil else { throw ProtoError(offset: field.offset, "a path element with both a name and an id; expected one") }
                    id = "__id\(Int64(bitPattern: try group.readVarint()))__"
                case layout.elementName:
                    guard id == nil else { throw ProtoError(offset: field.offset, "a path element with both a name and an id; expected one") }
                    id = try text(&group, field, "a path element's name")
                default:
                    throw unknown(field, in: "a path element")
                }
            }
            guard let type, !type.isEmpty, !type.utf8.contains(UInt8(ascii: "/")) else {
                throw ProtoError(offset: tag.offset, "a path element without a valid type (collection ID); expected a non-empty name without '/'")
            }
            guard let id, !id.isEmpty, !id.utf8.contains(UInt8(ascii: "/")) else {
                throw ProtoError(offset: tag.offset, "path element \"\(type)\" has no valid name or id (an incomplete key, or a name with '/'); expected a document ID")
            }
            return [type, id]
        }
    }

    /// A length-delimited field read as UTF-8 text.
    static func text(_ reader: inout ProtoReader, _ tag: ProtoReader.Tag, _ what: String) throws(ProtoError) -> String {
        try ProtoReader.expect(tag, .lengthDelimited, what)
        guard let text = String(validating: try reader.readBytes(), as: UTF8.self) else {
            throw ProtoError(offset: tag.offset, "\(what) is not valid UTF-8")
        }
        return text
    }

    static func unknown(_ tag: ProtoReader.Tag, in what: String) -> ProtoError {
        ProtoError(offset: tag.offset, "unknown field \(tag.field) (wire type \(tag.wireType.rawValue)) in \(what)")
    }
}
