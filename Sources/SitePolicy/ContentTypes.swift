/// The `Content-Type` of a site file, from its extension.
public enum ContentTypes {
    /// For files whose extension is not in ``byExtension``, and for bundles: bytes the browser
    /// must not interpret. A Firestore bundle has no registered media type; `loadBundle` reads
    /// the body as bytes whatever the type says, and CDNs that compress on the fly (CloudFront,
    /// Firebase Hosting) do not touch `application/octet-stream`, which keeps the bundle's
    /// bytes, hash and ETag exactly as published.
    public static let fallback = "application/octet-stream"

    /// Lowercase extension → media type.
    public static let byExtension: [String: String] = [
        "bundle": fallback,
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "xml": "application/xml",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/vnd.microsoft.icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "wasm": "application/wasm",
        "pdf": "application/pdf",
    ]

    /// The media type for the site path `path` (its last segment's extension).
    public static func contentType(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? fallback
    }
}
