import BundleFormat
import FirestoreModel
import Foundation
import PipelineLanguage

/// Everything a published site exposes (`bundlepress inspect --exposure`): per collection and
/// per bundle, every field path its documents carry, with the value types and how many documents
/// carry it, and the findings of the build's guard (``ExposureScan``) over the same documents.
///
/// Published data is what the bundles hold: leavers count, missing-document markers (no data)
/// do not. A document published by several bundles counts once in its collection's summary.
public struct ExposureReport: Sendable, Equatable, Codable {
    /// The site directory read.
    public var site: String
    /// The config whose `fields:` rules silence the guard, if one was read.
    public var config: String?
    /// Per collection id, in UTF-8 order, over the whole site.
    public var collections: [CollectionExposure]
    /// Per bundle, in manifest order.
    public var bundles: [BundleExposure]
    public var findings: [ExposureFinding]

    /// The documents of one collection id that a site or a bundle publishes.
    public struct CollectionExposure: Sendable, Equatable, Codable {
        public var collection: String
        /// Distinct documents.
        public var documents: Int
        /// The bundles that publish them, in manifest order (absent in a bundle's own summary).
        public var bundles: [String]?
        /// Every field path carried, in UTF-8 order of the path as pipeline.yml writes it.
        public var fields: [FieldExposure]
    }

    /// One field path: a map is listed with the fields under it, an array's elements are not.
    public struct FieldExposure: Sendable, Equatable, Codable {
        /// As pipeline.yml writes it (`stats.followers`, backquoted segments where needed).
        public var path: String
        /// The value types found, in Firestore's type order (`integer`, `string`, `map`, …).
        public var types: [String]
        /// Distinct documents that carry it.
        public var documents: Int
    }

    public struct BundleExposure: Sendable, Equatable, Codable {
        public var id: String
        public var collections: [CollectionExposure]
    }

    /// The report of `bundles` (in manifest order), each with its `fields:`/`redact:` rules for
    /// the guard.
    init(site: String, config: String?, bundles: [(id: String, contents: BundleContents, policy: FieldPolicy)]) {
        self.site = site
        self.config = config
        var whole = FieldInventory()
        self.bundles = bundles.map { bundle in
            var own = FieldInventory()
            for case let document? in bundle.contents.documents.map(\.document) {
                own.add(document, from: bundle.id)
                whole.add(document, from: bundle.id)
            }
            return BundleExposure(id: bundle.id, collections: own.summary(listingSources: false))
        }
        collections = whole.summary(listingSources: true)
        findings = bundles.flatMap { bundle in
            ExposureScan.findings(bundle: bundle.id, documents: bundle.contents.documents.lazy.compactMap(\.document), policy: bundle.policy)
        }
    }

    /// Reads the site published in `siteDirectory`; with `config`, its `fields:` rules silence
    /// the guard as they do in a build.
    public static func read(siteDirectory: String, config: PipelineConfig?) throws(ExposureReportError) -> ExposureReport {
        let published: PublishedSite?
        do throws(PreviousSiteFailure) {
            published = try PublishedSite.read(directory: siteDirectory)
        } catch {
            throw ExposureReportError(error.description)
        }
        guard let site = published else {
            throw ExposureReportError("\(Manifest.path(inSite: siteDirectory)): no such file; build the site first")
        }
        let bundles = site.manifest.bundles.compactMap { entry in
            site.bundles[entry.id].map { (id: entry.id, contents: $0, policy: config?.fieldPolicy(forBundle: entry.id, template: entry.template) ?? FieldPolicy()) }
        }
        return ExposureReport(site: siteDirectory, config: config?.file, bundles: bundles)
    }
}

/// Why an exposure report could not be made.
public struct ExposureReportError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
