import SystemSupport
import FirestoreModel
import Foundation
import JSONCore
import ParallelWork

/// The fields of every document a build read, whole, at rest in a temporary file in the form a
/// bundle carries them (the `fields` object of its `document` element, as
/// ``FirestoreModel/MapValue/encodeFields(into:)`` writes it), so that memory holds only the
/// fields the queries read, and a bundle copies each document's fields instead of encoding them.
///
/// The file is removed from its directory as soon as it is created: it lives while the build
/// holds it open and leaves nothing behind, whatever stops the build. A build creates it in its
/// output directory (a dry run, in the system's temporary directory), and it takes about the
/// bytes of the bundles' documents.
///
/// An archive is written once, by a ``Writer``, then read from any thread.
final class DocumentArchive: Sendable {
    /// Where one document is in the archive.
    struct Position: Sendable {
        var offset: Int
        var length: Int
    }

    private let descriptor: Int32
    /// What the file was called, for messages.
    private let path: String

    fileprivate init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// The encoded fields at `position`.
    func encodedFields(at position: Position) throws(PublishError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: position.length)
        let count = bytes.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let read = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(position.offset + done))
                if read < 0, errno == EINTR { continue }
                if read <= 0 { return read < 0 ? -1 : done }
                done += read
            }
            return done
        }
        guard count == position.length else {
            throw PublishError(path: path, message: "cannot read back the documents the build set aside: \(count < 0 ? String(cString: strerror(errno)) : "the file is short")")
        }
        return bytes
    }

    /// The fields at `position`, decoded; references in them belong to `database`.
    func fields(at position: Position, database: DatabaseID) throws(PublishError) -> MapValue {
        let bytes = try encodedFields(at: position)
        do {
            return try MapValue(protoJSONFields: try JSONParser.parse(bytes), relativeTo: database)
        } catch {
            throw PublishError(path: path, message: "the documents the build set aside are damaged: \(error)")
        }
    }

    /// Appends documents to a new archive until ``finish()``.
    ///
    /// Each megabyte of documents is written on a thread of its own while the caller goes on:
    /// copying a build's documents into the file took the reading thread 70 ms per hundred
    /// thousand, with the other cores waiting for it.
    final class Writer {
        private let descriptor: Int32
        private let path: String
        /// Bytes appended so far, written or on their way.
        private var appended = 0
        /// The documents appended since the last were handed over, and their bytes.
        private var pending: [[UInt8]] = []
        private var pendingBytes = 0
        /// The write of the documents handed over last, giving `errno` when it failed.
        private var writing: BackgroundMap<Int32?>?
        /// Where the writing thread puts the documents it writes together, used again each time.
        private let buffer = HandedBuffer()
        private static let handOverSize = 1 << 20

        /// Creates the archive's file in `directory` and removes its name at once.
        init(directory: String) throws(BuildError) {
            var template = Array(((directory as NSString).appendingPathComponent("bundlepress-documents.XXXXXX")).utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            let failure = errno
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            guard descriptor >= 0 else {
                errno = failure
                throw .publish(PublishError(path: path, message: "cannot create a file to set the documents aside in: \(String(cString: strerror(errno)))"))
            }
            unlink(path)
            self.descriptor = descriptor
            self.path = path
        }

        deinit {
            // A write still under way has the descriptor until it ends.
            _ = writing?.results()
            close(descriptor)
        }

        /// Appends the encoded fields of a document and says where they are.
        func append(_ encodedFields: [UInt8]) throws(BuildError) -> Position {
            let position = Position(offset: appended, length: encodedFields.count)
            appended += encodedFields.count
            pending.append(encodedFields)
            pendingBytes += encodedFields.count
            if pendingBytes >= Self.handOverSize { try handOver() }
            return position
        }

        /// Writes what is left and hands the archive over for reading.
        func finish() throws(BuildError) -> DocumentArchive {
            try handOver()
            try waitForWrite()
            // The writer closes its descriptor when it goes; the archive reads through its own.
            let reading = dup(descriptor)
            guard reading >= 0 else {
                throw .publish(PublishError(path: path, message: "cannot read back the documents set aside: \(String(cString: strerror(errno)))"))
            }
            return DocumentArchive(descriptor: reading, path: path)
        }

        /// Starts writing the pending documents on another thread, once the last write is done
        /// (they go to the file in the order appended).
        private func handOver() throws(BuildError) {
            try waitForWrite()
            guard !pending.isEmpty else { return }
            let (documents, bytes, descriptor, handed) = (pending, pendingBytes, descriptor, buffer)
            (pending, pendingBytes) = ([], 0)
            writing = BackgroundMap(count: 1) { _ in
                var buffer = handed.take()
                buffer.reserveCapacity(bytes)
                for document in documents { buffer += document }
                defer { handed.bytes = buffer }
                return OutputFile.writeAll(buffer, to: descriptor) ? nil : errno
            }
        }

        private func waitForWrite() throws(BuildError) {
            guard let write = writing else { return }
            writing = nil
            if let failure = write.results()[0] {
                throw .publish(PublishError(path: path, message: "cannot set the documents aside: \(String(cString: strerror(failure)))"))
            }
        }
    }
}
