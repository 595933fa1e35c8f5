/// Which readers a bundle must load in.
///
/// Android and iOS fail to load a bundle whose named query has an OR filter or a composite
/// filter nested in another; the JS SDK (and Python's parser) read them. A site whose apps are
/// all web apps may use them (`clients: [web]` in pipeline.yml); everything else is the same.
public enum BundleAudience: String, Sendable, Equatable {
    /// JS, Android, iOS and Python: the default.
    case allClients
    /// The JS SDK only: OR and nested composite filters are allowed.
    case webOnly
}
