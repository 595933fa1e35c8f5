import JSONCore

/// The first telltale sign of each unsupported JSON export family inside a JSON tree, found in
/// one walk (detection rule order: jloosli, then dalenguyen, then Firefoo).
struct FormatMarkers {
    struct Hit {
        var format: ExportFormat
        var evidence: String
        var offset: Int
    }

    private(set) var hits: [ExportFormat: Hit] = [:]

    static let priority: [ExportFormat] = [.nodeFirestoreImportExport, .firestoreExportImport, .firefoo]
    private static let firefooKeys: Set<String> = ["__time__", "__ref__", "__lat__", "__lon__", "__bytes__", "__double__"]

    init(scanning node: JSONNode) {
        scan(node)
    }

    /// The hit of the family that wins by rule order, if any.
    var strongest: Hit? {
        Self.priority.lazy.compactMap { hits[$0] }.first
    }

    private mutating func scan(_ node: JSONNode) {
        switch node.kind {
        case .array(let elements):
            for element in elements { scan(element) }
        case .object(let object):
            inspect(object, at: node.offset)
            for member in object.members { scan(member.value) }
        default:
            break
        }
    }

    private mutating func inspect(_ object: JSONObject, at offset: Int) {
        let keys = Set(object.keys)
        for member in object.members {
            switch member.key {
            case "__collections__", "__datatype__":
                record(.nodeFirestoreImportExport, "found \"\(member.key)\"", member.keyOffset)
            case "subCollection":
                record(.firestoreExportImport, "found \"subCollection\"", member.keyOffset)
            case _ where Self.firefooKeys.contains(member.key):
                record(.firefoo, "found \"\(member.key)\"", member.keyOffset)
            default:
                break
            }
        }
        if keys == ["_seconds", "_nanoseconds"] {
            record(.firestoreExportImport, "found an untagged timestamp {\"_seconds\", \"_nanoseconds\"}", offset)
        } else if keys == ["_latitude", "_longitude"] {
            record(.firestoreExportImport, "found an untagged geopoint {\"_latitude\", \"_longitude\"}", offset)
        } else if keys == ["type", "data"], object["type"]?.stringValue == "Buffer", object["data"]?.arrayValue != nil {
            record(.firestoreExportImport, "found a Node Buffer {\"type\": \"Buffer\", \"data\": […]}", offset)
        } else if keys.isSuperset(of: ["_firestore", "_path"]) {
            record(.firestoreExportImport, "found a serialised DocumentReference {\"_firestore\", \"_path\", …}", offset)
        }
    }

    private mutating func record(_ format: ExportFormat, _ evidence: String, _ offset: Int) {
        if hits[format] == nil {
            hits[format] = Hit(format: format, evidence: evidence, offset: offset)
        }
    }
}
