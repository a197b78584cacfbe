import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The live view's request context: Hummingbird's WebSocket context, and the connection the
/// request came on, so that a refused WebSocket upgrade can be answered with its reason.
struct LiveViewRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}

/// The reasons WebSocket upgrades were refused, by connection, until the connection's first
/// answer goes out: Hummingbird answers a refused upgrade with a bare 400, which the
/// connection's `FirstRequestLimitHandler` replaces with the refusal's status and reason.
///
/// Thread ownership: any thread.
final class UpgradeRefusals: Sendable {
    /// A refusal: the status line's code and phrase, and the reason.
    struct Refusal: Sendable {
        let status: String
        let reason: String
    }

    private let refusals = Mutex<[ObjectIdentifier: Refusal]>([:])

    init() {}

    /// Keeps the refusal of the upgrade asked for on `channel`.
    func record(_ refusal: Refusal, for channel: any Channel) {
        refusals.withLock { $0[ObjectIdentifier(channel)] = refusal }
    }

    /// The refusal kept for `channel`, forgotten.
    func take(for channel: any Channel) -> Refusal? {
        refusals.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
