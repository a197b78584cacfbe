import Foundation

/// How a live view listens, whom it answers, and how it encodes.
public struct LiveViewConfiguration: Sendable {
    /// The shortest access token a live view accepts.
    public static let minimumTokenLength = 16

    /// The address to listen on; loopback unless another is given.
    public var host: String
    /// The port to listen on; 0 picks a free one.
    public var port: Int
    /// The token every request must carry (`?token=` or `Authorization: Bearer`), at least
    /// `minimumTokenLength` characters; generated when nil. The page is served without it only
    /// when the token was generated and the server listens on loopback: the page carries it then.
    public var accessToken: String?
    /// Host names besides the machine's own, `localhost` and IP addresses that requests may name
    /// in their `Host` header, for a server reached by a name of its own.
    public var allowedHostNames: [String]
    /// The JPEG quality of the frames sent, 1 to 100.
    public var jpegQuality: Int
    /// Where photos and movies taken from the page are saved.
    public var saveDirectory: URL
    /// The most connections served at once; a first request past them is answered 503 at once.
    public var maximumConnections: Int
    /// How many of `maximumConnections` are kept for requests that carry the token and are not
    /// viewers (the page's own controls): viewers and requests without the token take the rest.
    public var reservedConnections: Int
    /// How long a connection may stay idle between requests before it is closed.
    public var idleTimeout: Duration
    /// How long a new connection may take to send its first request's head before it is closed:
    /// short, since the server holds it meanwhile.
    public var firstRequestTimeout: Duration

    /// Creates a configuration; the defaults listen on 127.0.0.1:8080 with JPEG quality 80.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, accessToken: String? = nil, allowedHostNames: [String] = [],
        jpegQuality: Int = 80, saveDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        maximumConnections: Int = 32, reservedConnections: Int = 8, idleTimeout: Duration = .seconds(15),
        firstRequestTimeout: Duration = .seconds(3)
    ) {
        self.host = host
        self.port = port
        self.accessToken = accessToken
        self.allowedHostNames = allowedHostNames
        self.jpegQuality = jpegQuality
        self.saveDirectory = saveDirectory
        self.maximumConnections = maximumConnections
        self.reservedConnections = reservedConnections
        self.idleTimeout = idleTimeout
        self.firstRequestTimeout = firstRequestTimeout
    }

    /// Whether every address the host names is a loopback address, reachable from this machine only.
    public var isLoopback: Bool { NetworkAddress.isLoopback(host: host) }
}

/// Why a live view cannot start.
public struct LiveViewConfigurationError: Error, CustomStringConvertible, Sendable {
    /// A sentence that says what is wrong.
    public let description: String
}
