import SystemSupport
/// Where the representations of one requested resource are on disk, with their stamps.
///
/// `path` is the file itself and `path + ".gz"` its gzip copy; at least one of them exists.
/// With only the `.gz`, the identity representation is decompressed from it.
struct ResourceLocation: Sendable, Hashable {
    /// The site path of the resource after directory resolution (`/` → `/index.html`), which
    /// the header policy and the content type are chosen by.
    var sitePath: String
    /// The file-system path of the identity file (which may not exist).
    let path: String
    /// `path + ".gz"`, made once: a request for a cached file may `stat` it.
    let gzipPath: String
    /// The identity file's stamp, or nil when there is none.
    var identity: FileStamp?
    /// The `.gz` file's stamp, or nil when there is none.
    var gzip: FileStamp?

    init(sitePath: String, path: String, identity: FileStamp?, gzip: FileStamp?) {
        self.sitePath = sitePath
        self.path = path
        gzipPath = path + ".gz"
        self.identity = identity
        self.gzip = gzip
    }

    /// Whether the files a response depends on are still the ones these stamps describe. A gzip
    /// response is the `.gz` file's bytes, with the fields made when they were read: it depends
    /// on the `.gz` alone. An identity response depends on the identity file (its absence means
    /// decompressing the `.gz`, which it then depends on too), and on the absence of a `.gz` when
    /// the client would take one. One `stat` call (two for identity in those cases), no reads.
    func isCurrent(sending coding: ContentCoding, clientAcceptsGzip: Bool) -> Bool {
        switch coding {
        case .gzip:
            return FileStamp(path: gzipPath) == gzip
        case .identity:
            guard FileStamp(path: path) == identity else { return false }
            let dependsOnGzip = identity == nil || (clientAcceptsGzip && gzip == nil)
            return !dependsOnGzip || FileStamp(path: gzipPath) == gzip
        }
    }
}
