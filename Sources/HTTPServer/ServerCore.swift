import Foundation

/// What the MHD callbacks share for one running daemon: the responder, the limits, the
/// connection guard, and the set of currently suspended requests (so `stop()` can resume
/// them before MHD_stop_daemon, which must never see a suspended connection).
final class ServerCore: @unchecked Sendable {
    let responder: any HTTPResponder
    let configuration: HTTPServerConfiguration
    let connectionGuard: ConnectionGuard

    private let lock = NSLock()
    private var stopping = false
    private var draining = false
    private var suspended: [ObjectIdentifier: RequestContext] = [:]

    init(responder: any HTTPResponder, configuration: HTTPServerConfiguration) {
        self.responder = responder
        self.configuration = configuration
        self.connectionGuard = ConnectionGuard(maxConnections: configuration.maxConnections,
                                               headerTimeout: configuration.headerTimeout,
                                               bodyTimeout: configuration.bodyTimeout)
    }

    /// Whether the server is draining: responses then carry `Connection: close`.
    var isDraining: Bool {
        lock.withLock { draining }
    }

    /// Whether `HTTPServer.stop` is past draining: requests not yet handled are then closed
    /// instead of handled (a worker may still hold a batch of them, and MHD_stop_daemon
    /// waits for the workers).
    var isStopping: Bool {
        lock.withLock { stopping }
    }

    func beginDrain() {
        lock.withLock { draining = true }
    }

    /// Records a request that is about to be suspended. Returns false once shutdown has
    /// begun: the caller must then not suspend (and should close the connection).
    func registerSuspension(_ context: RequestContext) -> Bool {
        lock.withLock {
            guard !stopping else { return false }
            suspended[ObjectIdentifier(context)] = context
            return true
        }
    }

    func unregisterSuspension(_ context: RequestContext) {
        lock.withLock { _ = suspended.removeValue(forKey: ObjectIdentifier(context)) }
    }

    /// Refuses further suspensions and returns the requests suspended right now.
    func beginShutdown() -> [RequestContext] {
        lock.withLock {
            stopping = true
            let all = Array(suspended.values)
            suspended.removeAll()
            return all
        }
    }
}
