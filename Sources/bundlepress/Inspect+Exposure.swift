import ArgumentParser
import Foundation
import PipelineLanguage
import Publishing

extension Inspect {
    /// `inspect --exposure [site]`: what a published site exposes, as text or JSON.
    func reportExposure(terminal: inout Terminal) throws {
        let configFile = config.existingFile
        let pipeline = try configFile.map { file throws in try PipelineConfig.loadForCommand(file, terminal: &terminal) }
        let site = file ?? pipeline?.outputDirectory ?? "site"
        let report: ExposureReport
        do {
            report = try ExposureReport.read(siteDirectory: site, config: pipeline)
        } catch {
            terminal.error(error.description)
            throw ExitStatus.noInput
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(exposureText(report))
        }
    }

    private func exposureText(_ report: ExposureReport) -> String {
        let documents = report.collections.reduce(0) { $0 + $1.documents }
        var lines = [
            "\(report.site): \(counted(report.bundles.count, "bundle")) publish \(counted(documents, "document")) of \(counted(report.collections.count, "collection")) "
                + (report.config.map { "(the guard honours the fields: rules of \($0))" } ?? "(no config read: every finding is listed)"),
            "",
        ]
        for collection in report.collections {
            let bundles = collection.bundles ?? []
            lines.append("\(collection.collection): \(counted(collection.documents, "document")) in \(counted(bundles.count, "bundle")) (\(bundles.joined(separator: ", ")))")
            lines += fieldTable(collection.fields, indent: "  ")
            lines.append("")
        }
        for bundle in report.bundles {
            lines.append("bundle \(bundle.id)")
            for collection in bundle.collections {
                lines.append("  \(collection.collection): \(counted(collection.documents, "document"))")
                lines += fieldTable(collection.fields, indent: "    ")
            }
            lines.append("")
        }
        if report.findings.isEmpty {
            lines.append("guard: no field looks like personal data or a secret")
        } else {
            lines.append("guard: \(counted(report.findings.count, "field")) look\(report.findings.count == 1 ? "s" : "") like personal data or a secret")
            lines += report.findings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The fields as aligned columns: path, types, documents.
    private func fieldTable(_ fields: [ExposureReport.FieldExposure], indent: String) -> [String] {
        alignedColumns([["field", "types", "documents"]] + fields.map { [$0.path, $0.types.joined(separator: ", "), String($0.documents)] }, indent: indent)
    }
}
