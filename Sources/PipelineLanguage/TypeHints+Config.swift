import ExportReader
import FirestoreModel

extension TypeHints {
    /// Reads an input's `hints:` mapping, kind → field paths:
    /// `{doubles: [density], timestamps: [updated], geopoints: [loc], references: [mayor], bytes: [logo]}`.
    ///
    /// - Parameter format: the input's `format:`; the typed REST formats take no hints.
    init(config node: ConfigNode, format: ExportFormat?) throws(ConfigError) {
        self.init()
        if let format, format.carriesTypes {
            let lossy = ExportFormat.allCases.filter { $0.isSupported && !$0.carriesTypes }.map(\.rawValue)
            throw node.error("hints do not apply to format \(format.rawValue), whose values carry their types; they are for \(lossy.joined(separator: ", "))")
        }
        let lists = try node.mapping(allowed: Kind.allCases.map(\.rawValue))
        for kind in Kind.allCases {
            for item in try lists[kind.rawValue]?.sequence() ?? [] {
                let text = try item.string()
                let path: FieldPath
                do throws(PathError) {
                    path = try FieldPath(serverFormat: text)
                } catch {
                    throw item.error("\(item.path): \(error.message)")
                }
                guard !path.isDocumentKey else {
                    throw item.error("\(item.path): __name__ is the document's name, not a field")
                }
                do throws(Overlap) {
                    try add(path, as: kind)
                } catch {
                    throw item.error("\(item.path): `\(path)` \(error)")
                }
            }
        }
    }
}
