extension BuiltBundle {
    /// The raw and gzip files, to publish under their content-hashed names.
    var siteFiles: [SitePublisher.File] {
        [
            SitePublisher.File(name: fileName, content: .scratchFile(path: files.rawPath, size: files.byteCount)),
            SitePublisher.File(name: gzipFileName, content: .scratchFile(path: files.gzipPath, size: files.gzipByteCount)),
        ]
    }
}

extension BuiltSnapshot {
    /// The JSON file, to publish under its content-hashed name.
    var siteFile: SitePublisher.File { SitePublisher.File(name: name, content: .scratchFile(path: path, size: byteCount)) }
}

extension WrittenSite {
    /// Every file to publish under `bundles/`: each bundle's two, and each snapshot once (a
    /// document two bundles list has one snapshot file: the same bytes under the same name).
    var siteFiles: [SitePublisher.File] {
        var snapshotNames: Set<String> = []
        return bundles.flatMap(\.siteFiles) + snapshots.flatMap(\.snapshots).filter { snapshotNames.insert($0.name).inserted }.map(\.siteFile)
    }
}
