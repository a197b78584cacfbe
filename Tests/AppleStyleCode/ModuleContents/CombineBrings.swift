// What `import Combine` gives, used as Apple's is: publishers, subjects and operators, the
// schedulers Foundation's types are, `Timer.publish`, the notification center's publisher,
// JSON decoding as an operator, and ObservableObject with @Published.
import Combine
import Foundation

/// A settings store as apps write one with Combine.
final class CombineSettingsStore: ObservableObject {
    @Published var brightness: Double = 0.5
    private var subscriptions = Set<AnyCancellable>()

    init() {
        let queue = DispatchQueue(label: "settings")
        $brightness
            .debounce(for: .milliseconds(300), scheduler: queue)
            .removeDuplicates()
            .sink { _ in }
            .store(in: &subscriptions)
        NotificationCenter.default.publisher(for: Notification.Name("SettingsChanged"))
            .receive(on: RunLoop.main)
            .sink { _ in }
            .store(in: &subscriptions)
        Timer.publish(every: 60, tolerance: 1, on: .main, in: .common)
            .autoconnect()
            .sink { _ in }
            .store(in: &subscriptions)
        Just(Data("{}".utf8))
            .decode(type: [String: Int].self, decoder: JSONDecoder())
            .replaceError(with: [:])
            .subscribe(on: OperationQueue())
            .sink { _ in }
            .store(in: &subscriptions)
        let stride: DispatchQueue.SchedulerTimeType.Stride = .seconds(0.25)
        let later: RunLoop.SchedulerTimeType = RunLoop.main.now.advanced(by: .milliseconds(250))
        _ = (stride, later, Optional(1).publisher, Result<Int, Error>.success(1).publisher)
        let subject = PassthroughSubject<Int, Never>()
        let value = CurrentValueSubject<Int, Never>(0)
        _ = subject.zip(value).map { $0 + $1 }.eraseToAnyPublisher()
        _ = Publishers.CombineLatest(subject, value).map { $0 + $1 }.merge(with: Just(0)).collect(.byTime(queue, 0.5)).eraseToAnyPublisher()
        _ = Publishers.MergeMany([subject, PassthroughSubject<Int, Never>()]).combineLatest(value, value) { $0 + $1 + $2 }
    }
}
