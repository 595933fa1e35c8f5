import SitePolicy

/// The files that make production hosts send the headers `bundlepress serve` sends, rendered
/// from the same ``SitePolicy/HeaderPolicy``:
///
/// | file (in the output directory) | read by |
/// |---|---|
/// | `_headers` | Netlify, Cloudflare Pages (it must sit at the publish root); shared with the site's own rules (``MarkedBlock``) |
/// | `.bundlepress-hosting/firebase-hosting.json` | Firebase Hosting: merged into the project's `firebase.json` |
/// | `.bundlepress-hosting/nginx.conf` | nginx: included in the site's `server { }` |
///
/// The last two are configuration, not content: the dot directory keeps them out of Firebase
/// deploys (`**/.*` is ignored) and the nginx snippet answers 404 for dot paths. Where a host
/// cannot express a rule exactly, ``warnings`` says which rule, on which host, and how.
public struct HostingFiles: Sendable {
    /// One generated file.
    public struct File: Sendable, Equatable {
        /// The path relative to the output directory, `/`-separated.
        public var path: String
        /// The file's bytes (UTF-8 text); for a shared file, the block's.
        public var bytes: [UInt8]
        /// True for a file the site keeps rules of its own in (`_headers`): ``bytes`` go into
        /// its ``MarkedBlock`` and the rest of the file stays the site's.
        public var isShared = false
    }

    /// The files, in the order of the table above.
    public let files: [File]
    /// Where a host will differ from the policy, in file order.
    public let warnings: [HostingWarning]

    /// Renders the files for `policy`.
    ///
    /// - Parameter publicDirectory: the site directory as `firebase.json` names it (its
    ///   `hosting.public`), relative to the Firebase project directory; usually pipeline.yml's
    ///   `output:` when `firebase.json` sits beside pipeline.yml.
    public init(policy: HeaderPolicy, publicDirectory: String) {
        let plan = HeaderPlan(policy)
        let headers = NetlifyHeadersFile(plan: plan)
        let firebase = FirebaseHostingFragment(plan: plan, publicDirectory: publicDirectory)
        let nginx = NginxLocationSnippet(plan: plan)
        files = [
            File(path: NetlifyHeadersFile.path, bytes: Array(headers.text.utf8), isShared: true),
            File(path: FirebaseHostingFragment.path, bytes: firebase.bytes),
            File(path: NginxLocationSnippet.path, bytes: Array(nginx.text.utf8)),
        ]
        warnings = headers.warnings + firebase.warnings + nginx.warnings
    }
}
