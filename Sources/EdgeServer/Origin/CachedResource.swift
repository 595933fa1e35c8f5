/// A resource read from disk: where it was (with the stamps that tell whether it changed) and
/// its representations.
struct CachedResource: Sendable {
    var location: ResourceLocation
    var identity: Representation
    /// The `.gz` file's bytes, when there is one.
    var gzip: Representation?

    /// The representation for a coding, when the resource has it.
    func representation(_ coding: ContentCoding) -> Representation? {
        switch coding {
        case .identity: return identity
        case .gzip: return gzip
        }
    }

    /// The size of the resource's bodies, in memory or kept open, which the cache's bound counts.
    var byteCount: Int {
        identity.body.readableBytes + (gzip?.body.readableBytes ?? 0)
    }
}
