import JSONCore
import Yams

/// A node of `pipeline.yml` that knows its file and position, with typed accessors whose
/// errors name the YAML line and say what was expected.
struct ConfigNode {
    let node: Node
    let file: String
    /// Where this node sits in the document, e.g. `bundles[1].queries.latest`, for messages.
    let path: String

    var location: SourceLocation? {
        node.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
    }

    func error(_ message: String) -> ConfigError {
        ConfigError(message, at: location)
    }

    /// What the node is, for "found …" in messages.
    var kindDescription: String {
        switch node {
        case .scalar(let scalar):
            return scalar.style == .plain || scalar.style == .any ? "\"\(scalar.string)\" (\(scalarKind))" : "a quoted string"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    private var scalarKind: String {
        switch tagName {
        case .int: return "an integer"
        case .float: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .timestamp: return "a timestamp"
        default: return "a string"
        }
    }

    /// True for an unquoted scalar YAML resolves to `tag`.
    func isPlainScalar(tagged tag: Tag.Name) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any else { return false }
        return tagName == tag
    }

    var scalar: Node.Scalar? { node.scalar }

    /// The resolved YAML tag (`tag:yaml.org,2002:int`, a custom `!ref`, …).
    var tagName: Tag.Name { Tag.Name(rawValue: node.tag.description) }

    func string() throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node, !isPlainScalar(tagged: .null) else {
            throw error("\(path) must be a string, found \(kindDescription)")
        }
        return scalar.string
    }

    func int(in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
        guard isPlainScalar(tagged: .int), let value = Int(node.scalar!.string) else {
            throw error("\(path) must be an integer, found \(kindDescription)")
        }
        if let range, !range.contains(value) {
            throw error("\(path) must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
        }
        return value
    }

    func bool() throws(ConfigError) -> Bool {
        guard isPlainScalar(tagged: .bool), let value = Bool(node.scalar!.string.lowercased()) else {
            throw error("\(path) must be true or false, found \(kindDescription)")
        }
        return value
    }

    func sequence() throws(ConfigError) -> [ConfigNode] {
        guard case .sequence(let sequence) = node else {
            throw error("\(path) must be a list, found \(kindDescription)")
        }
        return sequence.enumerated().map { ConfigNode(node: $1, file: file, path: "\(path)[\($0)]") }
    }

    /// A list, or a single item standing for a list of one.
    func sequenceOrSingle() -> [ConfigNode] {
        if case .sequence = node, let items = try? sequence() { return items }
        return [self]
    }

    /// The node as a mapping whose keys must all be in `allowed`.
    func mapping(allowed: [String]) throws(ConfigError) -> ConfigMapping {
        guard case .mapping(let mapping) = node else {
            throw error("\(path) must be a mapping, found \(kindDescription)")
        }
        var entries: [(key: String, keyNode: ConfigNode, value: ConfigNode)] = []
        for (keyNode, valueNode) in mapping {
            let key = ConfigNode(node: keyNode, file: file, path: path)
            guard case .scalar(let scalar) = keyNode else {
                throw key.error("keys in \(path) must be plain names, found \(key.kindDescription)")
            }
            guard allowed.contains(scalar.string) else {
                throw key.error("unknown key \"\(scalar.string)\" in \(path); expected one of: \(allowed.joined(separator: ", "))")
            }
            let childPath = path.isEmpty ? scalar.string : "\(path).\(scalar.string)"
            entries.append((scalar.string, key, ConfigNode(node: valueNode, file: file, path: childPath)))
        }
        return ConfigMapping(owner: self, entries: entries)
    }

    /// A mapping with arbitrary keys (e.g. named queries by name), in document order.
    func namedEntries() throws(ConfigError) -> [(name: String, keyNode: ConfigNode, value: ConfigNode)] {
        guard case .mapping(let mapping) = node else {
            throw error("\(path) must be a mapping of name → definition, found \(kindDescription)")
        }
        var entries: [(String, ConfigNode, ConfigNode)] = []
        for (keyNode, valueNode) in mapping {
            let key = ConfigNode(node: keyNode, file: file, path: path)
            guard case .scalar(let scalar) = keyNode else {
                throw key.error("names in \(path) must be plain strings, found \(key.kindDescription)")
            }
            entries.append((scalar.string, key, ConfigNode(node: valueNode, file: file, path: "\(path).\(scalar.string)")))
        }
        return entries
    }
}

/// The entries of a YAML mapping whose keys were checked against an allowed list.
struct ConfigMapping {
    let owner: ConfigNode
    let entries: [(key: String, keyNode: ConfigNode, value: ConfigNode)]

    subscript(key: String) -> ConfigNode? {
        entries.first { $0.key == key }?.value
    }

    func contains(_ key: String) -> Bool { self[key] != nil }

    func required(_ key: String) throws(ConfigError) -> ConfigNode {
        guard let value = self[key] else {
            throw owner.error("\(owner.path.isEmpty ? "the file" : owner.path) needs a \"\(key)\" key")
        }
        return value
    }
}
