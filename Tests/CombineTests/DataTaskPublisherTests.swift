import Combine
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `URLSession.dataTaskPublisher(for:)`: the task's data and response, or its error as a `URLError`.
final class DataTaskPublisherTests: XCTestCase {
    func testAServersDataIsPublishedThenTheTaskFinishes() throws {
        let server = try XCTUnwrap(OneAnswerServer(body: #"{"zoom":2}"#))
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/settings.json"))
        struct Settings: Decodable, Equatable { var zoom: Int }
        let done = expectation(description: "done")
        let decoded = Locked<[Settings]>([]), completions = Locked<[String]>([])
        let subscription = URLSession.shared.dataTaskPublisher(for: url)
            .map(\.data)
            .decode(type: Settings.self, decoder: JSONDecoder())
            .sink(
                receiveCompletion: { completion in
                    completions.withLock { $0.append("\(completion)") }
                    done.fulfill()
                }, receiveValue: { value in decoded.withLock { $0.append(value) } })
        wait(for: [done], timeout: 30)
        XCTAssertEqual(decoded.withLock { $0 }, [Settings(zoom: 2)])
        XCTAssertEqual(completions.withLock { $0 }, ["finished"])
        XCTAssertTrue(server.request.hasPrefix("GET /settings.json HTTP/1.1"), server.request)
        subscription.cancel()
    }

    func testARefusedConnectionFailsWithAURLError() {
        let done = expectation(description: "done")
        let failure = Locked<URLError?>(nil)
        let publisher = URLSession.shared.dataTaskPublisher(for: URL(string: "http://127.0.0.1:1/")!)
        XCTAssertEqual(publisher.request.url, URL(string: "http://127.0.0.1:1/"))
        let subscription = publisher.sink(
            receiveCompletion: { completion in
                if case .failure(let error) = completion { failure.withLock { $0 = error } }
                done.fulfill()
            }, receiveValue: { _ in XCTFail("no data from a refused connection") })
        wait(for: [done], timeout: 60)
        XCTAssertNotNil(failure.withLock { $0 }, "a URLError, not a value")
        subscription.cancel()
    }
}

/// A server on a loopback port that answers one request with a JSON body, on a thread of its own.
private final class OneAnswerServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var received = ""
    private let answered = DispatchSemaphore(value: 0)

    /// The request the server received, once it has answered.
    var request: String {
        _ = answered.wait(timeout: .now() + 10)
        answered.signal()
        return lock.withLock { received }
    }

    init?(body: String) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            return nil
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let response = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        Thread.detachNewThread { [self] in serve(response) }
    }

    private func serve(_ response: String) {
        let connection = accept(listener, nil, nil)
        defer {
            close(listener)
            answered.signal()
        }
        guard connection >= 0 else { return }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") {
            let count = read(connection, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        lock.withLock { received = String(decoding: bytes, as: UTF8.self) }
        _ = response.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) }
        close(connection)
    }
}
