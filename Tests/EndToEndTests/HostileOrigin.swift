import Foundation
import SystemSupport

/// A small HTTP/1.1 server on 127.0.0.1 that answers as a test scripts it, byte by byte, over
/// plain sockets: a deployed site that misbehaves (sends too much, or too slowly).
///
/// Each connection runs on a thread of its own: the request head is read, then `answer` is
/// given the request target and a function that writes bytes (false once the peer is gone).
/// ``stop()`` closes the listening socket; the script of an open connection ends when its
/// writes fail, so every script must be bounded in time or stop at a failed write.
final class HostileOrigin: @unchecked Sendable {
    typealias Script = @Sendable (_ target: String, _ write: (Data) -> Bool) -> Void

    let port: Int
    private let listener: Int32

    init(_ answer: @escaping Script) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                Thread.detachNewThread { Self.serve(connection, answer) }
            }
        }
    }

    /// The base URL of the site.
    var url: String { "http://127.0.0.1:\(port)/" }

    /// Stops accepting connections.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func serve(_ connection: Int32, _ answer: Script) {
        defer { close(connection) }
        var head = Data()
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), head.count < 16_384 {
            guard recv(connection, &byte, 1, 0) == 1 else { return }
            head.append(byte)
        }
        let requestLine = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self).split(separator: " ")
        guard requestLine.count == 3 else { return }
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        answer(String(requestLine[1])) { bytes in
            bytes.withUnsafeBytes { buffer in
                var sent = 0
                while sent < buffer.count {
                    let written = send(connection, buffer.baseAddress! + sent, buffer.count - sent, noSignalFlag)
                    guard written > 0 else { return false }
                    sent += written
                }
                return true
            }
        }
    }
}

#if canImport(Glibc)
private let noSignalFlag = Int32(MSG_NOSIGNAL)
#else
private let noSignalFlag: Int32 = 0
#endif

extension Data {
    /// An HTTP/1.1 response head with `fields`, ending in the empty line. It says
    /// `Connection: close`, as the origin closes each connection after one answer: without it a
    /// client keeps the connection for its next request, which may then meet the close
    /// (`I/O on closed channel`) instead of the answer the test is about.
    static func responseHead(_ fields: [String], status: String = "200 OK") -> Data {
        Data((["HTTP/1.1 \(status)"] + fields + ["Connection: close", "", ""]).joined(separator: "\r\n").utf8)
    }
}
