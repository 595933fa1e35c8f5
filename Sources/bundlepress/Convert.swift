import ArgumentParser
import ExportReader
import FirestoreModel
import Foundation

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the documents of any supported export as Firestore REST Document NDJSON.",
        discussion: """
            Reads every INPUT (any format build reads, detected or set with --format; a managed \
            or emulator export is named by its folder or metadata file) and writes one canonical \
            REST Document per line, sorted by name: the form `format: rest-ndjson` reads back \
            losslessly. Names and same-database references are re-rooted to --project and \
            --database, as build re-roots them to pipeline.yml's project: and database:; \
            without --project, to the project and database the input names (managed and \
            emulator exports, REST names), asked for only when it names none or several. \
            Useful to inspect a backup or to move data between tools.

            Reference: docs/inputs.md (the formats, what each loses, type hints).

            Examples:
              bundlepress convert backups/2026-11-24 -o backup.ndjson        (the project from the export)
              bundlepress convert emulator-data | head -3
              bundlepress convert users.json --format firestore-export-import --project my-app --hints timestamps=createdAt
            """
    )

    @Argument(help: "Export files or folders.")
    var inputs: [String]

    @Option(help: "The format of every input (\(ExportFormat.allCases.filter(\.isSupported).map(\.rawValue).joined(separator: ", "))); detected when omitted.")
    var format: ExportFormat?

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp("Types the input format cannot tell, as KIND=FIELD[,FIELD…] (repeatable).", discussion: "KIND is one of \(TypeHints.Kind.allCases.map(\.rawValue).joined(separator: ", ")), as in pipeline.yml's hints:."))
    var hints: [String] = []

    @Option(help: "The project the output names are in; default: the one the input names (managed and emulator exports, REST names).")
    var project: String?

    @Option(help: "The database the output names are in; default: the input's with its project, else (default).")
    var database: String?

    @Option(name: .shortAndLong, help: "The output file; standard output when omitted.")
    var output: String?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one INPUT") }
        _ = try typeHints()
    }

    func run() throws {
        HeapTuning.applyForReadingExports()
        var terminal = Terminal()
        let hints = try typeHints()
        var converter = ExportConverter(reader: ExportReader(target: try target(hints: hints, terminal: &terminal)))
        for input in inputs {
            do {
                try converter.add(input, format: format, hints: hints)
            } catch {
                terminal.error(error.description)
                throw ExitStatus.code(for: error)
            }
        }
        let bytes = Data(converter.restNDJSON())
        guard let output else {
            FileHandle.standardOutput.write(bytes)
            return
        }
        do {
            try bytes.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            terminal.error("\(output): cannot write the file: \(error.localizedDescription)")
            throw ExitStatus.ioError
        }
    }

    /// `--hints` as ``TypeHints``: each value `KIND=FIELD[,FIELD…]`.
    /// `--project` and `--database`, else the database the inputs name: asked for only when
    /// the inputs name none, or several.
    private func target(hints: TypeHints, terminal: inout Terminal) throws -> DatabaseID {
        if let project { return DatabaseID(project: project, database: database ?? DatabaseID.defaultDatabase) }
        let named: [DatabaseID]
        do {
            named = try ExportConverter.namedDatabases(of: inputs, format: format, hints: hints)
        } catch {
            terminal.error(error.description)
            throw ExitStatus.code(for: error)
        }
        switch named.count {
        case 1:
            return database.map { DatabaseID(project: named[0].project, database: $0) } ?? named[0]
        case 0:
            terminal.error("the input names no project (its format keeps no document names): give --project, the Firebase project id its names are to be in")
        default:
            terminal.error("the inputs name several databases (\(named.map(\.resourceName).joined(separator: ", "))): give --project (and --database) for the output's names")
        }
        throw ExitCode.validationFailure
    }

    private func typeHints() throws -> TypeHints {
        var result = TypeHints()
        for hint in hints {
            let parts = hint.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let kind = TypeHints.Kind(rawValue: parts[0]) else {
                throw ValidationError("--hints \(hint): expected KIND=FIELD[,FIELD…] with KIND one of \(TypeHints.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            for field in parts[1].split(separator: ",").map(String.init) {
                let path: FieldPath
                do {
                    path = try FieldPath(serverFormat: field)
                    guard !path.isDocumentKey else { throw ValidationError("__name__ is the document's name, not a field") }
                    try result.add(path, as: kind)
                } catch {
                    throw ValidationError("--hints \(hint): `\(field)`: \(error)")
                }
            }
        }
        return result
    }
}

extension ExportFormat: ExpressibleByArgument {}
