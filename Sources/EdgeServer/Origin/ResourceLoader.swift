import Crypto
import Gzip
import HTTPTypes
import NIOCore
import NIOFileSystem
import SitePolicy
import SystemSupport

/// Reads a located resource's files asynchronously, hashes the identity bytes and prepares the
/// header fields of each representation: the slow path behind ``ResourceCache``.
struct ResourceLoader: Sendable {
    /// The directories a location may be in: the site's, then a fallback's.
    let roots: [SiteRoot]
    let policy: HeaderPolicy
    /// Files larger than this are not served (bodies are held in memory whole).
    let maxFileBytes: Int

    func load(_ location: ResourceLocation) async throws(ResourceLoadError) -> CachedResource {
        guard roots.contains(where: { $0.contains(location) }) else { throw .notFound }
        var location = location
        var identityFile: FileContents?
        var gzipFile: FileContents?
        if location.identity != nil {
            identityFile = try await read(location.path)
            location.identity = identityFile?.stamp
        }
        if location.gzip != nil {
            gzipFile = try await read(location.gzipPath)
            location.gzip = gzipFile?.stamp
        }
        let identity: ByteBuffer
        if let identityFile {
            identity = identityFile.bytes
        } else {
            identity = try decompress(gzipFile?.bytes ?? ByteBuffer(), path: location.gzipPath)
        }
        var hasher = SHA256()
        identity.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()

        let base = baseFields(forSitePath: location.sitePath)
        var identityFields = base
        identityFields[.eTag] = "\"\(digest)\""
        identityFields[.lastModified] = lastModified(location.identity ?? location.gzip)
        var resource = CachedResource(
            location: location, identity: Representation(headerFields: identityFields, body: identityFile?.body ?? ResponseBody(identity)))
        if let gzipFile {
            var gzipFields = base
            gzipFields[.contentEncoding] = "gzip"
            gzipFields[.eTag] = "\"\(digest)-gz\""
            gzipFields[.lastModified] = lastModified(location.gzip)
            resource.gzip = Representation(headerFields: gzipFields, body: gzipFile.body)
        }
        return resource
    }

    /// The fields both representations share: content type, Vary, `Accept-Ranges: bytes` (the
    /// ``ConditionalResponder`` in front serves single ranges of every file, serving.md §3 item 1)
    /// and the header policy's fields (a policy `Content-Type` replaces the one chosen by
    /// extension).
    private func baseFields(forSitePath sitePath: String) -> HTTPFields {
        var fields: HTTPFields = [
            .contentType: ContentTypes.contentType(forPath: sitePath),
            .vary: "Accept-Encoding",
            .acceptRanges: "bytes",
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

    /// A file as read: its bytes, the stamp of the file actually opened, and the file kept open
    /// when it is large enough to be sent from disk.
    private struct FileContents {
        var bytes: ByteBuffer
        var stamp: FileStamp?
        var openFile: OpenFile?

        /// The body to send: from the open file, or the bytes.
        var body: ResponseBody {
            openFile.map { ResponseBody(file: $0, count: bytes.readableBytes) } ?? ResponseBody(bytes)
        }
    }

    /// Reads a whole file; one of ``SiteOrigin/fileBodyThreshold`` bytes or more stays open.
    private func read(_ path: String) async throws(ResourceLoadError) -> FileContents {
        let limit = maxFileBytes
        do {
            return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                let opened = try await handle.info().platformSpecificStatus.map(FileStamp.init)
                var contents = FileContents(bytes: try await handle.readToEnd(maximumSizeAllowed: .bytes(Int64(limit))), stamp: opened)
                if let opened, contents.bytes.readableBytes >= SiteOrigin.fileBodyThreshold {
                    // Detached, the descriptor is not closed when this closure returns.
                    contents.openFile = OpenFile(descriptor: try handle.detachUnsafeFileDescriptor().rawValue, stamp: opened)
                }
                return contents
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
