import ExportReader
import FirestoreModel
import Foundation
import JSONCore
import Publishing

/// The `pipeline.yml` that `bundlepress init` writes from an ``ExportSurvey``: the project and
/// database the documents name, the inputs, fields whose names look sensitive redacted, and one
/// bundle per top-level collection whose named query uses the collection's real fields (newest
/// first by its most common timestamp field, 20 documents). Comments say what was found and
/// what to change; the output is deterministic for the same exports. With the extension's bundle
/// specs (`init --from-extension`), `extension:` instead of the bundles per collection.
public enum StarterConfig {
    /// The config text for a config in `directory`. `project` overrides the project the exports
    /// name; `schema`, the path of the JSON Schema relative to the config, goes in the first line
    /// for editors. Relative input paths are written relative to `directory`, as the build reads them.
    /// With `specs`, the bundles are those of the extension's specs (``extensionLines(_:)``).
    public static func yaml(for survey: ExportSurvey, in directory: String = ".", project: String?, schema: String? = nil, specs: SpecSurvey? = nil) -> String {
        let collections = Dictionary(survey.collections.map { ($0.collection, $0) }, uniquingKeysWith: { first, _ in first })
        let total = survey.inputs.reduce(0) { $0 + $1.documents }
        var lines = schema.map { ["# yaml-language-server: $schema=\($0)"] } ?? []
        lines += [
            "# pipeline.yml, written by `bundlepress init` from \(plural(total, "document")) in \(plural(survey.inputs.count, "export"))"
                + (survey.newestUpdateTime.map { " (newest updateTime \($0.rfc3339))" } ?? "") + ".",
            "# Build with `bundlepress build`, then edit with `bundlepress serve --watch` open: it rebuilds on every save.",
            "# Every key is described in docs/pipeline.md of the BundlePress repository.",
        ]
        if let project {
            lines.append("project: \(quoted(project))")
        } else if let database = survey.database {
            lines.append("project: \(quoted(database.project))")
        } else {
            lines.append("project: my-project        # the exports do not name their project: set yours")
        }
        lines += [
            "database: \(quoted(survey.database?.database ?? DatabaseID.defaultDatabase))",
            "output: site",
        ]
        if survey.newestUpdateTime == nil, !survey.exportsRecordTheirTime, let written = survey.newestExportWritten {
            lines += [
                "# No document carries an updateTime, so a build cannot tell when the export was taken: this is when",
                "# the newest export was written. Set it to when the export was taken (clients see this as the data's time).",
                "snapshot_time: \(written.rfc3339)",
            ]
        }
        lines += [
            "",
            "# Apps keep their cache across builds: site/.bundlepress-state.json tells each build what the last one",
            "# shipped. A build that starts from a fresh checkout (CI) finds it at the deployed site's URL: fill it in",
            "# (under CI a build without it refuses to publish; `build --previous none` is the first publish).",
            "# previous: https://your-site.example/",
            "",
            "inputs:",
        ]
        lines += survey.inputs.map { "  - \(quoted(relative($0.path, to: directory)))  # \($0.format.displayName), \(plural($0.documents, "document"))" }
        if let duplicate = survey.firstDuplicate {
            let count = survey.duplicateCount
            let sources = duplicate.again == duplicate.first
                ? "\(relative(duplicate.first, to: directory)) twice"
                : "\(relative(duplicate.first, to: directory)) and \(relative(duplicate.again, to: directory))"
            lines += [
                "",
                "# \(plural(count, "document")) \(count == 1 ? "is" : "are") read more than once: the copy read last wins, in the order",
                "# of the inputs above (\(duplicate.document) from \(sources)).",
                "# Without this line a build refuses documents read twice.",
                "duplicates: last-wins",
            ]
        }

        let sensitive = sensitiveFields(collections.values)
        if !sensitive.isEmpty {
            lines += ["", "# Bundles are public files. These fields' names say they hold personal data or secrets, so they stay", "# out of every bundle (`bundlepress inspect --exposure` lists everything a built site publishes):", "redact:"]
            lines += sensitive.map { "  \(quoted($0.collection)): [\($0.fields.map(quoted).joined(separator: ", "))]" }
        }

        if let specs {
            lines += extensionLines(specs)
        } else {
            lines += starterBundles(survey, collections: collections, sensitive: sensitive)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `bundles:`, one per top-level collection (or per collection group when the exports hold
    /// no top-level collection), then the nested collections in a comment.
    private static func starterBundles(_ survey: ExportSurvey, collections: [String: ExposureReport.CollectionExposure], sensitive: [(collection: String, fields: [String])]) -> [String] {
        var lines = ["", "bundles:"]
        var ids: Set<String> = []
        // Exports of subcollections alone have no top-level collection: their bundles query groups.
        let key = survey.topLevelCollections.isEmpty ? "collection_group" : "collection"
        for id in survey.topLevelCollections.isEmpty ? survey.collections.map(\.collection) : survey.topLevelCollections {
            guard let collection = collections[id] else { continue }
            let bundle = uniqueIdentifier(for: id, taken: &ids)
            let hidden = Set(sensitive.first { $0.collection == id }?.fields ?? [])
            lines.append("  # \(id): \(plural(collection.documents, "document")); \(fieldSummary(collection, hiding: hidden))")
            lines += ["  - id: \(quoted(bundle))", "    queries:"]
            let filter = publishFilter(collection, excluding: hidden)
            if let field = newestFirstField(collection, excluding: hidden) {
                let missing = collection.documents - field.documents
                lines += ["      \(quoted(bundle + "-latest")):", "        \(key): \(quoted(id))"] + filter
                lines.append("        order_by: [[\(quoted(field.path)), desc]]  # its most common timestamp field"
                    + (missing > 0 ? "; the \(plural(missing, "document")) without it cannot match" : ""))
                if field.types.contains("null") {
                    lines.append("        # some documents hold null there (drafts?): they sort after every time, descending")
                }
                lines.append("        limit: 20")
            } else {
                lines += ["      \(quoted(bundle + "-first")):", "        \(key): \(quoted(id))"] + filter + ["        limit: 20  # in document id order"]
            }
        }
        let groups = survey.collections.filter { !survey.topLevelCollections.contains($0.collection) }
        if !groups.isEmpty, !survey.topLevelCollections.isEmpty {
            lines += ["", "# Nested collections, for queries with collection_group: (all collections of that id) or parent:"]
            lines += groups.map { "#   \($0.collection): \(plural($0.documents, "document"))" }
        }
        return lines
    }

    /// Per collection, the field paths whose last segment names something sensitive.
    private static func sensitiveFields(_ collections: some Sequence<ExposureReport.CollectionExposure>) -> [(collection: String, fields: [String])] {
        collections.compactMap { collection in
            let fields = collection.fields.map(\.path).filter { path in
                guard let last = try? FieldPath(serverFormat: path).segments.last else { return false }
                return SensitiveValue.named(last) != nil
            }
            return fields.isEmpty ? nil : (collection.collection, fields)
        }.sorted { UTF8Order.compare($0.collection, $1.collection) == .less }
    }

    /// The top-level timestamp field most documents carry (only timestamps), ties by path.
    /// The most common top-level timestamp field, nulls allowed (drafts not yet published
    /// often hold null there; ordered descending, they come last).
    private static func newestFirstField(_ collection: ExposureReport.CollectionExposure, excluding hidden: Set<String>) -> ExposureReport.FieldExposure? {
        collection.fields
            .filter { ($0.types == ["timestamp"] || $0.types == ["null", "timestamp"]) && !$0.path.contains(".") && !hidden.contains($0.path) }
            .max { ($0.documents, $1.path) < ($1.documents, $0.path) }
    }

    /// `title (string, 24), tags (array, 20), …`: the top-level fields, most common first.
    /// The fields whose names say whether a document is published, and the filter to keep
    /// what is, by the type the field holds.
    private static let publishFields: [(name: String, boolean: String, string: String?)] = [
        ("published", "true", "published"), ("status", "true", "published"), ("visibility", "true", "public"),
        ("isPublished", "true", nil), ("public", "true", nil), ("draft", "false", nil),
    ]

    /// A `where:` filter on a publish-like field, commented out, with why: without it drafts
    /// ship too. Empty when the collection has no such field.
    private static func publishFilter(_ collection: ExposureReport.CollectionExposure, excluding hidden: Set<String>) -> [String] {
        for candidate in publishFields {
            guard let field = collection.fields.first(where: { $0.path.lowercased() == candidate.name.lowercased() && !hidden.contains($0.path) }) else { continue }
            let value: String
            if field.types == ["boolean"] {
                value = candidate.boolean
            } else if field.types == ["string"], let string = candidate.string {
                value = quoted(string)
            } else {
                continue
            }
            return [
                "        # \(quoted(field.path)) looks like it says what is published: without a filter on it, drafts are public",
                "        # too. Uncomment (and check the value) to publish only what is:",
                "        # where: [[\(quoted(field.path)), ==, \(value)]]",
            ]
        }
        return []
    }

    private static func fieldSummary(_ collection: ExposureReport.CollectionExposure, hiding hidden: Set<String>) -> String {
        let fields = collection.fields.filter { !$0.path.contains(".") && !hidden.contains($0.path) }
            .sorted { ($0.documents, $1.path) > ($1.documents, $0.path) }
        let shown = fields.prefix(8).map { "\($0.path) (\($0.types.joined(separator: "|")), \($0.documents))" }
        return "fields: " + shown.joined(separator: ", ") + (fields.count > shown.count ? ", and \(fields.count - shown.count) more" : "")
    }

    /// A bundle id (and query-name stem) for a collection id: characters ids may not hold become
    /// `-`; a second collection that comes out the same gets a number.
    private static func uniqueIdentifier(for collection: String, taken: inout Set<String>) -> String {
        var stem = String(collection.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar)) ? Character(scalar) : "-"
        }.prefix(80))
        if !(stem.first.map { $0.isLetter || $0.isNumber } ?? false) { stem = "c" + stem }
        var candidate = stem
        var number = 2
        while !taken.insert(candidate).inserted {
            candidate = "\(stem)-\(number)"
            number += 1
        }
        return candidate
    }

    /// `path` (relative to the working directory) relative to `directory`; an absolute path as it is.
    private static func relative(_ path: String, to directory: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        func components(_ relative: String) -> [String] {
            URL(fileURLWithPath: relative, relativeTo: workingDirectory).standardizedFileURL.pathComponents
        }
        let target = components(path)
        let base = components(directory.isEmpty ? "." : directory)
        let common = zip(target, base).prefix { $0 == $1 }.count
        return (Array(repeating: "..", count: base.count - common) + target[common...]).joined(separator: "/")
    }

    /// `text` as a YAML scalar: plain when it reads back as that string (an identifier-like
    /// word that YAML takes for no boolean, null or number), else double-quoted in JSON's string
    /// syntax, which YAML reads the same.
    static func quoted(_ text: String) -> String {
        let plain = text.utf8.first.map { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 == UInt8(ascii: "_") } == true
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "_-./".unicodeScalars.contains($0)) }
            && !["true", "false", "yes", "no", "on", "off", "null", "y", "n"].contains(text.lowercased())
        if plain { return text }
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
