import Foundation
import PackagePlugin

/// Compiles the explorer page and browser modules (`site/*.html`, `*.js`, `*.css`) into the
/// target as string constants, so the `bundlepress` binary can give any output directory its
/// `index.html` and `bundlepress.js` without a second copy of them in the repository, and
/// without a resource bundle that must sit next to the executable.
///
/// SwiftPM re-runs build tool plugins only when the structure of a target's directory changes,
/// so `Plugins/EmbedSiteAssets/site` is a symbolic link to `site/`: adding or removing a file
/// there re-plans the build (otherwise a removed file would stay a missing input). Edits to a
/// file re-run the command through its input files.
@main
struct EmbedSiteAssets: BuildToolPlugin {
    static let extensions: Set<String> = ["html", "js", "css"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let site = context.package.directoryURL.appending(path: "site")
        let assets = try FileManager.default.contentsOfDirectory(at: site, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") && Self.extensions.contains($0.pathExtension) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "SiteAssets+Embedded.swift")
        return [
            .buildCommand(
                displayName: "Embedding site/ assets into \(target.name)",
                executable: try context.tool(named: "SiteAssetEmbedder").url,
                arguments: [output.path] + assets.map(\.path),
                inputFiles: assets,
                outputFiles: [output]
            )
        ]
    }
}
