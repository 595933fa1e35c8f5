import Publishing

extension BuildReport {
    /// What `build` prints: a line per bundle (`changedOnly`, or when up to date: per new or
    /// changed bundle), one per removed bundle, the totals, and the old files kept or deleted.
    func summary(changedOnly: Bool = false) -> String {
        var lines: [String] = []
        for bundle in bundles where !(changedOnly || upToDate) || bundle.status != .unchanged {
            let returning = [counted(bundle.leavers, "leaver"), "\(bundle.missing) deleted"].filter { !$0.hasPrefix("0 ") }
            let extra = returning.isEmpty ? "" : " (\(returning.joined(separator: ", ")))"
            lines.append(
                "  \(bundle.file)  \(counted(bundle.documents, "doc"))\(extra), \(counted(bundle.namedQueries.count, "query", "queries")), "
                    + "\(formatBytes(bundle.bytes)) → \(formatBytes(bundle.gzipBytes)) gzip  (\(bundle.status.rawValue))")
        }
        lines += removedBundles.map { "  \($0)  (removed)" }
        lines.append(totals)
        if !retention.retained.isEmpty || !retention.deleted.isEmpty {
            lines.append("Old files: \(retention.retained.count) kept for clients of older manifests, \(retention.deleted.count) \(dryRun ? "would be " : "")deleted")
        }
        return lines.joined(separator: "\n")
    }

    /// What `build --verbose` adds: the stages' times and the compressor.
    func details(gzipLevel: Int) -> String {
        let stages = "read \(String(format: "%.2f", timings.read)) s, bundles \(String(format: "%.2f", timings.bundles)) s, publish \(String(format: "%.2f", timings.publish)) s"
        return "Stages: \(stages)\nCompressor: \(compressor), gzip_level \(gzipLevel)"
    }

    /// The line of totals: bundles by status, inputs, sizes, times and the manifest.
    var totals: String {
        if upToDate {
            return "Up to date: the inputs, config, binary and published site are as the last build left them; "
                + "\(counted(bundles.count, "bundle")) unchanged, \(String(format1: seconds)) s → \(outputDirectory)/bundles/manifest.json"
        }
        let verb = dryRun ? "Dry run, nothing written: would build" : "Built"
        let manifestState = manifestChanged ? (dryRun ? " (would change)" : "") : " (unchanged)"
        return "\(verb) \(counted(bundles.count, "bundle")) (\(count(.new)) new, \(count(.changed)) changed, \(count(.unchanged)) unchanged, \(removedBundles.count) removed) "
            + "from \(counted(inputDocuments, "document")) in \(counted(inputFiles, "file")): "
            + "\(formatBytes(totalBytes)) raw, \(formatBytes(totalGzipBytes)) gzip, snapshot \(snapshotTime), site time \(siteTime), "
            + "\(String(format1: seconds)) s → \(outputDirectory)/bundles/manifest.json\(manifestState)"
    }
}
