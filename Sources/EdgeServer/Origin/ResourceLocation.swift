/// Where the representations of one requested resource are on disk, with their stamps.
///
/// `identityFile` is the file itself; `gzipFile` is the `.gz` next to it. At least one of them
/// exists; with only the `.gz`, the identity representation is decompressed from it.
struct ResourceLocation: Sendable, Hashable {
    /// One file on disk and its stamp when it was looked at.
    struct File: Sendable, Hashable {
        var path: String
        var stamp: FileStamp
    }

    /// The site path of the resource after directory resolution (`/` → `/index.html`), which
    /// the header policy and the content type are chosen by.
    var sitePath: String
    var identityFile: File?
    var gzipFile: File?
}
