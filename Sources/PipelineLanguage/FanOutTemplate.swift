import FirestoreModel
import QueryEngine
import Yams

/// One item of `bundles:` as the bundle parser sees it: the entry as written, or a copy of a
/// `for_each` template filled in with one value.
struct BundleEntry {
    var node: ConfigNode
    var binding: FanOutBinding?
    /// Filled with a stand-in value because the values come from the inputs, which are not read
    /// yet: parsed to check the template, never built.
    var isStandIn: Bool
}

/// A `for_each` bundle entry being parsed: its ``FanOut`` and what filling it in needs.
struct FanOutTemplate {
    static let keys = ["field", "collection", "documents", "values", "as"]

    let fanOut: FanOut
    /// The bundle entry without its `for_each:` key.
    let body: ConfigNode
    private let forEach: ConfigNode
    private let id: (text: PlaceholderText, node: ConfigNode)
    private let names: [(text: PlaceholderText, node: ConfigNode)]

    /// The entries an item of `bundles:` stands for: the item itself, or one per value of its
    /// `for_each` (a single stand-in while `store` is nil and the values come from the inputs).
    static func entries(of node: ConfigNode, bundleKeys: [String], store: DocumentStore?) throws(ConfigError) -> (fanOut: FanOut?, entries: [BundleEntry]) {
        guard let template = try FanOutTemplate(node, bundleKeys: bundleKeys) else {
            return (nil, [BundleEntry(node: node, binding: nil, isStandIn: false)])
        }
        return (template.fanOut, try template.entries(store: store))
    }

    /// True when no value can change where the documents of the bundle entry `node` (a
    /// `for_each` template) are: a placeholder (or any `{`) only in its id, its query names,
    /// what its queries filter, order and limit by, or its `fields:`/`redact:`, and no
    /// `structured_query:` (whose scope is not read here). Keys are matched by their text, tags
    /// aside, as the config parser matches them.
    static func fixesScope(_ node: ConfigNode) -> Bool {
        func holdsPlaceholder(_ node: Node) -> Bool {
            switch node {
            case .scalar(let scalar): scalar.string.contains("{")
            case .sequence(let items): items.contains(where: holdsPlaceholder)
            case .mapping(let pairs): pairs.contains { holdsPlaceholder($0.key) || holdsPlaceholder($0.value) }
            case .alias: true
            }
        }
        guard case .mapping(let entry) = node.node else { return false }
        for (key, value) in entry {
            switch key.scalar?.string {
            case "id", "for_each", "fields", "redact", "max_bundle_bytes":
                continue
            case "queries":
                guard case .mapping(let named) = value else { return false }
                for query in named.map(\.value) {
                    guard case .mapping(let parts) = query else { return false }
                    for (part, body) in parts {
                        switch part.scalar?.string {
                        case "where", "order_by", "limit", "limit_to_last", "limit_type": continue
                        case "structured_query": return false
                        default: if holdsPlaceholder(part) || holdsPlaceholder(body) { return false }
                        }
                    }
                }
            default:
                if holdsPlaceholder(key) || holdsPlaceholder(value) { return false }
            }
        }
        return true
    }

