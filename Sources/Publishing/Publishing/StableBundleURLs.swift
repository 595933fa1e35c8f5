import FirestoreModel
import Foundation
import Hosting
import PipelineLanguage
import SitePolicy
import SystemSupport

/// The extension's URLs for the bundles of its specs (`extension:`): `bundles/<specId>` for a
/// spec without parameters, `bundles/<specId>/<param>/<value>…` (parameters in name order, an
/// array parameter's values joined by commas) otherwise. An app that fetched the extension's
/// `/bundles/<specId>?param=value` changes only that URL (docs/migrating-from-the-extension.md).
///
/// The files are the content-hashed bundles again (hard links, or copies), replaced at each build, so they are
/// served with revalidation: `max-age` is the spec's `clientCache` and `s-maxage` its
/// `serverCache` (0 when unset, as the extension's function sends no caching header then), in
/// every header file. Everything here is read from the manifest, so an up-to-date build renders
/// the same header rules. On Netlify the extension's own URLs, `/bundles/<specId>?param=value`,
/// are rewritten to the stable paths by a marked block of `_redirects` (``NetlifyQueryRedirects``).
struct StableBundleURLs {
    /// One copy: the stable path, relative to the output, and the bundle's published URL.
    struct Copy: Equatable {
        var path: String
        var source: String
    }

    let copies: [Copy]
    /// The header rules of the stable paths, one per spec, before the site's own.
    let rules: [HeaderRule]
    /// The query-string rewrites of the specs with parameters, for Netlify.
    let redirects: NetlifyQueryRedirects

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
        var mappings: [(path: String, parameters: [String])] = []
        for entry in manifest where entry.stableURL != nil {
            guard let spec = entry.spec, let parameters = entry.specParameters, !parameters.isEmpty else { continue }
            let mapping = (path: "/bundles/\(spec)", parameters: parameters.keys.sorted { UTF8Order.compare($0, $1) == .less })
            if !mappings.contains(where: { $0 == mapping }) { mappings.append(mapping) }
        }
        redirects = NetlifyQueryRedirects(mappings: mappings.enumerated().sorted { ($0.element.parameters.count, $1.offset) > ($1.element.parameters.count, $0.offset) }.map(\.element))
    }

    /// `policy` with the stable paths' rules first.
    func policy(over policy: HeaderPolicy) -> HeaderPolicy {
        HeaderPolicy(rules: rules + policy.rules, cors: policy.cors)
    }

    /// The files ``write(into:replacing:owned:)`` puts in place, to claim before (``OwnedFiles``).
    var targets: [OwnedFiles.Target] { copies.map { OwnedFiles.Target(path: $0.path, content: nil) } }

    /// Writes the `_redirects` block, puts each copy in place, and removes the stable paths
    /// `previous` (the manifest this build replaces) had that this build has not, with the
    /// folders they leave empty, of the files BundlePress wrote (`owned`).
    ///
    /// A copy is a hard link to the published bundle, staged beside the stable path and renamed
    /// over it in one atomic step (``DurableFiles/replaceAtomically(path:stage:)``); where the
    /// file system has no hard links, the bundle is copied there, streamed and flushed, never
    /// held whole in memory. A stable path that already holds its bundle is left as it is.
    func write(into outputDirectory: String, replacing previous: [Manifest.Entry], owned: OwnedFiles) throws(PublishError) {
        try writeRedirects(into: outputDirectory)
        func inOutput(_ path: String) -> String { (outputDirectory as NSString).appendingPathComponent(path) }
        for copy in copies where !Self.isInPlace(inOutput(copy.path), copying: inOutput(copy.source)) {
            let target = inOutput(copy.path)
            let folder = (target as NSString).deletingLastPathComponent
            do throws(PublishError) {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw PublishError(path: folder, message: "cannot create the folder of a stable URL: \(error.localizedDescription)")
                }
                try DurableFiles.replaceAtomically(path: target) { staged throws(PublishError) in
                    guard link(inOutput(copy.source), staged) != 0 else { return }
                    let file = try OutputFile(creating: staged)
                    try FileChunks.forEach(ofFile: inOutput(copy.source)) { chunk throws(PublishError) in try file.append(chunk) }
                    try file.finish()
                }
            } catch {
                throw PublishError(path: target, message: "cannot put the stable copy of \(copy.source) in place: \(error.message)")
            }
        }
        let kept = Set(copies.map(\.path))
        for gone in Set(previous.compactMap(\.stableURL)).subtracting(kept) where owned.owns(gone) {
            unlink(inOutput(gone))
            // The folders it leaves empty, up to `bundles/` (rmdir refuses one that is not empty).
            var folder = (gone as NSString).deletingLastPathComponent
            while (folder as NSString).pathComponents.count > 1, rmdir(inOutput(folder)) == 0 {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
    }

    /// True when `target` is already `source`: a hard link to it, or a copy of its bytes (a
    /// build that publishes the same bundle leaves its stable URL as it is).
    private static func isInPlace(_ target: String, copying source: String) -> Bool {
        guard let existing = FileStamp(path: target), existing.isRegularFile, let bundle = FileStamp(path: source) else { return false }
        if (existing.device, existing.inode) == (bundle.device, bundle.inode) { return true }
        return existing.size == bundle.size && FileChunks.sameContent(target, source)
    }

    /// Puts the `_redirects` block in place in the output's `_redirects` (the rest of the file
    /// kept), or removes the block; the file is written only when its text changes.
    private func writeRedirects(into outputDirectory: String) throws(PublishError) {
        let target = (outputDirectory as NSString).appendingPathComponent(NetlifyQueryRedirects.path)
        let existing = FileManager.default.contents(atPath: target).map { String(decoding: $0, as: UTF8.self) }
        let merged: String?
        do throws(MarkedBlock.Unterminated) {
            merged = try redirects.placed(in: existing)
        } catch {
            throw PublishError(unterminated: error, path: target)
        }
        guard merged != existing else { return }
        guard let merged else {
            do {
                try FileManager.default.removeItem(atPath: target)
            } catch {
                throw PublishError(path: target, message: "cannot remove the file, which held only bundlepress's rules: \(error.localizedDescription)")
            }
            return
        }
        try DurableFiles.replaceAtomically(path: target, with: Array(merged.utf8))
    }
}

extension HeaderPolicy {
    /// This policy with, first, the rules of the stable URLs of the spec bundles the site in
    /// `outputDirectory` publishes, read from its manifest (none without one): the policy its
    /// header files are rendered from, for `serve` to answer with the same.
    public func withStableBundleURLs(ofSiteIn outputDirectory: String) -> HeaderPolicy {
        let bundles = SitePublisher(outputDirectory: outputDirectory).publishedManifest().published?.manifest.bundles ?? []
        return StableBundleURLs(manifest: bundles).policy(over: self)
    }
}
