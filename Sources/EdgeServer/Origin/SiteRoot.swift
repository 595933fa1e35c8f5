import SystemSupport

/// The site directory, and which request paths name a file in it.
///
/// Hidden from clients, with a 404: any segment starting with `.` (dotfiles, `.bundlepress`
/// staging), `.gz` files (they are representations of the file without `.gz`, not resources),
/// anything that is not a regular file, directories without `index.html`, and files whose real
/// path (symbolic links resolved) is outside the real path of the site directory.
struct SiteRoot: Sendable {
    /// The site directory as given (without a trailing `/`); resolved again for each containment
    /// check so that a site published by swapping a symbolic link is followed.
    let directory: String

    init(directory: String) {
        var trimmed = Substring(directory)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        self.directory = trimmed == "/" ? "" : String(trimmed)
    }

    /// Finds the files for a normalised request path (see ``ServerRequest/path``), or nil for a 404.
    /// Costs two or three `stat` calls and no reads.
    func locate(_ requestPath: String) -> ResourceLocation? {
        let names = requestPath.split(separator: "/")
        guard !names.contains(where: { $0.hasPrefix(".") }), names.last?.hasSuffix(".gz") != true else { return nil }
        var sitePath = names.isEmpty ? "" : "/" + names.joined(separator: "/")
        var identity = FileStamp(path: fileSystemPath(sitePath))
        if identity?.kind == .directory {
            sitePath += "/index.html"
            identity = FileStamp(path: fileSystemPath(sitePath))
        } else if requestPath.hasSuffix("/") && requestPath != "/" {
            return nil
        }
        var location = ResourceLocation(sitePath: sitePath, path: fileSystemPath(sitePath), identity: nil, gzip: nil)
        location.identity = identity.flatMap { $0.kind == .regular ? $0 : nil }
        location.gzip = FileStamp(path: location.gzipPath).flatMap { $0.kind == .regular ? $0 : nil }
        guard location.identity != nil || location.gzip != nil else { return nil }
        return location
    }

    /// Whether every file of `location` really is inside the site directory once symbolic links
    /// are resolved (a link to `/etc/hostname` is not).
    func contains(_ location: ResourceLocation) -> Bool {
        guard let root = Self.realPath(fileSystemPath("")) else { return false }
        let files = (location.identity == nil ? [] : [location.path]) + (location.gzip == nil ? [] : [location.gzipPath])
        return files.allSatisfy { file in
            guard let real = Self.realPath(file) else { return false }
            return real.hasPrefix(root == "/" ? "/" : root + "/")
        }
    }

    /// The file-system path of a site path (`""` is the directory itself).
    private func fileSystemPath(_ sitePath: String) -> String {
        sitePath.isEmpty && directory.isEmpty ? "/" : directory + sitePath
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
