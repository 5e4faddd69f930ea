import CMicroHTTPD
import Foundation

/// Per-request state. Created by the URI-log callback (its return value becomes MHD's
/// `*con_cls`, holding one retain) and released by the request-completed callback.
///
/// Two kinds of state live here:
/// - receiving state (`headersSeen`, `body`, …), touched only by the access handler on the
///   connection's MHD thread, so it needs no lock;
/// - the response `phase`, shared with `ResponseHandle.send` (any thread), the dribble
///   timer and `HTTPServer.stop()`, guarded by `lock`. The lock is held across
///   MHD_suspend_connection / MHD_resume_connection so a resume can never overtake the
///   matching suspend, and a connection is only resumed while it is known to be suspended
///   (hence alive).
final class RequestContext: @unchecked Sendable {
    enum Phase {
        /// Reading the request (MHD thread).
        case receiving
        /// The handler is running on the MHD thread; no response yet.
        case handling
        /// `send` was called while the handler ran; queued when the handler returns.
        case responseReady
        /// The handler returned without a response; the connection is suspended.
        case awaitingResponse
        /// `send` stored the response and resumed the connection; the access handler will queue it.
        case resuming
        /// The response is with MHD.
        case responding
        /// A dribbled body waits for its next chunk; the connection is suspended.
        case streamPaused
        /// The server is stopping: close without answering.
        case cancelled
        /// MHD finished the request; the handle is inert.
        case finished
    }

    enum HandlingOutcome {
        case respond(HTTPResponse)
        case suspended
        case close
    }

    let core: ServerCore
    let connection: OpaquePointer
    /// The TCP connection's entry in the connection guard (nil if MHD did not report it).
    let tracked: TrackedConnection?
    /// The request target as sent (`/path?query`), decoded as UTF-8 with repair.
    let target: String
    /// The target's length in bytes as sent.
    let targetByteCount: Int
    /// Whether the query part of the target, as sent, contained bytes that are not UTF-8
    /// (they were repaired in `target`; the request then gets a `queryError`).
    let queryHadInvalidUTF8: Bool

    // Receiving state: MHD thread only.
    var headersSeen = false
    var dispatched = false
    /// The request headers, collected when the head is complete.
    var headers = HTTPHeaders()
    var body = Data()
    var rejection: HTTPResponse?

    private let lock = NSLock()
    private var phase = Phase.receiving
    private var pending: HTTPResponse?

    init(core: ServerCore, connection: OpaquePointer, rawTarget: UnsafePointer<CChar>, tracked: TrackedConnection?) {
        self.core = core
        self.connection = connection
        self.tracked = tracked
        let byteCount = strlen(rawTarget)
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(rawTarget).assumingMemoryBound(to: UInt8.self),
                                        count: byteCount)
        if let valid = String(validating: bytes, as: UTF8.self) {
            self.target = valid
            self.queryHadInvalidUTF8 = false
        } else {
            self.target = String(decoding: bytes, as: UTF8.self)
            let queryStart = (bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex - 1) + 1
            self.queryHadInvalidUTF8 = String(validating: bytes[queryStart...], as: UTF8.self) == nil
        }
        self.targetByteCount = byteCount
    }

    // MARK: Handler round trip

    /// Called on the MHD thread right before the handler runs.
    func beginHandling() {
        lock.withLock { phase = .handling }
    }

    /// Called by `ResponseHandle.send` from any thread. Only the first response counts;
    /// later ones, and responses for closed connections or a stopped server, are ignored.
    func deliver(_ response: HTTPResponse) {
        lock.withLock {
            switch phase {
            case .handling:
                pending = response
                phase = .responseReady
            case .awaitingResponse:
                pending = response
                phase = .resuming
                MHD_resume_connection(connection)
                core.unregisterSuspension(self)
            case .receiving, .responseReady, .resuming, .responding, .streamPaused, .cancelled, .finished:
                break
            }
        }
    }

    /// Called on the MHD thread when the handler has returned: either the response is
    /// already there (fast path), or the connection is suspended until `deliver`.
    func finishHandling() -> HandlingOutcome {
        lock.withLock {
            switch phase {
            case .responseReady:
                phase = .responding
                let response = pending
                pending = nil
                return response.map(HandlingOutcome.respond) ?? .close
            case .handling:
                guard core.registerSuspension(self) else {
                    phase = .cancelled
                    return .close
                }
                phase = .awaitingResponse
                MHD_suspend_connection(connection)
                return .suspended
            default:
                return .close
            }
        }
    }

    /// Called on the MHD thread when a suspended request is processed again: the response
    /// to queue, or nil when the server is stopping.
    func takeResumedResponse() -> HTTPResponse? {
        lock.withLock {
            guard phase == .resuming, let response = pending else {
                phase = .cancelled
                return nil
            }
            pending = nil
            phase = .responding
            return response
        }
    }

    /// Marks a response queued without going through the handler (413, 414).
    func markResponding() {
        lock.withLock { phase = .responding }
    }

    // MARK: Paused response bodies (dribble)

    /// Called from a content-reader callback: suspends the connection and resumes it at
    /// `deadline`, holding no thread meanwhile. Returns false when the server is stopping.
    func pauseStream(until deadline: DispatchTime) -> Bool {
        lock.withLock {
            guard phase == .responding, core.registerSuspension(self) else {
                phase = .cancelled
                return false
            }
            phase = .streamPaused
            MHD_suspend_connection(connection)
            DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in resumeStream() }
            return true
        }
    }

    private func resumeStream() {
        lock.withLock {
            guard phase == .streamPaused else { return }
            phase = .responding
            MHD_resume_connection(connection)
            core.unregisterSuspension(self)
        }
    }

    var isCancelled: Bool {
        lock.withLock { phase == .cancelled }
    }

    // MARK: Shutdown and completion

    /// Called by `HTTPServer.stop()` before MHD_stop_daemon: resumes the connection if it
    /// is suspended, so that MHD can close it.
    func cancelForShutdown() {
        lock.withLock {
            switch phase {
            case .awaitingResponse, .streamPaused:
                phase = .cancelled
                pending = nil
                MHD_resume_connection(connection)
            default:
                break
            }
        }
    }

    /// Called by the request-completed callback; the connection must not be touched afterwards.
    func complete() {
        lock.withLock {
            phase = .finished
            pending = nil
        }
    }
}
