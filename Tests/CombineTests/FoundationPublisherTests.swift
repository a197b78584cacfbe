import Combine
import Foundation
import XCTest

/// The publishers Apple's Foundation adds: timers, notifications, optionals and results, JSON decoding.
final class FoundationPublisherTests: XCTestCase {
    func testATimerPublishesRisingDatesOnceConnected() {
        let dates = Locked<[Date]>([])
        let three = expectation(description: "three dates")
        let publisher = Timer.publish(every: 0.01, on: .main, in: .common)
        let subscription = publisher.sink { date in
            let count = dates.withLock { dates -> Int in
                dates.append(date)
                return dates.count
            }
            if count == 3 { three.fulfill() }
        }
        XCTAssertEqual(dates.withLock { $0.count }, 0, "nothing before it is connected")
        let connection = publisher.connect()
        wait(for: [three], timeout: 10)
        connection.cancel()
        let seen = dates.withLock { $0 }
        XCTAssertGreaterThanOrEqual(seen.count, 3)
        XCTAssertEqual(seen, seen.sorted())
        // The timer keeps its schedule: the third firing is due two intervals after the first was,
        // and the first, if late, was late by less than an interval (a later one would be skipped).
        XCTAssertGreaterThan(seen[2].timeIntervalSince(seen[0]), 0.01, "more than an interval apart")
        // Cancelled, the timer is gone: the run loop runs with nothing more delivered.
        let count = seen.count
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
        XCTAssertEqual(dates.withLock { $0.count }, count)
        subscription.cancel()
        XCTAssertEqual(publisher.interval, 0.01)
        XCTAssertEqual(publisher.mode, .common)
        XCTAssertTrue(publisher.runLoop === RunLoop.main)
    }

    func testAutoconnectAndDemandOfOne() {
        final class One: Subscriber, @unchecked Sendable {
            typealias Input = Date
            typealias Failure = Never
            let received = Locked(0)
            var subscription: (any Subscription)?
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Date) -> Subscribers.Demand {
                received.withLock { $0 += 1 }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let one = One()
        let many = Locked(0)
        let five = expectation(description: "five")
        let publisher = Timer.publish(every: 0.01, on: .main, in: .default).autoconnect()
        publisher.subscribe(one)
        let counting = publisher.sink { _ in
            if many.withLock({ n -> Int in
                n += 1
                return n
            }) == 5 {
                five.fulfill()
            }
        }
        wait(for: [five], timeout: 10)
        XCTAssertEqual(one.received.withLock { $0 }, 1, "a subscriber that asked for one date gets one")
        counting.cancel()
        one.subscription?.cancel()
    }

    func testTheNotificationCenterPublishesANamesNotificationsForItsObject() {
        let center = NotificationCenter()
        let name = Notification.Name("Changed"), other = Notification.Name("Other")
        let sender = NSObject(), stranger = NSObject()
        let received = Locked<[Int]>([])
        let subscription = center.publisher(for: name, object: sender)
            .compactMap { $0.userInfo?["n"] as? Int }
            .sink { n in received.withLock { $0.append(n) } }
        center.post(name: name, object: sender, userInfo: ["n": 1])
        center.post(name: name, object: stranger, userInfo: ["n": 2])
        center.post(name: other, object: sender, userInfo: ["n": 3])
        let posted = expectation(description: "posted from another thread")
        nonisolated(unsafe) let postingSender = sender
        DispatchQueue.global().async {
            center.post(name: name, object: postingSender, userInfo: ["n": 4])
            posted.fulfill()
        }
        wait(for: [posted], timeout: 10)
        XCTAssertEqual(received.withLock { $0 }, [1, 4], "on the posting thread, this name and object only")
        subscription.cancel()
        center.post(name: name, object: sender, userInfo: ["n": 5])
        XCTAssertEqual(received.withLock { $0 }, [1, 4], "nothing once cancelled")
        XCTAssertEqual(center.publisher(for: name, object: sender), NotificationCenter.Publisher(center: center, name: name, object: sender))
        XCTAssertNotEqual(center.publisher(for: name), center.publisher(for: other))
        let any = Locked(0)
        let all = NotificationCenter.default.publisher(for: name).sink { _ in any.withLock { $0 += 1 } }
        NotificationCenter.default.post(name: name, object: sender)
        NotificationCenter.default.post(name: name, object: stranger)
        XCTAssertEqual(any.withLock { $0 }, 2, "no object: every sender's")
        all.cancel()
    }

    func testOptionalsResultsAndJSONDecodingPublish() throws {
        var values: [Int] = []
        _ = Optional(3).publisher.sink { values.append($0) }
        _ = Int?.none.publisher.sink { values.append($0) }
        XCTAssertEqual(values, [3], "nil publishes nothing")
        var failure: (any Error)?
        _ = Result<Int, URLError>.failure(URLError(.badURL)).publisher.sink(
            receiveCompletion: { if case .failure(let error) = $0 { failure = error } }, receiveValue: { values.append($0) })
        XCTAssertEqual((failure as? URLError)?.code, .badURL)
        struct Setting: Codable, Equatable { var brightness: Double }
        var decoded: [Setting] = []
        _ = Just(Data(#"{"brightness":0.75}"#.utf8)).decode(type: Setting.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
        XCTAssertEqual(decoded, [Setting(brightness: 0.75)])
        var encoded: [Data] = []
        _ = Just(Setting(brightness: 1)).encode(encoder: JSONEncoder()).sink(receiveCompletion: { _ in }, receiveValue: { encoded.append($0) })
        XCTAssertEqual(encoded.first.map { String(decoding: $0, as: UTF8.self) }, #"{"brightness":1}"#)
    }

    func testAnObservableObjectAnnouncesChangesBeforeTheyHappen() {
        final class Model: ObservableObject {
            @Published var zoom = 1.0
            @Published var label = ""
        }
        let model = Model()
        var seenBefore: [Double] = []
        let willChange = model.objectWillChange.sink { seenBefore.append(model.zoom) }
        var zooms: [Double] = []
        let zoom = model.$zoom.sink { zooms.append($0) }
        model.zoom = 2
        model.label = "x"
        XCTAssertEqual(seenBefore, [1, 2], "objectWillChange comes before each change, of any published property")
        XCTAssertEqual(zooms, [1, 2], "a published property's publisher gives its value, then each new one")
        willChange.cancel()
        zoom.cancel()
        final class Mirror: ObservableObject {
            @Published var value = 0.0
            init(_ source: Model) { source.$zoom.assign(to: &$value) }
        }
        let mirror = Mirror(model)
        model.zoom = 3
        XCTAssertEqual(mirror.value, 3, "assign(to:) republishes")
    }
}
