// The C library, Glibc on Linux and Darwin on Apple platforms, for every module that imports
// SystemSupport: `stat`, `open`, `fsync`, `rename` and the like without a preamble of its own.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
