/// The points of a build between which a crash leaves different files behind, reported as
/// ``BuildEvent/checkpoint(_:)``. At every one of them the previously published site is
/// complete and servable; only after ``published`` is it the new one.
///
/// The CLI's test-only hook `BUNDLEPRESS_TEST_PAUSE_AT=<raw value>` stops `bundlepress build`
/// at one of these so the end-to-end tests can kill it there.
public enum BuildCheckpoint: String, Sendable, CaseIterable {
    /// The output's lock is held; nothing is read yet.
    case locked
    /// New files are written and flushed in the staging directory; none is in place.
    case staged
    /// New content-hashed files are in `bundles/`; the manifest still lists the previous build.
    case bundlesInPlace = "bundles-in-place"
    /// The new state for returning clients is flushed beside the old one, which is still in effect.
    case stateStaged = "state-staged"
    /// The new manifest is flushed in the staging directory, not yet renamed over the old one.
    case manifestStaged = "manifest-staged"
    /// The new manifest is in place; the new state is still staged beside the old one (the next
    /// build takes it, since it names the published manifest).
    case manifestInPlace = "manifest-in-place"
    /// The new manifest is in place; retention has not yet deleted anything.
    case published
}
