import Foundation
import Testing
@testable import PipelineLanguage

/// `bundlepress schema`: every mapping is described with exactly the keys docs/pipeline.md
/// documents, written out below rather than taken from the parser's lists that the schema is
/// built from. (scripts/check_schema.py validates configs against the schema in CI: the
/// repository's, configs using every key, and configs with an unknown key in each mapping.)
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

    /// `node[key]`, or the first such member among its `anyOf` options.
    static func member(_ key: String, of node: Any?) -> Any? {
        guard let node = node as? [String: Any] else { return nil }
        return node[key] ?? (node["anyOf"] as? [Any])?.lazy.compactMap { member(key, of: $0) }.first
    }

    /// The object schema at `path` below `node`: property names, `[]` for a list's items, `*`
    /// for a map's values, each step looking through `anyOf`.
    static func object(at path: [String], in node: [String: Any]) -> [String: Any]? {
        var current: Any? = node
        for step in path {
            switch step {
            case "[]": current = member("items", of: current)
            case "*": current = member("additionalProperties", of: current)
            default: current = (member("properties", of: current) as? [String: Any])?[step]
            }
        }
        return object(current)
    }

    /// Each mapping of pipeline.yml and its keys, as docs/pipeline.md lists them.
    static let documentedMappings: [(path: [String], keys: [String])] = [
        ([], [
            "project", "database", "snapshot_time", "output", "gzip_level", "clients", "duplicates", "inputs", "bundles",
            "retention", "budgets", "leavers", "previous", "fields", "redact", "exposure", "warnings", "headers", "cors",
            "extension", "snapshots", "explorer",
        ]),
        (["inputs", "[]"], ["path", "format", "hints"]),
        (["inputs", "[]", "hints"], ["doubles", "timestamps", "geopoints", "references", "bytes"]),
        (["bundles", "[]"], ["id", "documents", "queries", "max_bundle_bytes", "for_each", "fields", "redact", "snapshots"]),
        (["bundles", "[]", "for_each"], ["field", "collection", "documents", "values", "as"]),
        (["bundles", "[]", "queries", "*"], [
            "collection", "collection_group", "parent", "where", "order_by", "limit", "limit_to_last",
            "start_at", "start_after", "end_at", "end_before", "structured_query", "limit_type",
        ]),
        (["bundles", "[]", "queries", "*", "where", "[]"], ["or", "and"]),
        (["bundles", "[]", "queries", "*", "start_at"], ["document"]),
        (["retention"], ["builds", "min_age"]),
        (["budgets"], ["max_bundle_bytes", "max_snapshot_bytes", "mode"]),
        (["leavers"], ["keep"]),
        (["exposure"], ["mode"]),
        (["headers", "[]"], ["source", "headers"]),
        (["cors"], ["allow_origin", "paths"]),
        (["extension"], ["collection", "params"]),
    ]

    @Test func theMappingsHaveExactlyTheDocumentedKeys() throws {
        let root = try Self.schema()
        #expect(root["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        for (path, keys) in Self.documentedMappings {
            let object = try #require(Self.object(at: path, in: root), "\(path)")
            #expect(Self.properties(object) == keys.sorted(), "\(path.joined(separator: "."))")
        }
    }
}
