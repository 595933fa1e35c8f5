import ArgumentParser
import FirestoreModel
import Foundation
import JSONCore
import PipelineLanguage
import Publishing
import QueryEngine

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a query over the exports and print what a Firebase client will get.",
        discussion: """
            With NAME: runs that named query of the config over its inputs, exactly as a build \
            does. With --structured-query FILE: evaluates a BundledQuery (as in a bundle's \
            namedQuery) or a bare StructuredQuery JSON over --input files; project and database \
            come from the query's parent unless --project/--database are given.

            Results are document paths relative to the database root, in query order: a table \
            in a terminal, one path per line otherwise.

            Reference: docs/pipeline.md, "Named queries" (keys, value types, semantics).

            Examples:
              bundlepress query latest-stories
              bundlepress query latest-stories --format json | jq '.[0]'
              bundlepress query --structured-query query.json --input exports/stories.ndjson
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, paths
    }

    @Argument(help: "A named query of the config.")
    var name: String?

    @OptionGroup var config: ConfigOption

    @Option(name: .customLong("structured-query"), help: "A BundledQuery or StructuredQuery JSON file (instead of NAME).")
    var structuredQuery: String?

    @Option(name: .customLong("input"), parsing: .upToNextOption, help: "Export files to query (with --structured-query).")
    var inputs: [String] = []

    @Option(help: "The project (with --structured-query; default: from the query's parent).")
    var project: String?

    @Option(help: "The database (with --structured-query and --project).")
    var database = DatabaseID.defaultDatabase

    @Option(help: "Output: table (default in a terminal), json, or paths (default otherwise).")
    var format: Format?

    func validate() throws {
        switch (name, structuredQuery) {
        case (nil, nil): throw ValidationError("Give a named query NAME, or --structured-query FILE with --input files.")
        case (.some, .some): throw ValidationError("Give either NAME or --structured-query, not both.")
        case (nil, .some) where inputs.isEmpty: throw ValidationError("--structured-query needs at least one --input export file.")
        case (.some, nil) where !inputs.isEmpty: throw ValidationError("--input goes with --structured-query; a named query reads the config's inputs.")
        default: break
        }
    }

    func run() throws {
        HeapTuning.applyForReadingExports()
        var terminal = Terminal()
        let result: QueryResult
        do {
            if let name {
                let pipeline = try PipelineConfig.loadForCommand(config.file, terminal: &terminal)
                result = try QueryRunner.run(namedQuery: name, config: pipeline)
            } else {
                let file = structuredQuery!
                guard let data = FileManager.default.contents(atPath: file) else {
                    terminal.error("\(file): cannot read the file")
                    throw ExitStatus.noInput
                }
                result = try QueryRunner.run(
                    json: Array(data), file: file, inputs: inputs,
                    database: project.map { DatabaseID(project: $0, database: database) })
            }
        } catch let error as BuildError {
            terminal.error(error.description)
            throw ExitStatus.code(for: error)
        }
        let chosen = format ?? (isatty(STDOUT_FILENO) != 0 ? .table : .paths)
        print(render(result, as: chosen), terminator: "")
    }

    private func render(_ result: QueryResult, as format: Format) -> String {
        switch format {
        case .paths:
            return result.documents.map { "\($0.path)\n" }.joined()
        case .json:
            var writer = JSONWriter()
            writer.byte(UInt8(ascii: "["))
            for (index, document) in result.documents.enumerated() {
                writer.raw(index == 0 ? "\n" : ",\n")
                writer.raw("{\"path\":")
                writer.string(document.path.description)
                writer.raw(",\"fields\":")
                document.fields.encodeFields(into: &writer)
                writer.byte(UInt8(ascii: "}"))
            }
            writer.raw(result.documents.isEmpty ? "]\n" : "\n]\n")
            return String(decoding: writer.bytes, as: UTF8.self)
        case .table:
            let columns = result.query.normalizedOrderBy.map(\.field).filter { !$0.isDocumentKey }
            var rows = [["#", "path"] + columns.map(\.canonicalString)]
            for (index, document) in result.documents.enumerated() {
                rows.append(["\(index + 1)", document.path.description] + columns.map { field in
                    document.value(at: field, database: result.database).map(display) ?? "—"
                })
            }
            let widths = rows[0].indices.map { column in
                min(column < 2 ? Int.max : 40, rows.map { $0[column].count }.max() ?? 0)
            }
            var lines = rows.map { row in
                zip(row, widths).map { cell, width in
                    let clipped = cell.count > width ? String(cell.prefix(width - 1)) + "…" : cell
                    return clipped.padding(toLength: width, withPad: " ", startingAt: 0)
                }.joined(separator: "  ")
            }
            lines.insert(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  "), at: 1)
            lines.append(counted(result.documents.count, "document"))
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A short human rendering of a value for the table.
    private func display(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .boolean(let b): return String(b)
        case .integer(let i): return String(i)
        case .double(let d): return d.isNaN ? "NaN" : String(d)
        case .timestamp(let t): return t.rfc3339
        case .string(let s): return "\"\(s)\""
        case .bytes(let b): return "bytes(\(b.count))"
        case .reference(let r): return "→\(r.path)"
        case .geoPoint(let g): return "(\(g.latitude), \(g.longitude))"
        case .array(let values): return "[" + values.map(display).joined(separator: ", ") + "]"
        case .map: return value.protoJSONString
        }
    }
}
