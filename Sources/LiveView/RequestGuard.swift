import CoreVideo
import Foundation
import Hummingbird

/// What the server learnt when it started listening, which every request is checked against.
struct ListeningFacts: Sendable {
    /// The port bound.
    var port: Int
    /// Whether the bound address is a loopback address.
    var isLoopback: Bool
}

/// Refuses every request that is not from the live view's own page or a client holding its
/// token, before any route sees it: the page, the API and the frames socket alike.
///
/// Loopback is no authority: any web page the user opens can send requests to 127.0.0.1, and a
/// name the attacker controls can be made to resolve there (DNS rebinding). So each request must
/// - name this server in `Host`: its bound port (where a port is named), and `localhost`, an IP
///   address, the machine's own name or one of the configured names (never a name someone
///   else's DNS answers for);
/// - come from the page's own origin when it says where it comes from (`Origin`), as browsers do
///   for every cross-origin request and WebSocket (`null` and every other origin are refused);
/// - carry the token (`?token=` or `Authorization: Bearer`), except the page itself where the
///   page is open (a generated token on loopback): the page carries the token to its script,
///   and no other origin can read it;
/// - send control requests as `application/json`, which another origin cannot send without a
///   preflight this server never grants.
/// A known path with the wrong method gets 405, an unknown one falls through to 404.
///
/// A refused WebSocket upgrade's status and reason are kept for its connection, whose first
/// answer then says them (Hummingbird's own answer to a refused upgrade is a bare 400). A plain
/// request for the frames socket is answered 426.
struct RequestGuard: RouterMiddleware {
    typealias Context = LiveViewRequestContext
    let token: String
    /// Whether the page is served without the token when the bound address is loopback.
    let pageIsOpenOnLoopback: Bool
    let configuredHost: String
    let allowedHostNames: Set<String>
    let facts: LockedValue<ListeningFacts?>
    let upgradeRefusals: UpgradeRefusals

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let refused = refusal(of: request) else { return try await next(request, context) }
        if request.headers[.upgrade]?.lowercased() == "websocket" {
            upgradeRefusals.record(.init(status: "\(refused.status.code) \(refused.status.reasonPhrase)", reason: refused.reason), for: context.channel)
        }
        var response = Self.refusal(refused.status, refused.reason)
        response.headers.append(contentsOf: refused.headers)
        return response
    }

    /// Why the request is refused, with the status and any headers to answer with; nil when it may go on.
    private func refusal(of request: Request) -> (status: HTTPResponse.Status, reason: String, headers: HTTPFields)? {
        guard let facts = facts.withLock({ $0 }) else {
            return (.serviceUnavailable, "The live view is not listening yet.", [:])
        }
        let authority = request.head.authority ?? ""
        guard let host = NetworkAddress.parseHostHeader(authority), host.port == nil || host.port == facts.port, allows(hostName: host.name) else {
            return (.forbidden, "This live view answers to its own address only, not to the host '\(authority.prefix(100))'.", [:])
        }
        if let origin = request.headers[.origin], !Self.isOwnOrigin(origin, host: host) {
            return (.forbidden, "Requests from other pages are refused (origin \(origin.prefix(100))).", [:])
        }
        let path = request.uri.path
        if let allowed = Self.methods(for: path), !allowed.contains(request.method) {
            return (
                .methodNotAllowed, "\(path) takes \(allowed.map(\.rawValue).joined(separator: " or ")), not \(request.method.rawValue).",
                [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
            )
        }
        let isPage = path == "/" && (request.method == .get || request.method == .head)
        if let given = Self.token(in: request) {
            guard Self.equal(Array(given.utf8), Array(token.utf8)) else { return (.unauthorized, "The access token is wrong.", [.wwwAuthenticate: "Bearer"]) }
        } else if !(isPage && pageIsOpenOnLoopback && facts.isLoopback) {
            return (.unauthorized, "This live view needs its access token: add ?token=... to the address.", [.wwwAuthenticate: "Bearer"])
        }
        if path == "/frames", request.headers[.upgrade]?.lowercased() != "websocket" {
            return (.init(code: 426, reasonPhrase: "Upgrade Required"), "/frames is a WebSocket: open it with a WebSocket client.", [.upgrade: "websocket"])
        }
        if request.method == .post {
            let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" else {
                return (.unsupportedMediaType, "Control requests are JSON: send them as application/json.", [:])
            }
        }
        return nil
    }

    /// Whether a `Host` header's name names this server.
    private func allows(hostName name: String) -> Bool {
        name == "localhost" || NetworkAddress.isAddressLiteral(name) || name == configuredHost
            || NetworkAddress.machineNames.contains(name) || allowedHostNames.contains(name)
    }

    /// Whether an `Origin` is the page's own: `http://` and the host the request names. A
    /// `ws://` origin naming the same host is a WebSocket client's own (never a browser's: a
    /// browser's origin is the page's), which some clients send without the port.
    private static func isOwnOrigin(_ origin: String, host: (name: String, port: Int?)) -> Bool {
        let value = origin.lowercased()
        if value.hasPrefix("http://"), let named = NetworkAddress.parseHostHeader(String(value.dropFirst(7))) {
            return named.name == host.name && (named.port ?? 80) == (host.port ?? 80)
        }
        if value.hasPrefix("ws://"), let named = NetworkAddress.parseHostHeader(String(value.dropFirst(5))) {
            return named.name == host.name && (named.port == nil || named.port == host.port)
        }
        return false
    }

    /// The methods a known path takes; nil for paths the server does not have.
    private static func methods(for path: String) -> [HTTPRequest.Method]? {
        switch path {
        case "/": [.get, .head]
        case "/api/state", "/frames": [.get]
        case _ where path.hasPrefix("/api/") && !path.dropFirst(5).contains("/"): [.post]
        default: nil
        }
    }

    /// The token a request carries in its query or its `Authorization` header.
    private static func token(in request: Request) -> String? {
        if let query = request.uri.queryParameters.get("token") { return query }
        if let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") {
            return String(authorization.dropFirst("Bearer ".count))
        }
        return nil
    }

    /// Compares in time that depends on the length only, not on where the first difference is.
    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A refusal with its reason as JSON.
    static func refusal(_ status: HTTPResponse.Status, _ reason: String) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let body = (try? encoder.encode(["error": reason])) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
