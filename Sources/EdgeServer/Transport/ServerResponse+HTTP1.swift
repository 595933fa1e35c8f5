import SystemSupport
import HTTPTypes
import NIOCore

extension ServerResponse {
    /// Whether the status allows a body at all (not 1xx, 204 or 304).
    var allowsBody: Bool {
        status.kind != .informational && status != .noContent && status != .notModified
    }

    /// Writes the HTTP/1.1 head as sent to `buffer`: the status line, the response's fields (but
    /// `Content-Length` on a status without a body), then `Date` and `Content-Length` when missing, and `Connection` when the connection closes after
    /// it (or stays open for an HTTP/1.0 client that asked for keep-alive), replacing any
    /// `Connection` field of the response. A streamed body gets no `Content-Length`: its end is
    /// the connection's.
    ///
    /// Writing the bytes straight from `HTTPFields` (rather than through `HTTPHeaders` and
    /// NIO's encoder) is safe because `HTTPField` values cannot hold CR, LF or NUL, and names
    /// are tokens; framing is always `Content-Length`, never chunked.
    func writeHTTP1Head(to buffer: inout ByteBuffer, date: String, connection: ConnectionDisposition) {
        buffer.writeStaticString("HTTP/1.1 ")
        buffer.writeString(String(status.code))
        buffer.writeInteger(UInt8(ascii: " "))
        buffer.writeString(status.reasonPhrase)
        buffer.writeStaticString("\r\n")
        var hasDate = false
        var hasLength = !allowsBody || body.stream != nil
        for field in headerFields {
            if !hasDate, field.name == .date {
                hasDate = true
            } else if field.name == .contentLength {
                // None on 1xx and 204 (RFC 9110 §8.6), nor on a 304, whose length is the
                // representation's it stands for, which the client holds already.
                guard allowsBody else { continue }
                hasLength = true
            } else if connection != .keepAlive, field.name == .connection {
                continue
            }
            buffer.writeField(field)
        }
        if !hasDate { buffer.writeField(HTTPField(name: .date, value: date)) }
        if !hasLength {
            buffer.writeStaticString("Content-Length: ")
            buffer.writeString(String(body.readableBytes))
            buffer.writeStaticString("\r\n")
        }
        switch connection {
        case .keepAlive: break
        case .keepAliveHTTP10: buffer.writeStaticString("Connection: keep-alive\r\n")
        case .close: buffer.writeStaticString("Connection: close\r\n")
        }
        buffer.writeStaticString("\r\n")
    }
}

extension ByteBuffer {
    /// Writes `Name: value` and CRLF in one copy per part.
    fileprivate mutating func writeField(_ field: HTTPField) {
        var name = field.name.rawName
        name.withUTF8 { name in
            field.withUnsafeBytesOfValue { value in
                _ = writeWithUnsafeMutableBytes(minimumWritableBytes: name.count + value.count + 4) { output in
                    output.copyMemory(from: UnsafeRawBufferPointer(name))
                    var end = name.count
                    output[end] = UInt8(ascii: ":")
                    output[end + 1] = UInt8(ascii: " ")
                    end += 2
                    UnsafeMutableRawBufferPointer(rebasing: output[end...]).copyMemory(from: UnsafeRawBufferPointer(value))
                    end += value.count
                    output[end] = UInt8(ascii: "\r")
                    output[end + 1] = UInt8(ascii: "\n")
                    return end + 2
                }
            }
        }
    }
}

/// What happens to the connection after a response.
enum ConnectionDisposition: Sendable, Equatable {
    /// HTTP/1.1 default: stays open, nothing to say.
    case keepAlive
    /// An HTTP/1.0 client sent `Connection: keep-alive`: stays open, and the response says so.
    case keepAliveHTTP10
    /// Closed after the response, which says `Connection: close`.
    case close
}

extension ChannelHandlerContext {
    /// Bodies in memory up to this size are copied behind the head, so the response is one buffer
    /// and one `write`; larger ones follow it as their own buffer (one `writev`).
    static let coalescedBodyLimit = 16 * 1024

    /// Writes `response` from this handler as HTTP/1.1 bytes: the head (see
    /// ``ServerResponse/writeHTTP1Head(to:date:connection:)``), then the body when `withBody` and
    /// the status allows one (bytes in memory as they are; a file range with `sendfile`, from a
    /// descriptor of its own that is closed once written). Nothing is flushed. Returns the body
    /// bytes written.
    func write(_ response: ServerResponse, date: String, connection: ConnectionDisposition, withBody: Bool) -> Int {
        write(response, date: date, connection: connection, withBody: withBody, promise: nil)
    }

    /// Writes `response` as ``write(_:date:connection:withBody:)`` does and flushes; `written`
    /// completes once the whole response is written (or failed), when the connection can close.
    func writeAndFlush(
        _ response: ServerResponse, date: String, connection: ConnectionDisposition, withBody: Bool
    ) -> (bodyBytes: Int, written: EventLoopFuture<Void>) {
        let written = eventLoop.makePromise(of: Void.self)
        let bodyBytes = write(response, date: date, connection: connection, withBody: withBody, promise: written)
        flush()
        return (bodyBytes, written.futureResult)
    }

    private func write(
        _ response: ServerResponse, date: String, connection: ConnectionDisposition, withBody: Bool, promise: EventLoopPromise<Void>?
    ) -> Int {
        let body = withBody && response.allowsBody ? response.body : ResponseBody()
        var head = channel.allocator.buffer(capacity: 1024)
        response.writeHTTP1Head(to: &head, date: date, connection: connection)
        switch body.storage {
        case .bytes(var bytes) where bytes.readableBytes <= Self.coalescedBodyLimit:
            head.writeBuffer(&bytes)
            write(NIOAny(IOData.byteBuffer(head)), promise: promise)
        case .bytes(let bytes):
            write(NIOAny(IOData.byteBuffer(head)), promise: nil)
            write(NIOAny(IOData.byteBuffer(bytes)), promise: promise)
        case .file(let file, let offset):
            // Corked, the head and the file's first bytes leave in one full segment, as nginx's
            // `tcp_nopush` does, instead of the head in a packet of its own.
            setCorked(true)
            write(NIOAny(IOData.byteBuffer(head)), promise: nil)
            writeFile(file, range: offset..<(offset + body.readableBytes), promise: promise)
        case .stream:
            // The head alone: the connection handler writes the chunks as they come.
            write(NIOAny(IOData.byteBuffer(head)), promise: promise)
        }
        return body.readableBytes
    }

    /// Sets `TCP_CORK` (Linux): while set, the kernel sends only full segments.
    private func setCorked(_ corked: Bool) {
        #if os(Linux)
        let cork = ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: TCP_CORK))
        try? channel.syncOptions?.setOption(cork, value: corked ? 1 : 0)
        #endif
    }

    private func writeFile(_ file: OpenFile, range: Range<Int>, promise: EventLoopPromise<Void>?) {
        // NIO lets one handle be used by one write at a time; a duplicate per response lets
        // connections on every event loop send from the same open file.
        let duplicate = dup(file.descriptor)
        guard duplicate >= 0 else {
            let error = IOError(errnoCode: errno, reason: "dup")
            promise?.fail(error)
            fireErrorCaught(error)
            return
        }
        let handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: duplicate)
        let region = FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound)
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { result in
            try? handle.close()
            self.setCorked(false)
            promise?.completeWith(result)
        }
        write(NIOAny(IOData.fileRegion(region)), promise: written)
    }
}
