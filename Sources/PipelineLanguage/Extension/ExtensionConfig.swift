import FirestoreModel
import JSONCore

/// `extension:` in `pipeline.yml`: build the bundle specs of Firebase's
/// `firestore-bundle-builder` extension, read from the exports, as static bundles.
///
/// ```yaml
/// extension:
///   collection: bundles            # the extension's BUNDLESPEC_COLLECTION (default bundles)
///   params:
///     products-by-city:            # a spec document's id
///       city: [austin, berlin]     # the values to build it for
/// ```
///
/// Every spec document of `collection` becomes bundles once the inputs are read
/// (``PipelineConfig/expandingExtension(specDocuments:store:)``): one for a spec without
/// parameters, else one per combination of its parameters' values.
public struct ExtensionConfig: Sendable, Equatable {
    static let keys = ["collection", "params"]

    /// The collection holding the spec documents.
    public var collection: ResourcePath
    /// Per spec id, per parameter name, the values listed for it.
    public var listed: [String: [String: ListedValues]]
    /// Where `extension:` is in pipeline.yml.
    public var location: SourceLocation?

    /// The values listed for one parameter of one spec, with where they are.
    public struct ListedValues: Sendable, Equatable {
        public var values: [SpecParameterValue]
        public var location: SourceLocation?
    }

    /// Where `params.<specID>` is in pipeline.yml, for a spec id no spec document has.
    var specLocations: [String: SourceLocation?] = [:]

    /// Parses `extension:`.
    static func parse(_ node: ConfigNode) throws(ConfigError) -> ExtensionConfig {
        let entry = try node.mapping(allowed: keys)
        var collection = ResourcePath(segments: ["bundles"])
        if let collectionNode = entry["collection"] {
            collection = try collectionNode.resourcePath()
            guard collection.isCollection else {
                throw collectionNode.error("extension.collection \"\(collection)\" is not a collection path (it needs an odd number of segments, e.g. bundles)")
            }
        }
        var config = ExtensionConfig(collection: collection, listed: [:], location: node.location)
        for (specID, specKey, paramsNode) in try entry["params"]?.namedEntries() ?? [] {
            var parameters: [String: ListedValues] = [:]
            for (name, _, valuesNode) in try paramsNode.namedEntries() {
                parameters[name] = ListedValues(values: try parseValues(valuesNode), location: valuesNode.location)
            }
            config.listed[specID] = parameters
            config.specLocations[specID] = specKey.location
        }
        return config
    }

    /// A list of values (each a scalar, or a list of scalars for an array parameter), or one
    /// value standing for a list of one. Values are text, as the extension receives them in
    /// a URL's query string; the spec's parameter type converts them.
    private static func parseValues(_ node: ConfigNode) throws(ConfigError) -> [SpecParameterValue] {
        var values: [SpecParameterValue] = []
        for item in node.sequenceOrSingle() {
            let value: SpecParameterValue
            if case .sequence = item.node {
                value = .list(try item.sequence().map { element throws(ConfigError) in try scalarText(element) })
            } else {
                value = .text(try scalarText(item))
            }
            guard !values.contains(value) else { throw item.error("\(node.path) lists \(value) twice") }
            values.append(value)
        }
        guard !values.isEmpty else { throw node.error("\(node.path) must list at least one value") }
        return values
    }

    private static func scalarText(_ node: ConfigNode) throws(ConfigError) -> String {
        guard case .scalar(let scalar) = node.node, !node.isPlainScalar(tagged: .null) else {
            throw node.error("\(node.path): a parameter value is a string, number or boolean, found \(node.kindDescription)")
        }
        return scalar.string
    }
}

/// A parameter value as a URL carries it to the extension: one text, or several (an array
/// parameter, `?tags=a&tags=b`).
public enum SpecParameterValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case text(String)
    case list([String])

    /// `"austin"` or `["a", "b"]`, for messages.
    public var description: String {
        switch self {
        case .text(let text): return "\"\(text)\""
        case .list(let texts): return "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// The texts, one for a single value.
    public var texts: [String] {
        switch self {
        case .text(let text): return [text]
        case .list(let texts): return texts
        }
    }

    /// A JSON string or array of strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let texts = try? container.decode([String].self)
        self = try texts.map(Self.list) ?? .text(container.decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if case .text(let text) = self { try container.encode(text) } else { try container.encode(texts) }
    }
}
