import FirestoreModel
import QueryEngine
import Testing
@testable import PipelineLanguage

private let extensionYAML = """
    project: demo
    inputs: [data.ndjson]
    extension:
      collection: bundles
      params:
        by-city:
          city: [austin, berlin]
          tag: [[a, b], c]

    """

private func store(_ documents: Document...) -> DocumentStore {
    var store = DocumentStore(database: demo)
    for document in documents { store.insert(document) }
    return store
}

private func product(_ id: String, city: String, price: Int) -> Document {
    Document(path: path("products/\(id)"), fields: MapValue([("city", .string(city)), ("price", .integer(Int64(price)))]))
}

/// The error expanding `specs` under the config `yaml` throws.
private func expansionError(_ yaml: String, _ specs: [Document], store data: DocumentStore = store(), sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
        _ = try parseConfig(yaml).expandingExtension(specDocuments: specs, store: data)
        Issue.record("the specs were accepted", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error as? ConfigError
    }
}

private let byCity = specDocument("by-city", [
    "params": ["city": ["required": true], "tag": ["type": "string-array"]],
    "queries": ["products": ["collection": "products", "conditions": [["where": ["city", "==", "$city"]], ["where": ["tags", "array-contains-any", "$tag"]]]]],
    "clientCache": 60,
])

@Suite struct ExtensionConfigTests {
    @Test func extensionNeedsNoBundles() throws {
        let config = try parseConfig(extensionYAML)
        #expect(config.bundles.isEmpty)
        let extensionConfig = try #require(config.extensionConfig)
        #expect(extensionConfig.collection == path("bundles"))
        #expect(extensionConfig.listed["by-city"]?["city"]?.values == [.text("austin"), .text("berlin")])
        #expect(extensionConfig.listed["by-city"]?["tag"]?.values == [.list(["a", "b"]), .text("c")])
    }

    @Test func errorsInExtensionNameTheLine() {
        let error = configError("project: demo\ninputs: [a.ndjson]\nextension:\n  collection: bundles/x\n")
        #expect(error?.location?.line == 4 && error?.location?.column == 15)
        let unknown = configError("project: demo\ninputs: [a.ndjson]\nextension:\n  colection: bundles\n")
        #expect(unknown?.location?.line == 4)
        let twice = configError("project: demo\ninputs: [a.ndjson]\nextension:\n  params:\n    s:\n      p: [a, a]\n")
        #expect(twice?.location?.line == 6)
    }

    @Test func oneBundlePerCombinationInNameOrder() throws {
        let config = try parseConfig(extensionYAML).expandingExtension(specDocuments: [byCity], store: store())
        #expect(config.bundles.map(\.id) == ["by-city.city.austin.tag.a_b", "by-city.city.austin.tag.c", "by-city.city.berlin.tag.a_b", "by-city.city.berlin.tag.c"])
        // The named query keeps the spec's name in every bundle.
        #expect(config.bundles.allSatisfy { $0.queries.map(\.name) == ["products"] })
        let first = config.bundles[0]
        #expect(first.extensionSpec == ExtensionBinding(specID: "by-city", parameters: ["city": .text("austin"), "tag": .list(["a", "b"])], clientCache: 60, serverCache: nil))
        #expect(first.queries[0].query.filters[1] == .field(FieldPath(segments: ["tags"]), .arrayContainsAny, .array([.string("a"), .string("b")])))
    }

    @Test func aSpecWithoutParametersIsOneBundleUnderItsID() throws {
        let spec = specDocument("home", ["docs": ["site/settings"], "queries": ["latest": ["collection": "stories", "conditions": [["orderBy": ["at", "desc"]], ["limit": 3]]]]])
        let config = try parseConfig("project: demo\ninputs: [a.ndjson]\nextension: {}\n").expandingExtension(specDocuments: [spec], store: store())
        #expect(config.bundles.map(\.id) == ["home"])
        #expect(config.bundles[0].documents == [path("site/settings")])
    }

    @Test func aRequiredParameterTakesTheDistinctValuesOfItsField() throws {
        let spec = specDocument("by-city", [
            "params": ["city": ["required": true]],
            "queries": ["products": ["collection": "products", "conditions": [["where": ["city", "==", "$city"]]]]],
        ])
        let yaml = "project: demo\ninputs: [a.ndjson]\nextension: {collection: bundles}\n"
        #expect(try parseConfig(yaml).extensionFieldsRead(specDocuments: [spec]) == [FieldPath(segments: ["city"])])
        let data = store(product("p1", city: "oslo", price: 1), product("p2", city: "lima", price: 2), product("p3", city: "oslo", price: 3))
        let config = try parseConfig(yaml).expandingExtension(specDocuments: [spec], store: data)
        #expect(config.bundles.map(\.id) == ["by-city.city.lima", "by-city.city.oslo"])
    }

    @Test func aRequiredParameterWithNothingToTakeValuesFromSaysWhatToList() {
        let spec = specDocument("one", ["params": ["id": ["required": true]], "docs": ["products/$id"]])
        let error = expansionError("project: demo\ninputs: [a.ndjson]\nextension: {}\n", [spec])
        #expect(error?.message.hasPrefix("bundle spec bundles/one, params.id: the required parameter id has no values") == true)
        #expect(error?.message.contains("extension: params: one: id: [...]") == true)
    }

    @Test func listedValuesForAnUndeclaredParameterOrAMissingSpecNameTheLine() {
        let undeclared = specDocument("by-city", ["params": ["city": [:]], "docs": ["products/$city"]])
        let error = expansionError(extensionYAML, [undeclared])
        #expect(error?.location?.line == 8)
        #expect(error?.message.contains("\"tag\", which bundle spec bundles/by-city does not declare") == true)
        let missing = expansionError(extensionYAML, [specDocument("other", ["docs": ["a/b"]])])
        #expect(missing?.location?.line == 6)
        #expect(missing?.message.contains("names the spec \"by-city\"") == true)
    }

    @Test func aQueryNameOfTheConfigIsRefused() {
        let yaml = "project: demo\ninputs: [a.ndjson]\nextension: {}\nbundles:\n  - id: b\n    queries:\n      latest: {collection: stories}\n"
        let spec = specDocument("home", ["queries": ["latest": ["collection": "stories"]]])
        #expect(expansionError(yaml, [spec])?.message.contains("also defined in bundle \"b\"") == true)
    }

    @Test func anUnusableValueMakesADigestID() throws {
        let spec = specDocument("s", ["params": ["q": [:]], "docs": ["c/$q"]])
        let yaml = "project: demo\ninputs: [a.ndjson]\nextension:\n  params:\n    s:\n      q: [\"a b\", \"a c\"]\n"
        let ids = try parseConfig(yaml).expandingExtension(specDocuments: [spec], store: store()).bundles.map(\.id)
        #expect(ids.count == 2 && Set(ids).count == 2)
        #expect(ids.allSatisfy { $0.hasPrefix("s.") && $0.count == 18 })
    }

    @Test func offsetIsRefusedForTheClients() {
        let spec = specDocument("s", ["queries": ["q": ["collection": "c", "conditions": [["offset": 5]]]]])
        let error = expansionError("project: demo\ninputs: [a.ndjson]\nextension: {}\n", [spec])
        #expect(error?.message.hasPrefix("bundle spec bundles/s, queries.q: ") == true)
    }
}
