import BundleFormat
import Crypto
import HTTPTypes
import NIOCore
import NIOFileSystem
import SitePolicy

/// Reads a located resource's files asynchronously, hashes the identity bytes and prepares the
/// header fields of each representation: the slow path behind ``ResourceCache``.
struct ResourceLoader: Sendable {
    let root: SiteRoot
    let policy: HeaderPolicy
    /// Files larger than this are not served (bodies are held in memory whole).
    let maxFileBytes: Int

    func load(_ location: ResourceLocation) async throws(ResourceLoadError) -> CachedResource {
        guard root.contains(location) else { throw .notFound }
        var location = location
        var identityBytes: ByteBuffer?
        var gzipBytes: ByteBuffer?
        if location.identity != nil {
            (identityBytes, location.identity) = try await read(location.path)
        }
        if location.gzip != nil {
            (gzipBytes, location.gzip) = try await read(location.gzipPath)
        }
        let identity: ByteBuffer
        if let identityBytes {
            identity = identityBytes
        } else {
            identity = try decompress(gzipBytes ?? ByteBuffer(), path: location.gzipPath)
        }
        var hasher = SHA256()
        identity.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()

        let base = baseFields(forSitePath: location.sitePath)
        var identityFields = base
        identityFields[.eTag] = "\"\(digest)\""
        identityFields[.lastModified] = lastModified(location.identity ?? location.gzip)
        var resource = CachedResource(location: location, identity: Representation(headerFields: identityFields, body: identity))
        if let gzipBytes {
            var gzipFields = base
            gzipFields[.contentEncoding] = "gzip"
            gzipFields[.eTag] = "\"\(digest)-gz\""
            gzipFields[.lastModified] = lastModified(location.gzip)
            resource.gzip = Representation(headerFields: gzipFields, body: gzipBytes)
        }
        return resource
    }

    /// The fields both representations share: content type, Vary and the header policy's
    /// fields (a policy `Content-Type` replaces the one chosen by extension).
    private func baseFields(forSitePath sitePath: String) -> HTTPFields {
        var fields: HTTPFields = [
            .contentType: ContentTypes.contentType(forPath: sitePath),
            .vary: "Accept-Encoding",
        ]
        for field in policy.headers(forPath: sitePath) {
            guard let name = HTTPField.Name(field.name) else { continue }
            fields[name] = field.value
        }
        return fields
    }

    private func lastModified(_ stamp: FileStamp?) -> String? {
        stamp.map { HTTPDate(secondsSince1970: Int64($0.modifiedSeconds)).imfFixdate }
    }

    /// Reads a whole file, returning its bytes and the stamp of the file actually opened.
    private func read(_ path: String) async throws(ResourceLoadError) -> (ByteBuffer, FileStamp?) {
        let limit = maxFileBytes
        do {
            return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                let opened = try await handle.info().platformSpecificStatus.map(FileStamp.init)
                return (try await handle.readToEnd(maximumSizeAllowed: .bytes(Int64(limit))), opened)
            }
        } catch let error as FileSystemError where error.code == .notFound {
            throw .notFound
        } catch let error as FileSystemError where error.code == .resourceExhausted {
            throw .unservable("\(path) is larger than the \(limit)-byte limit for one file")
        } catch {
            throw .unservable("cannot read \(path): \(error)")
        }
    }

    private func decompress(_ gzip: ByteBuffer, path: String) throws(ResourceLoadError) -> ByteBuffer {
        do {
            return ByteBuffer(bytes: try GzipDecompressor.decompress(Array(gzip.readableBytesView)))
        } catch {
            throw .unservable("\(path) is not valid gzip, so its identity representation cannot be served: \(error)")
        }
    }
}
