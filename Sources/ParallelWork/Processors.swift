import SystemSupport

/// The machine's processors, as the parallel stages size their thread counts.
public enum Processors {
    /// The number of processors online (at least 1).
    public static var online: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
