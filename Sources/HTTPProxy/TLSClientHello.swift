import HTTPServer

/// Reads the server name (SNI, RFC 6066) out of the first TLS record a client sends — all the
/// proxy needs to route a `CONNECT ADDRESS:443` by the name the client means. Bounds-checked
/// throughout; anything unexpected is `.absent`.
enum TLSClientHello {
    enum Result: Equatable {
        case name(String)
        /// Not all of the first record is here yet.
        case incomplete
        /// Not a ClientHello, or one without a host name.
        case absent
    }

    static func serverName(_ bytes: [UInt8]) -> Result {
        guard bytes.count >= 5 else { return bytes.isEmpty || bytes[0] == 0x16 ? .incomplete : .absent }
        guard bytes[0] == 0x16, bytes[1] == 0x03 else { return .absent }  // handshake record, TLS 1.x
        let recordLength = Int(bytes[3]) << 8 | Int(bytes[4])
        guard recordLength > 0, recordLength <= 16_384 else { return .absent }
        guard bytes.count >= 5 + recordLength else { return .incomplete }
        var reader = Reader(bytes: bytes[5..<(5 + recordLength)])
        guard reader.byte() == 0x01, let helloLength = reader.number(3), helloLength <= reader.remaining,  // ClientHello
              reader.skip(2 + 32),                                         // version, random
              let sessionLength = reader.number(1), reader.skip(sessionLength),
              let suitesLength = reader.number(2), reader.skip(suitesLength),
              let compressionLength = reader.number(1), reader.skip(compressionLength),
              let extensionsLength = reader.number(2), extensionsLength <= reader.remaining
        else { return .absent }
        var extensions = Reader(bytes: reader.take(extensionsLength))
        while extensions.remaining >= 4 {
            guard let type = extensions.number(2), let length = extensions.number(2), length <= extensions.remaining else { return .absent }
            let body = extensions.take(length)
            guard type == 0 else { continue }  // server_name
            var names = Reader(bytes: body)
            guard let listLength = names.number(2), listLength <= names.remaining else { return .absent }
            var list = Reader(bytes: names.take(listLength))
            while list.remaining >= 3 {
                guard let kind = list.number(1), let nameLength = list.number(2), nameLength <= list.remaining else { return .absent }
                let name = list.take(nameLength)
                if kind == 0, let text = String(validating: name, as: UTF8.self), !text.isEmpty { return .name(text) }
            }
            return .absent
        }
        return .absent
    }

    private struct Reader {
        var bytes: ArraySlice<UInt8>

        var remaining: Int { bytes.count }

        mutating func byte() -> UInt8? {
            bytes.popFirst()
        }

        mutating func number(_ width: Int) -> Int? {
            guard bytes.count >= width else { return nil }
            var value = 0
            for _ in 0..<width { value = value << 8 | Int(bytes.removeFirst()) }
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, bytes.count >= count else { return false }
            bytes.removeFirst(count)
            return true
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8> {
            let taken = bytes.prefix(count)
            bytes.removeFirst(taken.count)
            return taken
        }
    }
}
