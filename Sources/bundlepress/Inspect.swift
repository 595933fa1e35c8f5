import ArgumentParser
import BundleFormat
import FirestoreModel
import Foundation
import JSONCore

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a bundle file holds (raw or .gz).",
        discussion: """
            Reads the bundle with the strict reader, which rejects whatever any Firebase client \
            (JS, Android, iOS) or Google's Python parser would reject, and prints its metadata, \
            named queries (their StructuredQuery) and documents. Exits 1 with the reasons when \
            the bundle is invalid.
            """
    )

    @Argument(help: "The bundle file (.bundle or .bundle.gz).")
    var file: String

    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Also print every document's fields (text mode).")
    var fields = false

    func run() throws {
        var terminal = Terminal()
        guard let data = FileManager.default.contents(atPath: file) else {
            terminal.error("\(file): cannot read the file")
            throw ExitStatus.noInput
        }
        let contents: BundleContents
        do {
            contents = try BundleReader.read(Array(data))
        } catch {
            for problem in error.problems { terminal.error("\(file): \(problem)") }
            throw ExitStatus.problemsFound
        }
        for warning in contents.warnings { terminal.warning("\(file): \(warning)") }
        print(json ? jsonReport(contents) : textReport(contents))
    }

    private func textReport(_ contents: BundleContents) -> String {
        let metadata = contents.metadata
        var lines = [
            "bundle \(metadata.id)\(contents.wasGzipped ? " (gzip)" : "")",
            "  createTime      \(metadata.createTime)",
            "  version         \(metadata.version)",
            "  totalDocuments  \(metadata.totalDocuments)",
            "  totalBytes      \(metadata.totalBytes)",
            "  database        \(contents.database.map(\.resourceName) ?? "-")",
            "",
            "named queries (\(contents.namedQueries.count))",
        ]
        for query in contents.namedQueries {
            let members = contents.documents.filter { $0.metadata.queries.contains(query.name) }.count
            lines.append("  \(query.name)  (\(members) documents, readTime \(query.readTime))")
            lines.append("    " + String(decoding: query.bundledQuery.bytes, as: UTF8.self))
        }
        lines.append("")
        lines.append("documents (\(contents.documents.count))")
        for bundled in contents.documents {
            let queries = bundled.metadata.queries.isEmpty ? "" : "  [\(bundled.metadata.queries.joined(separator: ", "))]"
            let state = bundled.metadata.exists ? "\(bundled.document?.fields.count ?? 0) fields" : "missing"
            lines.append("  \(bundled.metadata.name.path)  \(state)\(queries)")
            if fields, let document = bundled.document {
                for field in document.fields.fields {
                    lines.append("      \(FieldPath(segments: [field.key]).canonicalString) = \(field.value.protoJSONString)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `{"metadata", "gzip", "namedQueries": [{name, readTime, bundledQuery}], "documents": [{metadata, document}]}`,
    /// each part in the bundle's own JSON form.
    private func jsonReport(_ contents: BundleContents) -> String {
        var writer = JSONWriter()
        writer.raw("{\"metadata\":")
        contents.metadata.encodeJSON(into: &writer)
        writer.raw(",\"gzip\":")
        writer.bool(contents.wasGzipped)
        writer.raw(",\"namedQueries\":[")
        for (index, query) in contents.namedQueries.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.raw("{\"name\":")
            writer.string(query.name)
            writer.raw(",\"readTime\":")
            writer.string(query.readTime.rfc3339)
            writer.raw(",\"bundledQuery\":")
            writer.raw(bytes: query.bundledQuery.bytes)
            writer.byte(UInt8(ascii: "}"))
        }
        writer.raw("],\"documents\":[")
        for (index, bundled) in contents.documents.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.raw("{\"metadata\":")
            bundled.metadata.encodeJSON(into: &writer)
            if let document = bundled.document, let database = contents.database {
                writer.raw(",\"document\":")
                document.encodeBundleJSON(into: &writer, database: database)
            }
            writer.byte(UInt8(ascii: "}"))
        }
        writer.raw("]}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
