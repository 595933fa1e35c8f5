import FirestoreModel
import JSONCore
import QueryEngine
import Yams

extension QueryConfigParser {
    /// `structured_query:` holds a StructuredQuery as in a bundle (YAML or JSON syntax);
    /// `parent:` a document path for subcollections; `limit_type: last` for limitToLast.
    func parseRaw(_ entry: ConfigMapping) throws(ConfigError) -> Query {
        let allowed: Set = ["structured_query", "parent", "limit_type"]
        if let extra = entry.entries.first(where: { !allowed.contains($0.key) }) {
            throw extra.keyNode.error("\(extra.key) cannot be combined with structured_query (only parent and limit_type can)")
        }
        let rawNode = entry["structured_query"]!
        var parent = ResourcePath.root
        if let parentNode = entry["parent"] {
            parent = try parentNode.resourcePath()
            guard parent.isDocument else { throw parentNode.error("parent must be a document path") }
        }
        var limitType = "FIRST"
        if let typeNode = entry["limit_type"] {
            limitType = try typeNode.string().uppercased()
            guard limitType == "FIRST" || limitType == "LAST" else {
                throw typeNode.error("limit_type must be first or last, found \"\(limitType.lowercased())\"")
            }
        }
        var writer = JSONWriter()
        writer.raw("{\"parent\":")
        writer.string(ResourceName(database: database, path: parent).description)
        writer.raw(",\"structuredQuery\":")
        try YAMLToJSON.write(rawNode, into: &writer)
        writer.raw(",\"limitType\":")
        writer.string(limitType)
        writer.byte(UInt8(ascii: "}"))
        do throws(JSONDecodingError) {
            return try BundledQuery(jsonBytes: writer.bytes).query
        } catch {
            throw rawNode.error("structured_query: \(error.message)")
        }
    }
}

/// Writes a YAML node as JSON, keeping YAML's scalar types (for `structured_query:`).
enum YAMLToJSON {
    static func write(_ node: ConfigNode, into writer: inout JSONWriter) throws(ConfigError) {
        switch node.node {
        case .scalar(let scalar):
            switch node.tagName {
            case .int:
                guard let value = Int64(scalar.string) else { throw node.error("\(scalar.string) is not a 64-bit integer") }
                writer.integer(value)
            case .float:
                guard let value = Double(scalar.string) else { throw node.error("\(scalar.string) is not a finite number") }
                writer.double(value)
            case .bool: writer.bool(scalar.string.lowercased() == "true")
            case .null: writer.null()
            default: writer.string(scalar.string)
            }
        case .sequence:
            writer.byte(UInt8(ascii: "["))
            for (index, item) in try node.sequence().enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                try write(item, into: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        case .mapping:
            writer.byte(UInt8(ascii: "{"))
            for (index, entry) in try node.namedEntries().enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.key(entry.name)
                try write(entry.value, into: &writer)
            }
            writer.byte(UInt8(ascii: "}"))
        case .alias:
            throw node.error("YAML aliases are not supported")
        }
    }
}
