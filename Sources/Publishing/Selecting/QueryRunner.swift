import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import PipelineLanguage
import QueryEngine

/// A query evaluated over exports: what `bundlepress query` prints and what a client computes
/// for the same query over the same documents.
public struct QueryResult: Sendable {
    public var database: DatabaseID
    public var query: Query
    /// The matching documents in query order.
    public var documents: [Document]
}

/// Runs one query over export files without writing anything: the engine's public surface for
/// "what will the client see?".
public enum QueryRunner {
    /// Runs the named query `name` of `config` over the config's inputs, resolved exactly as a
    /// build resolves it (snapshot time, cursors at documents), with the documents as its bundle
    /// publishes them (`fields:`/`redact:` applied).
    public static func run(namedQuery name: String, config: PipelineConfig) throws(BuildError) -> QueryResult {
        // Names of a for_each over the inputs, or of the extension's specs, are known only once
        // the inputs are read.
        if !config.fanOuts.contains(where: \.dependsOnData), config.extensionConfig == nil, namedQuery(name, in: config) == nil {
            throw unknown(name, in: config)
        }
        // The candidates of the site's named queries, this one among them (no previous state:
        // leavers are not results).
        var inputs = try LoadedInputs.load(
            config, candidates: try CandidateRules(config, previous: nil), in: FileManager.default.temporaryDirectory.path) { _ in }
        let resolved = try inputs.resolve(config)
        guard let (bundle, spec) = namedQuery(name, in: resolved) else { throw unknown(name, in: resolved) }
        var documents: [Document] = []
        for document in inputs.store.evaluate(spec.query) {
            do throws(PublishError) { documents.append(bundle.fieldPolicy.apply(to: try inputs.setAside.whole(document))) } catch { throw .publish(error) }
        }
        return QueryResult(database: config.database, query: spec.query, documents: documents)
    }

    private static func namedQuery(_ name: String, in config: PipelineConfig) -> (BundleSpec, NamedQuerySpec)? {
        for bundle in config.bundles {
            if let query = bundle.queries.first(where: { $0.name == name }) { return (bundle, query) }
        }
        return nil
    }

    private static func unknown(_ name: String, in config: PipelineConfig) -> BuildError {
        .unknownQuery(name: name, known: config.bundles.flatMap { $0.queries.map(\.name) }, file: config.file)
    }

    /// Runs a query given as JSON over export files.
    ///
    /// - Parameters:
    ///   - json: a BundledQuery `{"parent", "structuredQuery", "limitType"}` as in a bundle's
    ///     namedQuery, or a bare StructuredQuery (then `database` is required).
    ///   - file: the name of the JSON's file, for error locations.
    ///   - inputs: export files; names of another project or database are re-rooted to the
    ///     query's database, as `build` does. A document in several inputs: the last one wins.
    ///   - database: overrides the database of the query's parent.
    public static func run(json: [UInt8], file: String, inputs: [String], database: DatabaseID?) throws(BuildError) -> QueryResult {
        let map = SourceMap(file: file, bytes: json)
        let node: JSONNode
        do throws(JSONSyntaxError) {
            node = try JSONParser.parse(json)
        } catch {
            throw .data("invalid JSON: \(error.message)", location: map.location(ofOffset: error.offset))
        }
        var bundled: BundledQuery
        do throws(JSONDecodingError) {
            if node.objectValue?["structuredQuery"] != nil {
                bundled = try BundledQuery(json: node)
            } else {
                guard let database else {
                    throw JSONDecodingError(offset: node.offset, message: "a bare StructuredQuery has no parent; pass --project (and --database) or give a BundledQuery {\"parent\", \"structuredQuery\", \"limitType\"}")
                }
                let query = try Query(structuredQuery: node, parent: ResourceName(database: database, path: .root))
                bundled = BundledQuery(database: database, query: query)
            }
        } catch {
            throw .data(error.message, location: map.location(ofOffset: error.offset))
        }
        if let database { bundled.database = database }

        let reader = ExportReader(target: bundled.database)
        var store = DocumentStore(database: bundled.database)
        for input in inputs {
            do throws(ExportError) {
                try reader.read(input) { store.insert($0.document) }
            } catch {
                throw .input(error)
            }
        }
        return QueryResult(database: bundled.database, query: bundled.query, documents: store.evaluate(bundled.query))
    }
}
