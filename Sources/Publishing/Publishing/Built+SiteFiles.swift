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
