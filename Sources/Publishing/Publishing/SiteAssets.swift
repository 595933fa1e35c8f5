import Foundation

/// The browser side of a site: `bundlepress.js` for apps, and the explorer page (`index.html` and
/// the ES modules it imports). Their sources live in the repository's `site/`; the
/// EmbedSiteAssets build plugin compiles them into this target, so a build into any output
/// directory can give it these files, and `bundlepress serve` can show the explorer, whichever
/// directory the binary runs from.
public enum SiteAssets {
    /// One file of the site's browser side.
    public struct File: Sendable, Equatable {
        /// The file name (`index.html`, `bundlepress.js`, …).
        public var name: String
        /// The UTF-8 text of the file.
        public var contents: String
    }

    /// Every file, sorted by name: the explorer page's (which imports `bundlepress.js` too).
    public static var files: [File] { embedded }

    /// The loader apps import, published as `bundles/bundlepress.js`.
    static let loaderName = "bundlepress.js"

    /// Where the explorer page finds the manifest: the `content` of its `bundlepress-manifest`
    /// meta element, relative to the page.
    static let manifestMeta = #"<meta name="bundlepress-manifest" content="bundles/manifest.json">"#

    /// The files a build writes, by path relative to the output: the loader under `bundles/`,
    /// and with `explorer` (a folder inside the output, `""` for the output itself) the
    /// explorer page's files there, the page pointed at the site's manifest.
    public static func outputFiles(explorer: String?) -> [(path: String, bytes: [UInt8])] {
        let loader = files.filter { $0.name == loaderName }.map { ("bundles/\($0.name)", Array($0.contents.utf8)) }
        guard let explorer else { return loader }
        let depth = explorer.split(separator: "/").count
        let manifest = manifestMeta.replacingOccurrences(of: "bundles/manifest.json", with: String(repeating: "../", count: depth) + "bundles/manifest.json")
        return loader + files.map { file in
            let contents = file.name == "index.html" ? file.contents.replacingOccurrences(of: manifestMeta, with: manifest) : file.contents
            return (explorer.isEmpty ? file.name : "\(explorer)/\(file.name)", Array(contents.utf8))
        }
    }
}
