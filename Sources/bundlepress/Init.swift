import ArgumentParser
import Authoring
import ExportReader
import FirestoreModel
import Foundation
import PipelineLanguage

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a pipeline.yml that builds right away, from what your exports hold.",
        discussion: """
            Reads the exports (any format build reads, detected; by default every .json, \
            .ndjson and .jsonl file and every managed or emulator export folder under the \
            current directory, but site/, hidden folders and node_modules; files that are not \
            exports are listed and left out), reports the collections, their fields with types \
            and how many documents carry each, and the newest updateTime, then writes a config \
            with the project and database the documents name, the inputs, a redact: rule for \
            fields whose names look like personal data or secrets, and one bundle per top-level \
            collection whose named query returns its 20 newest documents by its most common \
            timestamp field. The config is checked by the same parser as build before it is \
            written; an existing file is never replaced without --force. Beside it goes \
            pipeline.schema.json (bundlepress schema), which its first line names for editors.

            With --from-extension it writes, instead of those bundles, extension: for the \
            bundle specs of the firestore-bundle-builder extension found in the exports \
            (collection bundles, or --extension-collection), each parameter with the values \
            found in the field its where compares it with; a spec it cannot read, or no spec \
            at all, is an error. See docs/migrating-from-the-extension.md.

            Reference: docs/inputs.md (the formats it reads), docs/pipeline.md (the keys it writes).

            Examples:
              bundlepress init
              bundlepress init exports/ backups/2026-11-24
              bundlepress init firestore-seed --config site-data.yml --force
              bundlepress init --from-extension exports/2026-11-28
            """
    )

    @Argument(help: "Export files or folders (default: the exports found under the current directory).")
    var inputs: [String] = []

    @Option(name: .shortAndLong, help: "The config file to write.")
    var config = ConfigOption.defaultFile

    @Flag(help: "Replace the config file if it exists.")
    var force = false

    @Option(help: "The project id to write (default: the one the exports' document names say).")
    var project: String?

    @Flag(help: "Write extension: for the firestore-bundle-builder extension's bundle specs found in the exports.")
    var fromExtension = false

    @Option(help: "With --from-extension: the collection holding the bundle specs (the extension's BUNDLESPEC_COLLECTION).")
    var extensionCollection = "bundles"

    func validate() throws {
        guard fromExtension || extensionCollection == "bundles" else {
            throw ValidationError("--extension-collection is an option of --from-extension")
        }
        if fromExtension { _ = try specCollection() }
    }

    /// `--extension-collection` as a collection path.
    private func specCollection() throws -> ResourcePath {
        guard let path = try? ResourcePath(parsing: extensionCollection), path.isCollection else {
            throw ValidationError("--extension-collection \"\(extensionCollection)\" is not a collection path (an odd number of segments, e.g. bundles)")
        }
        return path
    }

    func run() throws {
        var terminal = Terminal()
        if !force, FileManager.default.fileExists(atPath: config) {
            terminal.error("\(config) already exists; --force replaces it")
            throw ExitStatus.cannotCreate
        }
        let directory = (config as NSString).deletingLastPathComponent
        let schemaFile = (directory as NSString).appendingPathComponent("pipeline.schema.json")
        var survey = ExportSurvey(keepingDocuments: fromExtension)
        if inputs.isEmpty {
            // Not the site, nor the schema an earlier init wrote.
            survey.scan(".", excluding: ["site", schemaFile])
        } else {
            for input in inputs {
                do {
                    try survey.add(input)
                } catch {
                    terminal.error(error.description)
                    throw ExitStatus.code(for: error)
                }
            }
        }
        for skipped in survey.skipped { terminal.warning("not an export, left out: \(skipped.reason)") }
        guard !survey.inputs.isEmpty else {
            terminal.error(inputs.isEmpty ? "no Firestore export found under this directory (looked for .json, .ndjson and .jsonl files and export folders); name the exports: bundlepress init EXPORT…" : "the exports hold no documents")
            throw ExitStatus.noInput
        }
        print(report(survey))

        var specs: SpecSurvey?
        if fromExtension {
            let collection = try specCollection()
            do throws(SpecSurvey.Problem) {
                specs = try SpecSurvey(collection: collection, in: survey)
            } catch {
                terminal.error(error.description)
                switch error {
                case .noSpecs: throw ExitStatus.usage
                case .invalidSpec: throw ExitStatus.configError
                }
            }
            print(specReport(specs!))
        }

        let text = StarterConfig.yaml(for: survey, in: directory, project: project, schema: "./pipeline.schema.json", specs: specs)
        do {
            _ = try PipelineConfig.parse(yaml: text, file: config, baseDirectory: directory.isEmpty ? "." : directory)
        } catch {
            terminal.error("the config init made does not load (a bug; please report it): \(error)")
            throw ExitStatus.software
        }
        for (file, bytes) in [(schemaFile, try Schema.prettyJSON()), (config, Data(text.utf8))] {
            do {
                try bytes.write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                terminal.error("\(file): cannot write the file: \(error.localizedDescription)")
                throw ExitStatus.ioError
            }
        }
        let configOption = config == ConfigOption.defaultFile ? "" : " --config \(config)"
        let next = alignedColumns(
            [
                ["bundlepress build" + configOption, "# bundles, gzip copies and the manifest in site/"],
                ["bundlepress serve --watch" + configOption, "# the explorer page at http://127.0.0.1:8080/, rebuilt as you edit"],
            ], indent: "  ")
        print("\nWrote \(config) (and \(schemaFile), its JSON Schema for your editor). Next:\n" + next.joined(separator: "\n"))
    }

    /// The specs found, with each parameter's values (or a note that they are to be listed).
    private func specReport(_ specs: SpecSurvey) -> String {
        var lines = ["", "bundle specs in \(specs.collection): \(specs.specs.count)"]
        lines += alignedColumns(
            specs.specs.map { spec in
                let parameters = spec.parameters.map { parameter in
                    "\(parameter.name): " + (parameter.values.isEmpty ? "no values found, list them in \(config)" : counted(parameter.values.count, "value"))
                }
                return [spec.id, parameters.isEmpty ? "no parameters" : parameters.joined(separator: "; ")]
            },
            indent: "  ")
        return lines.joined(separator: "\n")
    }

    /// What the exports hold: inputs, collections with their fields, the newest updateTime.
    private func report(_ survey: ExportSurvey) -> String {
        var lines = survey.inputs.map { "\($0.path): \($0.format.displayName), \(counted($0.documents, "document"))" }
        lines.append("newest updateTime: \(survey.newestUpdateTime?.rfc3339 ?? "none (documents get the snapshot time)")")
        let topLevel = Set(survey.topLevelCollections)
        for collection in survey.collections {
            lines.append("")
            lines.append("\(collection.collection)\(topLevel.contains(collection.collection) ? "" : " (nested: a collection group)"): \(counted(collection.documents, "document"))")
            lines += alignedColumns(
                [["field", "types", "documents"]]
                    + collection.fields.map { [$0.path, $0.types.joined(separator: ", "), "\($0.documents) (\($0.documents * 100 / collection.documents) %)"] },
                indent: "  ")
        }
        return lines.joined(separator: "\n")
    }
}
