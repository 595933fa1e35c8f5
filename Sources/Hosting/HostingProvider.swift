/// A production host the build writes a header file for.
public enum HostingProvider: String, Sendable, Hashable {
    case netlify
    case cloudflarePages
    case firebaseHosting
    case nginx

    /// The product name, for messages.
    public var displayName: String {
        switch self {
        case .netlify: return "Netlify"
        case .cloudflarePages: return "Cloudflare Pages"
        case .firebaseHosting: return "Firebase Hosting"
        case .nginx: return "nginx"
        }
    }
}
