/// How a response travels on the wire. Anything but `.normal` is a deliberate fault,
/// used to test how clients cope with broken servers.
public enum TransportBehaviour: Sendable, Equatable {
    /// A well-formed response.
    case normal
    /// Close the connection without sending a single byte (the client sees an empty reply).
    case closeWithoutResponse
    /// Abort the connection with a TCP RST and no bytes sent (the client sees ECONNRESET).
    case reset
    /// Send the headers (announcing the full `Content-Length`) and only the first
    /// `afterBytes` bytes of the body, then close the connection.
    case truncate(afterBytes: Int)
    /// Send the body in `chunks` pieces, `intervalMilliseconds` apart (the first right away
    /// with the headers). No thread is held while waiting.
    case dribble(chunks: Int, intervalMilliseconds: Int)
}
