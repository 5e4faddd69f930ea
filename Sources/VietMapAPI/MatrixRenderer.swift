import JSON
import Routing

/// The matrix answer, written as bytes (`JSONWriter`) in the keys' order of the Flutter SDK's
/// `VietmapMatrixModel`: `{"code":"OK","messages":null,"durations":[[s,…],…],"distances":[[m,…],…]}`,
/// one row per source and one column per destination; seconds and metres rounded to 0.1 (numbers, not
/// integers), `null` for an unreachable pair. An array not asked for is left out.
enum MatrixRenderer {
    static func answer(_ matrix: TravelMatrix, durations: Bool, distances: Bool) -> [UInt8] {
        let rows = (durations ? 1 : 0) + (distances ? 1 : 0)
        var writer = JSONWriter(capacity: 64 + rows * matrix.sourceCount * (2 + matrix.destinationCount * 9))
        writer.beginObject()
        writer.member("code", "OK")
        writer.key("messages")
        writer.null()
        if durations { self.rows("durations", of: matrix, \.seconds, into: &writer) }
        if distances { self.rows("distances", of: matrix, \.meters, into: &writer) }
        writer.endObject()
        return writer.bytes
    }

    /// The member `name`: a row of `value`s per source.
    private static func rows(_ name: String, of matrix: TravelMatrix, _ value: (TravelMatrix.Cell) -> Double,
                             into writer: inout JSONWriter) {
        writer.key(name)
        writer.beginArray()
        for source in 0..<matrix.sourceCount {
            writer.beginArray()
            for destination in 0..<matrix.destinationCount {
                if let cell = matrix[source, destination] { writer.number(RouteRenderer.round1(value(cell))) } else { writer.null() }
            }
            writer.endArray()
        }
        writer.endArray()
    }
}
