import Foundation
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

    /// The files ``write(into:owned:)`` puts in place, to claim before (``OwnedFiles``).
    var targets: [OwnedFiles.Target] { copies.map { OwnedFiles.Target(path: $0.path, content: nil) } }

    /// Puts each copy in place (``DurableFiles/replaceAtomically(path:with:)``, as the state and
    /// the manifest are), and removes the files under a spec's stable folder that no bundle of
    /// this build has, of those BundlePress wrote (`owned`).
    func write(into outputDirectory: String, owned: OwnedFiles) throws(PublishError) {
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
                if files.fileExists(atPath: (outputDirectory as NSString).appendingPathComponent(path), isDirectory: &isDirectory), !isDirectory.boolValue, !kept.contains(path), owned.owns(path) {
                    try? files.removeItem(atPath: (outputDirectory as NSString).appendingPathComponent(path))
                }
            }
        }
    }
}
