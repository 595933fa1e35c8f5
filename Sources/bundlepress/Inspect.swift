import ArgumentParser
import BundleFormat
import FirestoreModel
import Foundation
import JSONCore

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a bundle file holds (raw or .gz), or with --exposure what a whole site publishes.",
        discussion: """
            Reads the bundle with the strict reader, which rejects whatever any Firebase client \
            (JS, Android, iOS) would reject, and prints its metadata, named queries (their \
            StructuredQuery) and documents. Exits 1 with the reasons when the bundle is invalid.

            Documents that are no named query's result are listed documents (documents: in \
            pipeline.yml) or leavers: documents that left the bundle's queries and changed since \
            a returning client may have cached them. A missing document (exists: false) tells \
            returning clients that a document they cached was deleted; the SDKs load it, Google's \
            Python parser does not (--python-compatible rejects it).

            --exposure reads a published site instead (default: the config's output, else site): \
            per collection and per bundle, every field path its documents carry, with the value \
            types and how many documents carry it, then the build's guard: fields that look like \
            personal data or secrets and that no fields: rule of the config lists. The config \
            (--config, else pipeline.yml when there is one) is read with --exposure only.

            Reference: docs/returning-clients.md (leavers, deleted documents), docs/pipeline.md, \
            "What a bundle exposes" (--exposure).

            Examples:
              bundlepress inspect site/bundles/front-page.490bc2b2e4c3cd60.bundle.gz
              bundlepress inspect --fields site/bundles/front-page.490bc2b2e4c3cd60.bundle
              bundlepress inspect --json site/bundles/front-page.490bc2b2e4c3cd60.bundle | jq .metadata
              bundlepress inspect --exposure
              bundlepress inspect --exposure --json site | jq '.collections[] | {collection, fields: [.fields[].path]}'
            """
    )

    @Argument(help: "The bundle file (.bundle or .bundle.gz); with --exposure, the site directory.")
    var file: String?

    @Flag(help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Also print every document's fields (text mode).")
    var fields = false

    @Flag(help: "Also reject what Google's Python deserialize_bundle rejects (missing documents).")
    var pythonCompatible = false

    @Flag(help: "Report every field a published site exposes, and the guard's findings.")
    var exposure = false

    @OptionGroup var config: ConfigOption

    func validate() throws {
        if !exposure, file == nil { throw ValidationError("Missing expected argument '<file>' (a bundle file; or --exposure [site])") }
        if exposure, fields || pythonCompatible { throw ValidationError("--fields and --python-compatible inspect one bundle, not --exposure") }
    }

    func run() throws {
        var terminal = Terminal()
        guard !exposure, let file else { return try reportExposure(terminal: &terminal) }
        guard let data = FileManager.default.contents(atPath: file) else {
            terminal.error("\(file): cannot read the file")
            throw ExitStatus.noInput
        }
        let contents: BundleContents
        do {
            contents = try BundleReader.read(Array(data), missingDocuments: pythonCompatible ? .rejected : .accepted)
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
            lines.append("  \(query.name)  (\(counted(members, "document")), readTime \(query.readTime))")
            lines.append("    " + String(decoding: query.bundledQuery.bytes, as: UTF8.self))
        }
        lines.append("")
        let results = contents.documents.filter { !$0.metadata.queries.isEmpty }.count
        let missing = contents.documents.filter { $0.document == nil }.count
        lines.append(
            "documents (\(contents.documents.count): \(results) named-query results, \(contents.documents.count - results - missing) listed or leavers, \(missing) missing)")
        for bundled in contents.documents {
            let role: String
            if let document = bundled.document {
                let queries = bundled.metadata.queries
                role = "\(counted(document.fields.count, "field")), updated \(document.updateTime.map(String.init(describing:)) ?? "-")  "
                    + (queries.isEmpty ? "(no query: listed, or a leaver)" : "[\(queries.joined(separator: ", "))]")
            } else {
                role = "missing (deleted), readTime \(bundled.metadata.readTime)"
            }
            lines.append("  \(bundled.metadata.name.path)  \(role)")
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
