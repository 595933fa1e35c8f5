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
    /// When earlier publishes are unknown (a new site is not): the wall clock at the build.
    var unknownAt: Timestamp?
    /// Where the history came from, for the report (`site/.bundlepress-state.json`, a URL, …).
    var source: String
    /// What to tell the user, but for what ``warnings(outputDirectory:snapshotTime:)`` adds.
    private var notes: [String] = []

    /// Finds the previous state for a build of `outputDirectory`, before its inputs are read (the
    /// memory decoding a state takes is then there for the documents to reuse).
    /// - Parameters:
    ///   - publishedManifest: the bytes of the manifest the output publishes now, if any.
    ///   - fetchLimits: how much and how long a deployed site's URL may be fetched.
    ///   - repair: whether a staged state left by a killed build may be moved or removed (not in a dry run).
    ///   - now: the wall clock, for a build that knows nothing of earlier publishes.
    static func find(
        outputDirectory: String, publishedManifest: Data?, previous: PreviousSite?, fetchLimits: PreviousFetchLimits, repair: Bool, now: Date
    ) throws(PreviousSiteFailure) -> PreviousState {
        let store = SiteHistoryStore(outputDirectory: outputDirectory)
        let (history, problem) = store.load(manifestSHA256: publishedManifest.map { SHA256.hash(data: $0).hex }, repair: repair)
        if let history {
            return PreviousState(history: history, source: store.path)
        }
        if publishedManifest != nil, let site = try PublishedSite.read(directory: outputDirectory) {
            let note = problem.map { ["\($0); the previous state is taken from what \(outputDirectory) publishes, which does not tell how long its leavers have been carried (they count from their own update times)"] } ?? []
            return PreviousState(history: site.history(), source: "\(outputDirectory)/bundles/manifest.json", notes: note)
        }
        switch previous {
        case .none?:
            return PreviousState(history: nil, source: "none (a new site)")
        case .directory(let directory)?:
            let other = SiteHistoryStore(outputDirectory: directory)
            let manifest = FileManager.default.contents(atPath: Manifest.path(inSite: directory))
            if let history = other.load(manifestSHA256: manifest.map { SHA256.hash(data: $0).hex }, repair: false).history {
                return PreviousState(history: history, source: other.path)
            }
            guard let site = try PublishedSite.read(directory: directory) else {
                throw PreviousSiteFailure(source: directory, message: "holds neither \(SiteHistory.fileName) nor bundles/manifest.json; point previous at an earlier output directory, or set it to none for a new site")
            }
            return PreviousState(history: site.history(), source: "\(directory)/bundles/manifest.json")
        case .url(let url)?:
            guard let site = try PublishedSite.fetch(url: url, limits: fetchLimits) else {
                return PreviousState(
                    history: nil, source: "none (\(url) publishes no manifest yet)",
                    notes: ["\(url) answers 404 for bundles/manifest.json: nothing was published there yet, so this is built as a new site"])
            }
            return PreviousState(history: site.history(), source: url)
        case nil:
            return PreviousState(history: nil, unknownAt: Timestamp(secondsSinceEpoch: now.timeIntervalSince1970), source: "unknown")
        }
    }

    /// The earliest `createTime` a changed bundle may take when `history` is nil, in a build with
    /// snapshot time `snapshotTime`: the wall clock when earlier publishes are unknown.
    func floor(snapshotTime: Timestamp) -> Timestamp {
        unknownAt ?? snapshotTime
    }

    /// What to tell the user of the previous state, for a build with snapshot time `snapshotTime`.
    func warnings(outputDirectory: String, snapshotTime: Timestamp) -> [String] {
        guard let clock = unknownAt else { return notes }
        return notes + [
            "\(outputDirectory) holds no previous state (\(SiteHistory.fileName)) and previous: is not set, so earlier publishes are unknown: "
                + "changed bundles are dated \(max(clock, snapshotTime).rfc3339) (the wall clock), so that apps holding an earlier build do not skip them, "
                + "later than the data they hold (\(snapshotTime.rfc3339)): apps that also listen to these queries may miss changes made in between. "
                + "Set previous: (or --previous) to the deployed site's URL or to a directory holding the last output, or to none for a site never published before"
        ]
    }
}
