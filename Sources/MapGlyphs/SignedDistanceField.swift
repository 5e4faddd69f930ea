/// The signed distance field of an antialiased glyph bitmap, as MapLibre's glyph PBFs carry it
/// (the method of mapbox/tiny-sdf): the coverage bitmap grown by a border, squared Euclidean
/// distances to the outside and to the inside by Felzenszwalb and Huttenlocher's exact
/// distance transform (columns, then rows), and each pixel's signed distance `d` in px
/// (negative inside) stored as `255 − 255·(d / radius + cutoff)`, clamped to 0…255 — bright
/// inside, dark outside, the outline near 191.
enum SignedDistanceField {
    /// MapLibre's glyph border, px, on each side.
    static let border = 3
    /// The distance (px) that spans the byte range.
    static let radius = 8.0
    /// The share of the byte range given to the inside.
    static let cutoff = 0.25

    /// A finite stand-in for infinity, so `∞ − ∞` never makes a NaN in the parabola intersections.
    private static let far = 1e20

    /// The field of `coverage` (`width`·`height` bytes, rows top-down, 255 = fully inside),
    /// `(width + 2·border)`·`(height + 2·border)` bytes, rows top-down.
    static func encode(coverage: [UInt8], width: Int, height: Int,
                       border: Int = border, radius: Double = radius, cutoff: Double = cutoff) -> [UInt8] {
        precondition(coverage.count == width * height, "coverage must hold width·height bytes")
        let gridWidth = width + 2 * border, gridHeight = height + 2 * border
        let count = gridWidth * gridHeight
        // Squared distance to the nearest outside pixel (0 outside) and to the nearest inside pixel (0 inside).
        var toOutside = [Double](repeating: 0, count: count)
        var toInside = [Double](repeating: far, count: count)
        for y in 0..<height {
            for x in 0..<width {
                let alpha = Double(coverage[y * width + x]) / 255
                guard alpha > 0 else { continue }
                let index = (y + border) * gridWidth + x + border
                if alpha >= 1 {
                    toOutside[index] = far
                    toInside[index] = 0
                } else {
                    // A partly covered pixel: the edge lies `0.5 − alpha` px from its centre.
                    let offset = 0.5 - alpha
                    toInside[index] = offset > 0 ? offset * offset : 0
                    toOutside[index] = offset < 0 ? offset * offset : 0
                }
            }
        }
        var scratch = Scratch(length: max(gridWidth, gridHeight))
        transform(&toOutside, width: gridWidth, height: gridHeight, scratch: &scratch)
        transform(&toInside, width: gridWidth, height: gridHeight, scratch: &scratch)

        var field = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let distance = toInside[index].squareRoot() - toOutside[index].squareRoot()
            let value = (255 - 255 * (distance / radius + cutoff)).rounded()
            field[index] = UInt8(min(255, max(0, value)))
        }
        return field
    }

    /// Working arrays of the 1-D transform: sampled values, parabola vertices, and boundaries.
    private struct Scratch {
        var values: [Double]
        var vertices: [Int]
        var boundaries: [Double]
        init(length: Int) {
            values = [Double](repeating: 0, count: length)
            vertices = [Int](repeating: 0, count: length)
            boundaries = [Double](repeating: 0, count: length + 1)
        }
    }

    /// The 2-D squared Euclidean distance transform in place: every column, then every row.
    private static func transform(_ grid: inout [Double], width: Int, height: Int, scratch: inout Scratch) {
        grid.withUnsafeMutableBufferPointer { cells in
            for x in 0..<width { transform1D(cells, offset: x, stride: width, length: height, scratch: &scratch) }
            for y in 0..<height { transform1D(cells, offset: y * width, stride: 1, length: width, scratch: &scratch) }
        }
    }

    /// The 1-D transform of `length` cells `stride` apart: the lower envelope of the parabolas
    /// `(q − p)² + f(p)`, sampled at every `q`.
    private static func transform1D(_ cells: UnsafeMutableBufferPointer<Double>, offset: Int, stride: Int, length: Int,
                                    scratch: inout Scratch) {
        guard length > 0 else { return }
        for q in 0..<length { scratch.values[q] = cells[offset + q * stride] }
        var envelopeCount = 0
        scratch.vertices[0] = 0
        scratch.boundaries[0] = -Double.infinity
        scratch.boundaries[1] = Double.infinity
        for q in 1..<length {
            let fq = scratch.values[q] + Double(q * q)
            var intersection: Double
            // Drop the parabolas the new one hides; the first boundary is −∞, so the loop stops.
            while true {
                let p = scratch.vertices[envelopeCount]
                intersection = (fq - scratch.values[p] - Double(p * p)) / Double(2 * (q - p))
                guard intersection <= scratch.boundaries[envelopeCount], envelopeCount > 0 else { break }
                envelopeCount -= 1
            }
            envelopeCount += 1
            scratch.vertices[envelopeCount] = q
            scratch.boundaries[envelopeCount] = intersection
            scratch.boundaries[envelopeCount + 1] = Double.infinity
        }
        var k = 0
        for q in 0..<length {
            while scratch.boundaries[k + 1] < Double(q) { k += 1 }
            let p = scratch.vertices[k]
            let gap = Double(q - p)
            cells[offset + q * stride] = scratch.values[p] + gap * gap
        }
    }
}
