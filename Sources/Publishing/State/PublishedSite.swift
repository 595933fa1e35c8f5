import AsyncHTTPClient
import BundleFormat
import FirestoreModel
import Foundation
import NIOCore

/// A site as it was published — its manifest and the bundles it lists — read from a directory
/// or fetched from the deployed site, and the ``SiteHistory`` it implies.
///
/// This is how a build that starts from a fresh checkout learns what clients may hold when no
/// state file comes with it. What a published bundle cannot tell is which earlier versions
/// clients held of the leavers and missing documents it carries, only that there were some: they
/// count as shipped until the leaver's `updateTime` or the marker's read time (when the document
/// changed), so they are carried on for the horizon from there.
struct PublishedSite {
    var manifest: Manifest
    /// The bundles, by id.
    var bundles: [String: BundleContents]

    /// Reads the site published in `directory` (its `bundles/manifest.json` and the bundles), or
    /// nil when it publishes no manifest.
    static func read(directory: String) throws(PreviousSiteFailure) -> PublishedSite? {
        try load(from: directory, bundleLimit: { _ in Int.max }) { relative, _ in
            FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(relative)).map(Array.init)
        }
    }

    /// Fetches the site deployed at `url` (the site's base URL or its manifest's URL), or nil
    /// when it answers 404 for the manifest: nothing was published there yet.
    ///
    /// Every body is bounded by `limits` as it arrives (decoded: a gzip body counts by what it
    /// expands to), and the whole fetch by its deadline, however slowly the server sends.
    static func fetch(url: String, limits: PreviousFetchLimits) throws(PreviousSiteFailure) -> PublishedSite? {
        let base = url.hasSuffix("bundles/manifest.json") ? String(url.dropLast("bundles/manifest.json".count)) : (url.hasSuffix("/") ? url : url + "/")
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(timeout: .init(connect: .seconds(10), read: .seconds(60)), decompression: .enabled(limit: .none)))
        defer { try? client.syncShutdown() }
        let deadline = NIODeadline.now() + TimeAmount(limits.deadline)
        return try load(from: base, bundleLimit: limits.bundleBytes(id:)) { relative, limit throws(PreviousSiteFailure) in
            let target = base + relative
            var bounded: BoundedResponse?
            do {
                let request = try HTTPClient.Request(url: target)
                let accumulator = BoundedResponse(request: request, maxBodySize: limit)
                bounded = accumulator
                let response = try client.execute(request: request, delegate: accumulator, deadline: deadline).wait()
                if response.status == .notFound { return nil }
                guard response.status == .ok else { throw PreviousSiteFailure(source: target, message: "the server answered \(response.status.code) \(response.status.reasonPhrase)") }
                return response.body.map { Array($0.readableBytesView) } ?? []
            } catch let failure as PreviousSiteFailure {
                throw failure
            } catch where error is ResponseAccumulator.ResponseTooBigError || bounded?.refusedAsTooLarge == true {
                throw PreviousSiteFailure(source: target, message: "larger than the \(limit) bytes it may take (decoded)")
            } catch let error as HTTPClientError where error == .deadlineExceeded {
                throw PreviousSiteFailure(
                    source: target, message: "the previous site was not fetched within \(limits.deadline) (--previous-timeout)")
            } catch {
                throw PreviousSiteFailure(source: target, message: "cannot fetch it: \(error)")
            }
        }
    }

    /// Reads the manifest, then each bundle it lists, through `fetch`, which is given the largest
    /// body it may accept (``PreviousFetchLimits/manifestBytes``, then `bundleLimit` of the
    /// bundle's id) and returns nil for a file that is not there.
    private static func load(
        from source: String, bundleLimit: (String) -> Int, fetch: (String, Int) throws(PreviousSiteFailure) -> [UInt8]?
    ) throws(PreviousSiteFailure) -> PublishedSite? {
        let manifestPath = "bundles/manifest.json"
        guard let manifestBytes = try fetch(manifestPath, PreviousFetchLimits.manifestBytes) else { return nil }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(Data(manifestBytes))
        } catch {
            throw PreviousSiteFailure(source: source + manifestPath, message: "not a bundlepress manifest (\(error))")
        }
        let database = DatabaseID(project: manifest.project, database: manifest.database)
        var bundles: [String: BundleContents] = [:]
        for entry in manifest.bundles {
            guard let bytes = try fetch(entry.url, bundleLimit(entry.id)) else {
                throw PreviousSiteFailure(source: source + entry.url, message: "listed in the manifest but not there")
            }
            do throws(BundleReadError) {
                bundles[entry.id] = try BundleReader.read(bytes, database: database, audience: .webOnly, missingDocuments: .accepted)
            } catch {
                throw PreviousSiteFailure(source: source + entry.url, message: "not a readable bundle: \(error)")
            }
        }
        return PublishedSite(manifest: manifest, bundles: bundles)
    }

    /// The state this site implies.
    func history() -> SiteHistory {
        var history = SiteHistory(siteTime: (try? Timestamp(rfc3339: manifest.snapshotTime)) ?? .earliest, manifestSHA256: nil, bundles: [:])
        for (id, contents) in bundles {
            var digest = ContentDigest()
            for query in contents.namedQueries { digest.addNamedQuery(name: query.name, bundledQuery: query.bundledQuery.bytes) }
            var bundle = BundleHistory(createTime: contents.metadata.createTime, contentDigest: "", current: [:], earlier: [:])
            var current: [ShippedDocuments.Element] = []
            for entry in contents.documents {
                let path = entry.metadata.name.path
                if let document = entry.document {
                    let fingerprint = DocumentFingerprint.of(document)
                    digest.addExisting(path, updateTime: document.updateTime!, fingerprint: fingerprint, queries: entry.metadata.queries)
                    current.append((path, .existing(updateTime: document.updateTime!, fingerprint: fingerprint)))
                    // The ledger knows the whole version: the bundle holds it.
                    if history.contents[path]?.contains(where: { $0.updateTime == document.updateTime! }) != true {
                        history.contents[path, default: []].append(ShippedContent(updateTime: document.updateTime!, known: nil, fields: document.fields))
                    }
                    if entry.metadata.queries.isEmpty {
                        bundle.earlier[path] = [EarlierVersion(kind: .existing(updateTime: nil), until: document.updateTime!)]
                    }
                } else {
                    digest.addMissing(path, readTime: entry.metadata.readTime)
                    current.append((path, .missing(readTime: entry.metadata.readTime)))
                    bundle.earlier[path] = [EarlierVersion(kind: .existing(updateTime: nil), until: entry.metadata.readTime)]
                }
            }
            bundle.current = ShippedDocuments(current)
            bundle.contentDigest = digest.finalize()
            history.bundles[id] = bundle
            history.siteTime = max(history.siteTime, bundle.createTime)
        }
        return history
    }
}

/// The previous state named by `previous:` or `--previous` cannot be had.
public struct PreviousSiteFailure: Error, Sendable, CustomStringConvertible {
    /// The file or URL that failed.
    public var source: String
    public var message: String

    public var description: String { "\(source): \(message)" }
}
