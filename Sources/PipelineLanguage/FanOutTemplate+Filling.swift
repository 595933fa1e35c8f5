import Yams

extension FanOutTemplate {
    /// `node` with the placeholder replaced by `value` in every scalar, keeping each node's
    /// position so errors in a filled-in bundle point at the template.
    ///
    /// A quoted or plain scalar that is exactly the placeholder (and not a mapping key) becomes
    /// the value with its type: a string stays a string, an integer an integer. In any other
    /// scalar, tagged ones (`!ref authors/{id}`) and keys included, the value's text is spliced
    /// in and the scalar keeps its tag. Any other `{name}` is an error.
    func fill(_ node: Node, with value: FanOutValue, isKey: Bool) throws(ConfigError) -> Node {
        switch node {
        case .scalar(let scalar):
            let located = ConfigNode(node: node, file: body.file, path: body.path)
            let text: PlaceholderText
            do throws(PlaceholderSyntaxError) {
                text = try PlaceholderText(parsing: scalar.string)
            } catch {
                throw located.error("in \"\(scalar.string)\": \(error.message)")
            }
            if let unknown = text.placeholders.first(where: { $0 != fanOut.placeholder }) {
                throw located.error("unknown placeholder {\(unknown)}; this bundle's for_each names its values {\(fanOut.placeholder)}")
            }
            let tag = located.tagName
            if !isKey, text.solePlaceholder != nil, tag == .str {
                return Self.node(for: value, at: scalar.mark)
            }
            if text.parts == [.text(scalar.string)] { return node }
            return .scalar(Node.Scalar(text.filled(with: value.text), Tag(tag), scalar.style, scalar.mark))
        case .mapping(let mapping):
            try checkNotUnquotedPlaceholder(mapping)
            var pairs: [(Node, Node)] = []
            for (key, item) in mapping {
                pairs.append((try fill(key, with: value, isKey: true), try fill(item, with: value, isKey: false)))
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            var items: [Node] = []
            for item in sequence {
                items.append(try fill(item, with: value, isKey: false))
            }
            return .sequence(Node.Sequence(items, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            return node
        }
    }

    /// The typed scalar a lone placeholder becomes.
    private static func node(for value: FanOutValue, at mark: Mark?) -> Node {
        switch value {
        case .string(let text): return .scalar(Node.Scalar(text, Tag(.str), .doubleQuoted, mark))
        case .integer(let integer): return .scalar(Node.Scalar(String(integer), Tag(.int), .plain, mark))
        }
    }

    /// `{category}` without quotes is YAML for the mapping `{category: null}`: say so, instead
    /// of filtering on a map or reporting a mapping where a value was expected.
    private func checkNotUnquotedPlaceholder(_ mapping: Node.Mapping) throws(ConfigError) {
        let name = fanOut.placeholder
        guard mapping.count == 1, let pair = mapping.first, pair.key.scalar?.string == name,
              ConfigNode(node: pair.value, file: body.file, path: "").isPlainScalar(tagged: .null)
        else {
            return
        }
        throw ConfigNode(node: .mapping(mapping), file: body.file, path: "").error(
            "{\(name)} without quotes is a YAML mapping; write \"{\(name)}\" for the placeholder")
    }
}
