import Foundation
import Hosting
import PipelineLanguage
import SitePolicy

/// The files a build writes beside the bundles, snapshots and manifest, all made from the config
/// and the manifest: the loader and, with `explorer:`, the explorer page (``SiteAssets``); the
/// header files (``HostingFiles``); and the extension's stable URLs with their `_redirects` block
/// (``StableBundleURLs``). A build that finds nothing changed puts back the same files.
struct SiteExtras {
    /// The loader and the explorer's files, by path relative to the output.
    let assets: [(path: String, bytes: [UInt8])]
    let stable: StableBundleURLs
    let hosting: HostingFiles

    /// The extras of a site whose manifest lists `bundles`.
    init(bundles: [Manifest.Entry], config: PipelineConfig) {
        assets = SiteAssets.outputFiles(explorer: config.explorer)
        stable = StableBundleURLs(manifest: bundles)
        // The config's header policy with the stable URLs' rules first, narrowed to what the build
        // writes, so that a site generator's files in the same output keep their own headers.
        hosting = HostingFiles(policy: stable.policy(over: config.headerPolicy).forProductionHosts(explorer: config.explorer), publicDirectory: config.output)
    }

    /// Where the hosts will differ from the site's own header rules. Warnings about the built-in
    /// rules are left out: they concern names bundlepress never writes (README, "Deploying").
    var warnings: [String] {
        hosting.warnings.filter { !($0.rule?.hasPrefix("built-in ") ?? false) }.map(\.description)
    }

    /// Every file ``writeBeforePublishing(into:)`` and ``writeAfterPublishing(into:replacing:owned:)``
    /// write, to claim before (``OwnedFiles``): all but `_headers`, whose site rules stay
    /// (``MarkedBlock``), and `_redirects`, which shares its file the same way.
    var claims: [OwnedFiles.Target] {
        assets.map { OwnedFiles.Target(path: $0.path, content: .chunks([$0.bytes])) }
            + hosting.files.filter { !$0.isShared }.map { OwnedFiles.Target(path: $0.path, content: .chunks([$0.bytes])) }
            + stable.targets
    }

    /// Writes the loader, the explorer and the header files whose bytes differ from what
    /// `outputDirectory` holds, each one whole or not at all.
    func writeBeforePublishing(into outputDirectory: String) throws(PublishError) {
        for file in assets {
            _ = try DurableFiles.replaceIfChanged(path: (outputDirectory as NSString).appendingPathComponent(file.path), with: file.bytes)
        }
        _ = try hosting.write(into: outputDirectory)
    }

    /// Puts the stable URLs in place once the bundles they copy are published, with their
    /// `_redirects` block, and removes those of `previous` (the manifest replaced) that are gone.
    func writeAfterPublishing(into outputDirectory: String, replacing previous: [Manifest.Entry], owned: OwnedFiles) throws(PublishError) {
        try stable.write(into: outputDirectory, replacing: previous, owned: owned)
    }
}
