import FirestoreModel
import QueryEngine

extension PipelineConfig {
    /// The fields the inputs must hold for ``expandingExtension(specDocuments:store:)``: those
    /// whose distinct values make the values of required parameters pipeline.yml lists none for.
    public func extensionFieldsRead(specDocuments: [Document]) throws(ConfigError) -> [FieldPath] {
        guard let extensionConfig else { return [] }
        var fields: [FieldPath] = []
        for document in specDocuments {
            let spec = try ExtensionSpec(document)
            fields += spec.parameterNames.compactMap { name in
                extensionConfig.listed[spec.id]?[name] == nil ? SpecExpansion(spec: spec).valueSource(of: name)?.field : nil
            }
        }
        return fields
    }

    /// The config with a bundle for every spec document in `specDocuments` (the documents of
    /// `extension.collection`, whole) and every combination of its parameters' values, after
    /// the config's own bundles. A spec's named queries keep their names in each of its
    /// bundles, as with the extension (the SDK keeps the last loaded under a name); a name
    /// the config's own bundles use is refused. `store` gives the distinct values of the field
    /// a required parameter pipeline.yml lists no values for is compared with.
    public func expandingExtension(specDocuments: [Document], store: DocumentStore) throws(ConfigError) -> PipelineConfig {
        guard let extensionConfig else { return self }
        let specs = try specDocuments.map { document throws(ConfigError) in try ExtensionSpec(document) }
        for (specID, location) in extensionConfig.specLocations where !specs.contains(where: { $0.id == specID }) {
            let found = specs.map(\.id).joined(separator: ", ")
            throw ConfigError(
                "extension.params names the spec \"\(specID)\", which collection \(extensionConfig.collection) does not hold (specs found: \(found.isEmpty ? "none" : found))",
                at: location)
        }
        var config = self
        let ownQueries = Dictionary(bundles.flatMap { bundle in bundle.queries.map { ($0.name, bundle.id) } }, uniquingKeysWith: { first, _ in first })
        for spec in specs {
            let listed = extensionConfig.listed[spec.id] ?? [:]
            for (name, values) in listed where spec.parameters[name] == nil {
                throw ConfigError(
                    "extension.params.\(spec.id) lists values for \"\(name)\", which bundle spec \(spec.path) does not declare in params (it declares \(spec.parameterNames.isEmpty ? "none" : spec.parameterNames.joined(separator: ", ")))",
                    at: values.location)
            }
            let expansion = SpecExpansion(spec: spec)
            for combination in try expansion.combinations(listed: listed, store: store) {
                let id = try expansion.bundleID(combination)
                let filling = SpecFilling(spec: spec, values: combination, database: database)
                var bundle = try filling.bundle(id: id, sitePolicy: fieldPolicy, clients: clients)
                bundle.snapshots = snapshots
                if let other = config.bundles.first(where: { $0.id == id }) {
                    let owner = other.extensionSpec.map { "the bundle spec \($0.specID)" } ?? "pipeline.yml (\(other.location.map(String.init(describing:)) ?? "?"))"
                    throw spec.error("its bundle id \"\(id)\" is also a bundle of \(owner)")
                }
                for query in bundle.queries {
                    if let owner = ownQueries[query.name] {
                        throw spec.error("named query \"\(query.name)\" is also defined in bundle \"\(owner)\" of pipeline.yml; clients look named queries up by name", at: "queries.\(query.name)")
                    }
                }
                if let binding = bundle.extensionSpec, binding.stablePath == nil {
                    config.extensionNotes.append(
                        "bundle spec \(spec.path): bundle \"\(id)\" has no copy at the extension's URL: the spec id or a parameter value cannot be a path segment there "
                            + "(empty, starting with \".\", holding \"/\", or a name the site's bundles/ folder has); the app loads it from the manifest's url")
                }
                config.bundles.append(bundle)
            }
            if !spec.unusedKeys.isEmpty {
                config.extensionNotes.append(
                    "bundle spec \(spec.path): \(spec.unusedKeys.joined(separator: " and ")) \(spec.unusedKeys.count == 1 ? "concerns" : "concern") only the extension's function and \(spec.unusedKeys.count == 1 ? "is" : "are") not used (a static bundle is rebuilt by each build)")
            }
        }
        return config
    }
}

/// A spec's combinations of parameter values, and the bundle id of each.
struct SpecExpansion {
    let spec: ExtensionSpec

    /// Where a parameter's values can come from when none are listed: a `where` comparing a
    /// field with it (`==` or `array-contains`) in a query over a collection without parameters.
    struct ValueSource {
        var field: FieldPath
        var query: Query
        /// True for `array-contains`: the values are the arrays' elements.
        var isElement: Bool
    }

