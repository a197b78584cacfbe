import Foundation
import OpenCombine

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher of the data and response of a data task for a URL.
    public func dataTaskPublisher(for url: URL) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher of the data and response of a data task for a request.
    public func dataTaskPublisher(for request: URLRequest) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that runs a data task when its subscriber first asks for a value, then sends
    /// the task's data and response and finishes, or fails with the task's error.
    public struct DataTaskPublisher: OpenCombine.Publisher, @unchecked Sendable {
        /// The data received and the response.
        public typealias Output = (data: Data, response: URLResponse)
        /// How the task failed.
        public typealias Failure = URLError

        /// The request the task makes.
        public let request: URLRequest
        /// The session the task runs in.
        public let session: URLSession

        /// Creates a publisher of a data task for a request, in a session.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches a subscriber; the task starts when it first asks for a value, and stops if it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(AnySubscriber(subscriber), request: request, session: session))
        }
    }
}

/// One subscriber's data task.
private final class DataTaskSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>?
    private var task: URLSessionDataTask?
    private let request: URLRequest
    private let session: URLSession

    init(_ downstream: AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>, request: URLRequest, session: URLSession) {
        self.downstream = downstream
        self.request = request
        self.session = session
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let task = lock.withLock { () -> URLSessionDataTask? in
            guard downstream != nil, self.task == nil else { return nil }
            let task = session.dataTask(with: request) { [weak self] data, response, error in self?.finish(data, response, error) }
            self.task = task
            return task
        }
        task?.resume()
    }

    func cancel() {
        let task = lock.withLock { () -> URLSessionDataTask? in
            downstream = nil
            return self.task
        }
        task?.cancel()
    }

    private func finish(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        let target = lock.withLock { () -> AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>? in
            defer { downstream = nil }
            return downstream
        }
        guard let target else { return }
        if let error {
            target.receive(completion: .failure(error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])))
        } else if let response {
            _ = target.receive((data: data ?? Data(), response: response))
            target.receive(completion: .finished)
        } else {
            target.receive(completion: .failure(URLError(.badServerResponse)))
        }
    }
}
