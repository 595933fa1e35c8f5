import Foundation

/// Where a build finds what was published before when its output directory has no state
/// (`previous:` in pipeline.yml, `--previous` on the command line): a site build that starts
/// from a fresh checkout has no earlier output, yet its clients hold earlier bundles.
public enum PreviousSite: Sendable, Equatable {
    /// Nothing was published before: a new site (bundle times start at the snapshot time).
    case none
    /// A directory holding an earlier output: its `.bundlepress-state.json`, or else its
    /// published `bundles/manifest.json` and the bundles it lists.
    case directory(String)
    /// The deployed site's base URL (or its manifest's URL): the manifest and the bundles it
    /// lists are fetched and what they hold is taken as the previous state.
    case url(String)

    /// Reads `none`, an `http(s)://` URL, or a directory (relative paths against `base`).
    public init(parsing text: String, relativeTo base: String) throws(PreviousSiteError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "none" {
            self = .none
        } else if trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://") {
            guard let url = URL(string: trimmed), url.host != nil else { throw PreviousSiteError(text: text) }
            self = .url(trimmed)
        } else if !trimmed.isEmpty, !trimmed.contains("://") {
            self = .directory(trimmed.hasPrefix("/") || base == "." ? trimmed : (base as NSString).appendingPathComponent(trimmed))
        } else {
            throw PreviousSiteError(text: text)
        }
    }
}

/// A `previous:` value that is neither `none`, an http(s) URL nor a directory.
public struct PreviousSiteError: Error, Sendable, CustomStringConvertible {
    public var text: String

    public var description: String {
        "previous must be none, the deployed site's http(s) URL or a directory holding an earlier output, found \"\(text)\""
    }
}