    func valueSource(of name: String) -> ValueSource? {
        let filling = SpecFilling(spec: spec, values: [:], database: DatabaseID(project: "-"))
        for specQuery in spec.queries where !specQuery.collection.contains("$") {
            for condition in specQuery.conditions where condition.kind == "where" {
                guard case .array(let parts) = condition.value, parts.count == 3,
                      case .string(let field) = parts[0], !field.hasPrefix("$"), !field.isEmpty,
                      case .string(let op) = parts[1], op == "==" || op == "array-contains",
                      parts[2] == .string("$" + name),
                      let query = try? filling.scope(of: specQuery)
                else { continue }
                let path = FieldPath(segments: field.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
                return ValueSource(field: path, query: query, isElement: op == "array-contains")
            }
        }
        return nil
    }

    /// Every combination of values, parameters in name order and values in the order listed
    /// (or found); a parameter with no listed value that is not required has none.
    func combinations(listed: [String: ExtensionConfig.ListedValues], store: DocumentStore) throws(ConfigError) -> [[String: SpecParameterValue]] {
        var combinations: [[String: SpecParameterValue]] = [[:]]
        for name in spec.parameterNames {
            let parameter = spec.parameters[name]!
            let values: [SpecParameterValue]
            if let given = listed[name] {
                values = given.values
            } else if parameter.isRequired {
                values = try foundValues(of: parameter, in: store)
            } else {
                continue
            }
            combinations = combinations.flatMap { combination in
                values.map { value in combination.merging([name: value]) { _, new in new } }
            }
        }
        return combinations
    }

    /// The distinct values (of the parameter's type) of the field a required parameter is
    /// compared with, in Firestore order; an error saying which values to list when there are none.
    private func foundValues(of parameter: SpecParameter, in store: DocumentStore) throws(ConfigError) -> [SpecParameterValue] {
        let listIt = "list its values in pipeline.yml under extension: params: \(spec.id): \(parameter.name): [...]"
        guard let (source, values) = valuesInData(of: parameter, in: store) else {
            throw spec.error(
                "the required parameter \(parameter.name) has no values: no where compares a field with it by == or array-contains in a query over a fixed collection, so \(listIt)",
                at: "params.\(parameter.name)")
        }
        guard !values.isEmpty else {
            throw spec.error(
                "the required parameter \(parameter.name) (\(parameter.kind.rawValue)) takes the values of \(source.field), and no document of its query holds one of that type; \(listIt)",
                at: "params.\(parameter.name)")
        }
        return values
    }

    /// The field a parameter is compared with and its distinct values of the parameter's type
    /// (an array's elements for `array-contains`), in Firestore order; nil for an array
    /// parameter or one no `where` compares a field with (``valueSource(of:)``).
    func valuesInData(of parameter: SpecParameter, in store: DocumentStore) -> (source: ValueSource, values: [SpecParameterValue])? {
        guard parameter.kind.element == nil, let source = valueSource(of: parameter.name) else { return nil }
        var found: [Value] = []
        for document in store.evaluate(source.query) {
            guard let value = document.value(at: source.field, database: store.database) else { continue }
            if source.isElement, case .array(let items) = value { found += items } else if !source.isElement { found.append(value) }
        }
        found.sort { Value.compare($0, $1) == .less }
        var texts: [String] = []
        for value in found {
            guard let text = parameter.text(of: value), texts.last != text else { continue }
            texts.append(text)
        }
        return (source, texts.map(SpecParameterValue.text))
    }

    /// The spec id, then each parameter's name and value (`products.city.austin`); where a value
    /// cannot be part of an id (or the id grows past 100 characters), the spec id and a digest
    /// of the values.
    func bundleID(_ combination: [String: SpecParameterValue]) throws(ConfigError) -> String {
        guard Identifier.isValid(spec.id) else {
            throw spec.error("its id cannot be a bundle id: \(Identifier.rule)")
        }
        let names = combination.keys.sorted { UTF8Order.compare($0, $1) == .less }
        guard !names.isEmpty else { return spec.id }
        let parts = names.flatMap { [$0, combination[$0]!.texts.joined(separator: "_")] }
        let readable = ([spec.id] + parts).joined(separator: ".")
        if Identifier.isValid(readable) { return readable }
        // FNV-1a over the names and values, each ended by a 0 byte: stable across builds.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in names.flatMap({ [$0] + combination[$0]!.texts }) {
            for byte in Array(part.utf8) + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let digest = String(hash, radix: 16)
        return "\(spec.id.prefix(80)).\(String(repeating: "0", count: 16 - digest.count))\(digest)"
    }
}

extension ExtensionSpec {
    /// A parameter the spec declares and the values the data holds for it: what
    /// `bundlepress init --from-extension` lists under `extension: params:`.
    public struct ParameterInData: Sendable, Equatable {
        public var name: String
        /// Its type as the spec names it (`string`, `integer-array`, …).
        public var type: String
        public var isRequired: Bool
        /// The field a `where` compares it with by `==` or `array-contains` in a query over a
        /// collection without parameters; nil when none does, or for an array parameter.
        public var field: FieldPath?
        /// The distinct values of ``field`` of the parameter's type, in Firestore order: the
        /// values a build takes for a required parameter pipeline.yml lists none for.
        public var values: [SpecParameterValue]
    }

    /// Every declared parameter, in name order, with the values `store` holds for it.
    public func parametersInData(_ store: DocumentStore) -> [ParameterInData] {
        let expansion = SpecExpansion(spec: self)
        return parameterNames.map { name in
            let parameter = parameters[name]!
            let found = expansion.valuesInData(of: parameter, in: store)
            return ParameterInData(name: name, type: parameter.kind.rawValue, isRequired: parameter.isRequired, field: found?.source.field, values: found?.values ?? [])
        }
    }
}
