import Foundation
import PipelineLanguage
import SitePolicy
import SystemSupport

/// The extension's URLs for the bundles of its specs (`extension:`): `bundles/<specId>` for a
/// spec without parameters, `bundles/<specId>/<param>/<value>…` (parameters in name order, an
/// array parameter's values joined by commas) otherwise. An app that fetched the extension's
/// `/bundles/<specId>?param=value` changes only that URL (docs/migrating-from-the-extension.md).
///
/// The files are copies of the content-hashed bundles, replaced at each build, so they are
/// served with revalidation: `max-age` is the spec's `clientCache` and `s-maxage` its
/// `serverCache` (0 when unset, as the extension's function sends no caching header then), in
/// every header file. Everything here is read from the manifest, so an up-to-date build renders
/// the same header rules.
struct StableBundleURLs {
    /// One copy: the stable path, relative to the output, and the bundle's published URL.
    struct Copy: Equatable {
        var path: String
        var source: String
    }

    let copies: [Copy]
    /// The header rules of the stable paths, one per spec, before the site's own.
    let rules: [HeaderRule]

    init(manifest: [Manifest.Entry]) {
        copies = manifest.compactMap { entry in entry.stableURL.map { Copy(path: $0, source: entry.url) } }
        var seen: Set<String> = []
        rules = manifest.compactMap { entry -> HeaderRule? in
            guard let spec = entry.spec, entry.stableURL != nil, seen.insert(spec).inserted else { return nil }
            let text = entry.specParameters?.isEmpty ?? true ? "/bundles/\(spec)" : "/bundles/\(spec)/**"
            let value = "public, max-age=\(entry.clientCache ?? 0), s-maxage=\(entry.serverCache ?? 0), must-revalidate"
            guard let pattern = try? PathPattern(text), let field = try? HeaderField(validatingName: "Cache-Control", value: value) else { return nil }
            return HeaderRule(pattern: pattern, fields: [field])
        }
    }

    /// `policy` with the stable paths' rules first.
    func policy(over policy: HeaderPolicy) -> HeaderPolicy {
        HeaderPolicy(rules: rules + policy.rules, cors: policy.cors)
    }

    /// Puts each copy in place, and removes the stable paths `previous` (the manifest this build
    /// replaces) had that this build has not, with the folders they leave empty: only files
    /// BundlePress wrote there are ever removed.
    ///
    /// A copy is a hard link to the published bundle, staged beside the stable path and renamed
    /// over it in one atomic step (``DurableFiles``); where the file system has no hard links,
    /// the bundle is copied there, streamed and flushed, never held whole in memory.
    func write(into outputDirectory: String, replacing previous: [Manifest.Entry]) throws(PublishError) {
        func inOutput(_ path: String) -> String { (outputDirectory as NSString).appendingPathComponent(path) }
        for copy in copies {
            let target = inOutput(copy.path)
            let folder = (target as NSString).deletingLastPathComponent
            let staged = (folder as NSString).appendingPathComponent(".\((target as NSString).lastPathComponent).tmp")
            do throws(PublishError) {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw PublishError(path: folder, message: "cannot create the folder of a stable URL: \(error.localizedDescription)")
                }
                unlink(staged)
                if link(inOutput(copy.source), staged) != 0 {
                    let file = try OutputFile(creating: staged)
                    try FileChunks.forEach(ofFile: inOutput(copy.source)) { chunk throws(PublishError) in try file.append(chunk) }
                    try file.finish()
                }
                try DurableFiles.rename(staged, to: target)
                try DurableFiles.syncDirectory(folder)
            } catch {
                unlink(staged)
                throw PublishError(path: target, message: "cannot put the stable copy of \(copy.source) in place: \(error.message)")
            }
        }
        let kept = Set(copies.map(\.path))
        for gone in Set(previous.compactMap(\.stableURL)).subtracting(kept) {
            unlink(inOutput(gone))
            // The folders it leaves empty, up to `bundles/` (rmdir refuses one that is not empty).
            var folder = (gone as NSString).deletingLastPathComponent
            while (folder as NSString).pathComponents.count > 1, rmdir(inOutput(folder)) == 0 {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
    }
}
