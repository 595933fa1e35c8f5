import JSONCore

/// The telltale signs of the JSON tree export families inside a JSON tree, found in one walk.
///
/// A *strong* marker belongs to one family only (`__collections__`, `subCollection`, a Buffer
/// JSON, a Firefoo `__time__` key, …). A *weak* one may appear inside another family's file:
/// the `{"_seconds", "_nanoseconds"}` objects of dalenguyen backups are also the `value` of
/// jloosli's tagged timestamps. Strong markers of several families make a file ambiguous.
struct FormatMarkers {
    struct Hit {
        var format: ExportFormat
        var evidence: String
        var offset: Int
        var isStrong: Bool
    }

    /// The first hit of each family, a strong one if there is any.
    private(set) var hits: [ExportFormat: Hit] = [:]

    /// Families in the order their hits are listed.
    static let families: [ExportFormat] = [.nodeFirestoreImportExport, .firestoreExportImport, .firefoo]
    private static let firefooKeys: Set<String> = ["__time__", "__ref__", "__lat__", "__lon__", "__bytes__", "__double__"]

    init(scanning node: JSONNode) {
        scan(node)
    }

    /// The families the tree may belong to: those with a strong marker, or else the first
    /// family with a weak one. Empty when there is no marker at all.
    var candidates: [Hit] {
        let found = Self.families.compactMap { hits[$0] }
        let strong = found.filter(\.isStrong)
        return strong.isEmpty ? Array(found.prefix(1)) : strong
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
        for member in object.members {
            switch member.key {
            case "__collections__", DatatypeTag.key:
                record(.nodeFirestoreImportExport, "found \"\(member.key)\"", member.keyOffset)
            case "subCollection":
                record(.firestoreExportImport, "found \"subCollection\"", member.keyOffset)
            case _ where Self.firefooKeys.contains(member.key):
                record(.firefoo, "found \"\(member.key)\"", member.keyOffset)
            default:
                break
            }
        }
        let keys = Set(object.keys)
        if keys == ["_seconds", "_nanoseconds"] {
            record(.firestoreExportImport, "found an untagged timestamp {\"_seconds\", \"_nanoseconds\"}", offset, isStrong: false)
        } else if keys == ["_latitude", "_longitude"] {
            record(.firestoreExportImport, "found an untagged geopoint {\"_latitude\", \"_longitude\"}", offset, isStrong: false)
        } else if keys == ["type", "data"], object["type"]?.stringValue == "Buffer", object["data"]?.arrayValue != nil {
            record(.firestoreExportImport, "found a Node Buffer {\"type\": \"Buffer\", \"data\": […]}", offset)
        } else if keys.isSuperset(of: ["_firestore", "_path"]) {
            record(.firestoreExportImport, "found a serialised DocumentReference {\"_firestore\", \"_path\", …}", offset)
        }
    }

    private mutating func record(_ format: ExportFormat, _ evidence: String, _ offset: Int, isStrong: Bool = true) {
        if hits[format].map({ !$0.isStrong && isStrong }) ?? true {
            hits[format] = Hit(format: format, evidence: evidence, offset: offset, isStrong: isStrong)
        }
    }
}
