import Foundation
import Testing
@testable import PipelineLanguage

/// `bundlepress schema`: every mapping the parser reads is described with exactly its keys.
/// (scripts/check_schema.py validates real configs against it in CI.)
@Suite struct PipelineSchemaTests {
    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(PipelineSchema.json.utf8)) as? [String: Any])
    }

    static func properties(_ node: [String: Any]) -> [String] {
        ((node["properties"] as? [String: Any]) ?? [:]).keys.sorted()
    }

    /// The object schema among `node` and its `anyOf` options.
    static func object(_ node: Any?) -> [String: Any]? {
        guard let node = node as? [String: Any] else { return nil }
        if node["properties"] != nil { return node }
        return (node["anyOf"] as? [Any])?.lazy.compactMap(object).first
    }

    @Test func theMappingsHaveExactlyTheParsersKeys() throws {
        let root = try Self.schema()
        #expect(root["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(Self.properties(root) == PipelineConfig.topLevelKeys.sorted())
        let top = try #require(root["properties"] as? [String: Any])
        let bundle = try #require(Self.object((top["bundles"] as? [String: Any])?["items"]))
        #expect(Self.properties(bundle) == PipelineConfig.bundleKeys.sorted())
        let bundleProperties = try #require(bundle["properties"] as? [String: Any])
        let query = try #require(Self.object((bundleProperties["queries"] as? [String: Any])?["additionalProperties"]))
        #expect(Self.properties(query) == QueryConfigParser.keys.sorted())
        #expect(Self.properties(try #require(Self.object(bundleProperties["for_each"]))) == FanOutTemplate.keys.sorted())
        #expect(Self.properties(try #require(Self.object((top["inputs"] as? [String: Any])?["items"]))) == PipelineConfig.inputKeys.sorted())
        for (key, keys) in [("retention", RetentionPolicy.keys), ("budgets", SizeBudget.keys), ("leavers", LeaverPolicy.keys), ("exposure", ExposurePolicy.keys), ("cors", HeaderPolicyParser.corsKeys)] {
            #expect(Self.properties(try #require(Self.object(top[key]), "\(key)")) == keys.sorted(), "\(key)")
        }
    }

    @Test func everyObjectIsClosedAndEveryNodeDescribed() throws {
        var open: [String] = []
        var undescribed: [String] = []
        func walk(_ node: Any, at path: String) {
            if let list = node as? [Any] {
                for (index, item) in list.enumerated() { walk(item, at: "\(path)[\(index)]") }
                return
            }
            guard let node = node as? [String: Any] else { return }
            if node["description"] == nil { undescribed.append(path) }
            if node["properties"] != nil, node["additionalProperties"] as? Bool != false { open.append(path) }
            for (key, child) in node where key != "enum" && key != "required" { walk(child, at: "\(path)/\(key)") }
        }
        walk(try Self.schema(), at: "")
        #expect(open == [] && undescribed.filter { !$0.hasSuffix("/properties") } == [])
    }
}
