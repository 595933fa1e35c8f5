import Crypto
import FirestoreModel
import Foundation
import PipelineLanguage

/// What a build knows of earlier publishes, and where it learned it.
///
/// In order: the output's own state file (when it belongs to the published manifest); what the
/// output directory publishes; `previous:`/`--previous` (a directory's state file or published
/// site, the deployed site's URL, or `none` for a new site). With none of them, earlier
/// publishes are unknown: bundle times then start at the wall clock, the one time known to be
/// later than anything published before (design.md, "Returning clients").
struct PreviousState: Sendable {
    /// Nil when nothing is known of earlier publishes.
    var history: SiteHistory?
    /// The earliest `createTime` a changed bundle may take when `history` is nil.
    var floor: Timestamp
    /// Where the history came from, for the report (`site/.bundlepress-state.json`, a URL, …).
    var source: String
    var warnings: [String] = []

    /// Finds the previous state for a build of `outputDirectory` with snapshot time `snapshotTime`.
    /// - Parameters:
    ///   - publishedManifest: the bytes of the manifest the output publishes now, if any.
    ///   - repair: whether a staged state left by a killed build may be moved or removed (not in a dry run).
    ///   - now: the wall clock, for a build that knows nothing of earlier publishes.
    static func find(
        outputDirectory: String, publishedManifest: Data?, previous: PreviousSite?, snapshotTime: Timestamp, repair: Bool, now: Date
    ) throws(PreviousSiteFailure) -> PreviousState {
        let store = SiteHistoryStore(outputDirectory: outputDirectory)
        let (history, problem) = store.load(manifestSHA256: publishedManifest.map { SHA256.hash(data: $0).hex }, repair: repair)
        if let history {
            return PreviousState(history: history, floor: snapshotTime, source: store.path)
        }
        if publishedManifest != nil, let site = try PublishedSite.read(directory: outputDirectory) {
            let note = problem.map { ["\($0); the previous state is taken from what \(outputDirectory) publishes, which does not tell how long its leavers have been carried (they count from their own update times)"] } ?? []
            return PreviousState(history: site.history(), floor: snapshotTime, source: "\(outputDirectory)/bundles/manifest.json", warnings: note)
        }
        switch previous {
        case .none?:
            return PreviousState(history: nil, floor: snapshotTime, source: "none (a new site)")
        case .directory(let directory)?:
            let other = SiteHistoryStore(outputDirectory: directory)
            let manifest = FileManager.default.contents(atPath: SitePublisher(outputDirectory: directory).manifestPath)
            if let history = other.load(manifestSHA256: manifest.map { SHA256.hash(data: $0).hex }, repair: false).history {
                return PreviousState(history: history, floor: snapshotTime, source: other.path)
            }
            guard let site = try PublishedSite.read(directory: directory) else {
                throw PreviousSiteFailure(source: directory, message: "holds neither \(SiteHistory.fileName) nor bundles/manifest.json; point previous at an earlier output directory, or set it to none for a new site")
            }
            return PreviousState(history: site.history(), floor: snapshotTime, source: "\(directory)/bundles/manifest.json")
        case .url(let url)?:
            guard let site = try PublishedSite.fetch(url: url) else {
                return PreviousState(
                    history: nil, floor: snapshotTime, source: "none (\(url) publishes no manifest yet)",
                    warnings: ["\(url) answers 404 for bundles/manifest.json: nothing was published there yet, so this is built as a new site"])
            }
            return PreviousState(history: site.history(), floor: snapshotTime, source: url)
        case nil:
            let clock = Timestamp(secondsSinceEpoch: now.timeIntervalSince1970)
            let warning = "\(outputDirectory) holds no previous state (\(SiteHistory.fileName)) and previous: is not set, so earlier publishes are unknown: "
                + "changed bundles are dated \(max(clock, snapshotTime).rfc3339) (the wall clock), so that apps holding an earlier build do not skip them, "
                + "later than the data they hold (\(snapshotTime.rfc3339)): apps that also listen to these queries may miss changes made in between. "
                + "Set previous: (or --previous) to the deployed site's URL or to a directory holding the last output, or to none for a site never published before"
            return PreviousState(history: nil, floor: clock, source: "unknown", warnings: [warning])
        }
    }
}
