import CMicroHTTPD
import Foundation

/// The connections the kernel completed on a listening socket that nobody accepted yet.
///
/// Closing a listening socket resets every connection still in its accept queue, requests
/// and all. So that a graceful stop answers them, the queue is emptied first: each socket
/// is accepted (non-blocking, until the queue is empty) and handed to libmicrohttpd with
/// `MHD_add_connection`, which serves it like one it had accepted itself.
enum ListenBacklog {
    /// Accepts what is queued on `listener` (which `MHD_quiesce_daemon` returned, so no
    /// worker accepts from it any more) and hands it to `daemon`, announcing each socket to
    /// `connectionGuard` first (so a drain waits for it). Returns how many sockets
    /// libmicrohttpd took; it closes those it refuses (at its connection limit).
    @discardableResult
    static func handOver(_ listener: Int32, to daemon: OpaquePointer, announcingTo connectionGuard: ConnectionGuard) -> Int {
        guard vmsim_set_nonblocking(listener) == 0 else { return 0 }
        var taken = 0
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            if socket < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return taken  // EAGAIN: the queue is empty (or an error that accepting again won't fix)
            }
            connectionGuard.expectHandOver(socket: socket)
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, socket, $0, length) }
            }
            if added == .YES {
                taken += 1
            } else {
                connectionGuard.handOverFailed(socket: socket)
            }
        }
    }
}
