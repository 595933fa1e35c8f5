import Foundation
import Hosting
import PipelineLanguage
import SitePolicy

/// The extension's URLs for the bundles of its specs (`extension:`): `bundles/<specId>` for a
/// spec without parameters, `bundles/<specId>/<param>/<value>…` (parameters in name order, an
/// array parameter's values joined by commas) otherwise. An app that fetched the extension's
/// `/bundles/<specId>?param=value` changes only that URL (docs/migrating-from-the-extension.md).
///
/// The files are copies of the content-hashed bundles, replaced at each build, so they are
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
            let mapping = (path: "/bundles/\(spec)", parameters: parameters.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            if !mappings.contains(where: { $0 == mapping }) { mappings.append(mapping) }
        }
        redirects = NetlifyQueryRedirects(mappings: mappings.enumerated().sorted { ($0.element.parameters.count, $1.offset) > ($1.element.parameters.count, $0.offset) }.map(\.element))
    }

    /// `policy` with the stable paths' rules first.
    func policy(over policy: HeaderPolicy) -> HeaderPolicy {
        HeaderPolicy(rules: rules + policy.rules, cors: policy.cors)
    }

    /// Puts each copy in place (``DurableFiles/replaceAtomically(path:with:)``, as the state and
    /// the manifest are), removes the files under a spec's stable folder that no bundle of this
    /// build has, and writes the `_redirects` block.
    func write(into outputDirectory: String) throws(PublishError) {
        try writeRedirects(into: outputDirectory)
        let files = FileManager.default
        for copy in copies {
            let target = (outputDirectory as NSString).appendingPathComponent(copy.path)
            let bytes: [UInt8]
            do {
                try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: (outputDirectory as NSString).appendingPathComponent(copy.source))))
            } catch {
                throw PublishError(path: target, message: "cannot write the stable copy of \(copy.source): \(error.localizedDescription)")
            }
            try DurableFiles.replaceAtomically(path: target, with: bytes)
        }
        let kept = Set(copies.map(\.path))
        let folders = Set(copies.map { ($0.path as NSString).pathComponents.prefix(2).joined(separator: "/") })
        for folder in folders where !kept.contains(folder) {
            let root = (outputDirectory as NSString).appendingPathComponent(folder)
            for relative in (files.enumerator(atPath: root)?.allObjects as? [String]) ?? [] {
                let path = "\(folder)/\(relative)"
                var isDirectory: ObjCBool = false
                if files.fileExists(atPath: (outputDirectory as NSString).appendingPathComponent(path), isDirectory: &isDirectory), !isDirectory.boolValue, !kept.contains(path) {
                    try? files.removeItem(atPath: (outputDirectory as NSString).appendingPathComponent(path))
                }
            }
        }
    }

    /// Puts the `_redirects` block in place in the output's `_redirects` (the rest of the file
    /// kept), or removes the block; the file is written only when its text changes.
    func writeRedirects(into outputDirectory: String) throws(PublishError) {
        let target = (outputDirectory as NSString).appendingPathComponent(NetlifyQueryRedirects.path)
        let existing = FileManager.default.contents(atPath: target).map { String(decoding: $0, as: UTF8.self) }
        let merged = redirects.merged(into: existing)
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
