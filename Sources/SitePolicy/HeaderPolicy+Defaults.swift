extension HeaderPolicy {
    /// The directory bundles and the manifest are published in, as a site path.
    public static let bundlesDirectory = "/bundles"
    /// Everything in and below ``bundlesDirectory``.
    public static let bundlesDirectoryPattern = pattern("/bundles/**")

    /// A content-hashed bundle: a file directly in ``bundlesDirectory`` named
    /// `<id>.<16 lowercase hex digits>.bundle`, where `<id>` is at least one character and the
    /// digits are the start of the SHA-256 of the file's bytes. Only such names may be cached
    /// forever: new content always gets a new name.
    public static let contentHashedBundlePattern = pattern(
        "/bundles/?*." + String(repeating: "[0-9a-f]", count: 16) + ".bundle")
    /// A server-rendering snapshot: a file in `snapshots/` under ``bundlesDirectory`` named
    /// `<name>.<16 lowercase hex digits>.json`, content-hashed as bundles are.
    public static let contentHashedSnapshotPattern = pattern(
        "/bundles/snapshots/?*." + String(repeating: "[0-9a-f]", count: 16) + ".json")
    /// The manifest, whose URL never changes.
    public static let manifestPattern = pattern("/bundles/manifest.json")
    /// Every path of the site.
    public static let everyPathPattern = pattern("/**")

    /// For content-hashed bundles and snapshots: a year, never revalidated (RFC 8246).
    public static let immutableCacheControl = "public, max-age=31536000, immutable"
    /// For the manifest and anything else with a stable URL under the bundles directory:
    /// browsers reuse it for a minute, shared caches for five.
    public static let manifestCacheControl = "public, max-age=60, s-maxage=300"
    /// For HTML pages: always revalidated (cheap with the ETag), so a deploy shows at once.
    public static let htmlCacheControl = "public, max-age=0, must-revalidate"
    /// For every other file: five minutes.
    public static let otherCacheControl = "public, max-age=300"

    /// The built-in rules, tried after the site's own:
    ///
    /// | pattern | Cache-Control |
    /// |---|---|
    /// | content-hashed bundles (``contentHashedBundlePattern``) | ``immutableCacheControl`` |
    /// | content-hashed snapshots (``contentHashedSnapshotPattern``) | ``immutableCacheControl`` |
    /// | `/bundles/manifest.json` | ``manifestCacheControl`` |
    /// | `/bundles/*.bundle` (a bundle name without a hash) | ``manifestCacheControl`` |
    /// | `*.html` | ``htmlCacheControl`` |
    /// | `/**` | ``otherCacheControl`` |
    public static let defaultRules: [HeaderRule] = bundleRules + [
        cacheControl(pattern("*.html"), htmlCacheControl),
        cacheControl(everyPathPattern, otherCacheControl),
    ]

    /// The first four of ``defaultRules``: those of the bundles, snapshots and manifest, which
    /// only ever match paths in ``bundlesDirectory``.
    static let bundleRules: [HeaderRule] = [
        cacheControl(contentHashedBundlePattern, immutableCacheControl),
        cacheControl(contentHashedSnapshotPattern, immutableCacheControl),
        cacheControl(manifestPattern, manifestCacheControl),
        cacheControl(pattern("/bundles/*.bundle"), manifestCacheControl),
    ]

    static func cacheControl(_ pattern: PathPattern, _ value: String) -> HeaderRule {
        HeaderRule(pattern: pattern, fields: [HeaderField(name: "Cache-Control", value: value)])
    }

    /// A built-in pattern; these are literals known to be valid.
    static func pattern(_ text: String) -> PathPattern {
        do {
            return try PathPattern(text)
        } catch {
            preconditionFailure("built-in pattern \(text): \(error)")
        }
    }
}