    /// Parses the `for_each:` of `node`; nil when it has none.
    private init?(_ node: ConfigNode, bundleKeys: [String]) throws(ConfigError) {
        guard case .mapping(let mapping) = node.node,
              let index = mapping.firstIndex(where: { $0.key.scalar?.string == "for_each" })
        else {
            return nil
        }
        let entry = try node.mapping(allowed: bundleKeys)
        forEach = ConfigNode(node: mapping[index].value, file: node.file, path: "\(node.path).for_each")
        let spec = try forEach.mapping(allowed: Self.keys)
        let (source, defaultName) = try Self.parseSource(spec)
        let placeholder: String
        if let nameNode = spec["as"] {
            placeholder = try nameNode.string()
            guard PlaceholderText.isValidName(placeholder) else {
                throw nameNode.error("for_each.as \"\(placeholder)\" is not a placeholder name: start with a letter or _, then use letters, digits, _ and .")
            }
        } else if let defaultName {
            placeholder = defaultName
        } else {
            throw forEach.error("for_each: this field cannot name a placeholder; name it with as:, e.g. as: section")
        }

        let idNode = try entry.required("id")
        let idText = try Self.template(idNode, using: placeholder, role: "bundle id", need: "each needs its own id")
        var names: [(PlaceholderText, ConfigNode)] = []
        for (_, keyNode, _) in try entry["queries"]?.namedEntries() ?? [] {
            names.append((try Self.template(keyNode, using: placeholder, role: "named query name", need: "names must be unique across the site"), keyNode))
        }

        var pairs = Array(mapping)
        pairs.remove(at: index)
        body = ConfigNode(node: .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark)), file: node.file, path: node.path)
        id = (idText, idNode)
        self.names = names
        fanOut = FanOut(source: source, placeholder: placeholder, idTemplate: try idNode.string(), location: forEach.location)
    }

    /// The bundle entries: one per value, or one stand-in while the values are not known.
    func entries(store: DocumentStore?) throws(ConfigError) -> [BundleEntry] {
        guard let found = try values(in: store) else {
            let standIn = try filled(with: .string(fanOut.placeholder), path: "\(body.path) (for each \(fanOut.placeholder))")
            return [BundleEntry(node: standIn, binding: nil, isStandIn: true)]
        }
        let bindings = found.map { FanOutBinding(template: fanOut.idTemplate, placeholder: fanOut.placeholder, value: $0.value, origin: $0.origin) }
        try checkNames(bindings)
        return try bindings.map { binding throws(ConfigError) in
            BundleEntry(node: try filled(with: binding.value, path: "\(body.path) (\(binding.placeholder) = \(binding.value))"), binding: binding, isStandIn: false)
        }
    }

    private func filled(with value: FanOutValue, path: String) throws(ConfigError) -> ConfigNode {
        ConfigNode(node: try fill(body.node, with: value, isKey: false), file: body.file, path: path)
    }

    /// Every id and name, filled in, must be valid and distinct; the values are not slugified
    /// because apps build the same names from the same values.
    private func checkNames(_ bindings: [FanOutBinding]) throws(ConfigError) {
        var ids: [String: FanOutBinding] = [:]
        for binding in bindings {
            for (text, node, role) in [(id.text, id.node, "bundle id")] + names.map({ ($0.text, $0.node, "named query name") }) {
                let filled = text.filled(with: binding.value.text)
                guard Identifier.isValid(filled) else {
                    throw node.error(
                        "for_each: \(binding.summary) makes the \(role) \"\(filled)\", which is not valid: \(Identifier.rule); "
                            + "values are used as they are (apps build the same names from them), so list usable ones with for_each: {values: [...]}")
                }
            }
            // Valid ids are ASCII, so String equality is byte equality here.
            let bundleID = id.text.filled(with: binding.value.text)
            if let other = ids[bundleID] {
                throw id.node.error("for_each: \(other.summary) and \(binding.summary) both make the bundle id \"\(bundleID)\"")
            }
            ids[bundleID] = binding
        }
    }

    /// The values, each with the first document it came from; nil when they come from the
    /// inputs and `store` is nil.
    private func values(in store: DocumentStore?) throws(ConfigError) -> [(value: FanOutValue, origin: ResourcePath?)]? {
        switch fanOut.source {
        case .values(let values):
            return values.map { ($0, nil) }
        case .documents(let collection):
            guard let store else { return nil }
            return try documents(of: collection, in: store).map { (.string($0.id), $0.path) }
        case .field(let field, let collection):
            guard let store else { return nil }
            var origins: [FanOutValue: ResourcePath] = [:]
            for document in try documents(of: collection, in: store) {
                guard let found = document.value(at: field, database: store.database), !found.isNull else { continue }
                guard let value = FanOutValue(found) else {
                    throw forEach.error(
                        "for_each: document \(document.path) has \(field) of type \(found.typeName); for_each takes string and integer values (documents where the field is missing or null are skipped)")
                }
                if origins[value] == nil { origins[value] = document.path }
            }
            guard !origins.isEmpty else {
                throw forEach.error("for_each: no document of collection \"\(collection)\" has a string or integer field \(field); check the field name")
            }
            return origins.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }

    /// The documents of `collection` in id order; an error when it has none.
    private func documents(of collection: ResourcePath, in store: DocumentStore) throws(ConfigError) -> [Document] {
        guard let collectionID = collection.lastSegment, store.hasCollection(collection) else {
            let present = store.collectionIDs.sorted().joined(separator: ", ")
            throw forEach.error("for_each reads collection \"\(collection)\", which has no documents in the inputs (collections present: \(present))")
        }
        return store.evaluate(Query(parent: collection.parent, collectionID: collectionID))
    }

    /// The source of `for_each:` and the placeholder name it implies.
    private static func parseSource(_ spec: ConfigMapping) throws(ConfigError) -> (FanOut.Source, defaultName: String?) {
        let node = spec.owner
        switch (spec["field"], spec["collection"], spec["documents"], spec["values"]) {
        case (let fieldNode?, let collectionNode?, nil, nil):
            let field = try fieldNode.fieldPath()
            let name = field.canonicalString
            return (.field(field, collection: try collectionPath(collectionNode)), PlaceholderText.isValidName(name) ? name : nil)
        case (nil, nil, let collectionNode?, nil):
            return (.documents(collection: try collectionPath(collectionNode)), "id")
        case (nil, nil, nil, let valuesNode?):
            return (.values(try parseValues(valuesNode)), "value")
        case (.some, nil, nil, nil):
            throw node.error("for_each: field needs collection:, the collection whose documents hold the field")
        default:
            throw node.error(
                "for_each takes one source: field with collection (the distinct values of a field), documents (the ids of a collection's documents) or values (a list)")
        }
    }

    private static func collectionPath(_ node: ConfigNode) throws(ConfigError) -> ResourcePath {
        let path = try node.resourcePath()
        guard path.isCollection else {
            throw node.error("\"\(path)\" is not a collection path (it needs an odd number of segments, e.g. stories or stories/s1/comments)")
        }
        return path
    }

    private static func parseValues(_ node: ConfigNode) throws(ConfigError) -> [FanOutValue] {
        var values: [FanOutValue] = []
        for item in try node.sequence() {
            let value: FanOutValue
            if item.isPlainScalar(tagged: .int), let integer = Int64(item.scalar?.string ?? "") {
                value = .integer(integer)
            } else if item.tagName == .str, let text = item.scalar?.string {
                value = .string(text)
            } else {
                throw item.error("for_each.values items must be strings or integers, found \(item.kindDescription)")
            }
            guard !values.contains(value) else { throw item.error("for_each.values lists \(value) twice") }
            values.append(value)
        }
        guard !values.isEmpty else { throw node.error("for_each.values must list at least one value") }
        return values
    }

    /// The id or a query name of a `for_each` bundle: valid placeholder syntax, using the placeholder.
    private static func template(_ node: ConfigNode, using placeholder: String, role: String, need: String) throws(ConfigError) -> PlaceholderText {
        let text = try node.string()
        let template: PlaceholderText
        do throws(PlaceholderSyntaxError) {
            template = try PlaceholderText(parsing: text)
        } catch {
            throw node.error("in \"\(text)\": \(error.message)")
        }
        guard template.placeholders.contains(placeholder) else {
            throw node.error("the \(role) \"\(text)\" must use {\(placeholder)}: for_each makes one bundle per value and \(need)")
        }
        return template
    }
}
