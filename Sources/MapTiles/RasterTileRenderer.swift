import Foundation

/// Why a raster tile could not be drawn.
public enum RasterTileError: Error, Equatable, CustomStringConvertible {
    /// Scales are 1 (256 px) or 2 (512 px, `@2x`).
    case unsupportedScale(Int)
    /// Cairo failed (memory, encoding); its message.
    case drawingFailed(String)

    public var description: String {
        switch self {
        case .unsupportedScale(let s): return "raster tile scale \(s) is not supported (1 or 2)"
        case .drawingFailed(let m): return "raster tile drawing failed: \(m)"
        }
    }
}

/// Draws one XYZ raster tile as PNG with Cairo from the features the caller found overlapping it, following a
/// `RasterPaint`. Stateless: every call draws on its own surface, so calls may run on many threads at once.
public struct RasterTileRenderer: Sendable {
    public init() {}

    /// PNG bytes of `tile`, 256·`scale` pixels square.
    ///
    /// Features whose `minZoom` is above the tile's zoom are not drawn; features far outside the tile are
    /// cheap but wasted work (the caller's index should leave them out). The tile's zoom is the zoom of the
    /// rules' ranges and `ZoomFunction`s. Lines are drawn with round joins and caps, antialiased; see
    /// `RasterRule` for the order of the passes.
    public func render(tile: TileID, features: some Sequence<MapFeature>, paint: RasterPaint, scale: Int) throws(RasterTileError) -> [UInt8] {
        guard scale == 1 || scale == 2 else { throw .unsupportedScale(scale) }
        let s = Double(scale)
        let size = 256 * scale
        let zoom = Double(tile.z)
        let projection = TilePixelProjection(tile: tile, pixelsPerTile: Double(size), margin: Double(size))
        // Widths, radii and text sizes are capped at the tile's side, which the projection's margin covers:
        // a wider stroke would show where lines are cut.
        let maxSize = Double(size)

        // Which rules draw which features.
        var rulesOfLayer: [String: [Int]] = [:]
        for (i, rule) in paint.rules.enumerated() where rule.isVisible(atZoom: tile.z) {
            rulesOfLayer[rule.sourceLayer, default: []].append(i)
        }
        var matches = [[MapFeature]](repeating: [], count: paint.rules.count)
        if !rulesOfLayer.isEmpty {
            for feature in features where feature.minZoom <= tile.z {
                guard let ruleIndices = rulesOfLayer[feature.layer] else { continue }
                for i in ruleIndices where paint.rules[i].filter.matches(feature) { matches[i].append(feature) }
            }
        }

        let canvas: CairoCanvas
        do { canvas = try CairoCanvas(width: size, height: size, opaque: paint.background.isOpaque, fastAntialias: true) } catch {
            throw .drawingFailed(error.description)
        }
        canvas.clear(to: paint.background)

        // Line runs in pixels, projected once for the casing and the line passes.
        var lineRuns = [[[PixelPoint]]](repeating: [], count: paint.rules.count)
        for (i, rule) in paint.rules.enumerated() {
            guard case .line = rule.drawing else { continue }
            var runs: [[PixelPoint]] = []
            for feature in matches[i] {
                guard case .lines(let lines) = feature.geometry else { continue }
                for line in lines { projection.appendRuns(of: line, to: &runs) }
            }
            lineRuns[i] = runs
        }

        // Casings, under every line of the tile.
        for (i, rule) in paint.rules.enumerated() {
            guard case .line(let line) = rule.drawing, let casing = line.casing else { continue }
            strokeRuns(lineRuns[i], on: canvas, color: casing.color, width: min(casing.width.value(at: zoom) * s, maxSize), dash: [])
        }

        // Geometry in rule order.
        for (i, rule) in paint.rules.enumerated() {
            switch rule.drawing {
            case .fill(var fill):
                fill.outlineWidth = min(fill.outlineWidth * s, maxSize) / s
                drawFill(fill, features: matches[i], on: canvas, projection: projection, scale: s)
            case .line(let line):
                let width = min(line.width.value(at: zoom) * s, maxSize)
                let dash = (line.dash ?? []).map { $0 * width }
                strokeRuns(lineRuns[i], on: canvas, color: line.color, width: width, dash: dash)
            case .circle(let circle):
                drawCircles(circle, features: matches[i], on: canvas, projection: projection, zoom: zoom, scale: s, maxSize: maxSize)
            case .label: break
            }
        }

        // Labels last; earlier rules place theirs first.
        var placed = PlacedLabelBoxes(tileSize: Double(size))
        for (i, rule) in paint.rules.enumerated() {
            guard case .label(let label) = rule.drawing else { continue }
            drawLabels(label, features: matches[i], on: canvas, projection: projection, scale: s, placed: &placed)
        }

        do { return try canvas.pngBytes() } catch { throw .drawingFailed(error.description) }
    }

    // MARK: passes

    private func strokeRuns(_ runs: [[PixelPoint]], on canvas: CairoCanvas, color: RGBAColor, width: Double, dash: [Double]) {
        guard !runs.isEmpty, width > 0, width.isFinite, color.alpha > 0 else { return }
        // A dash pattern Cairo could spend unbounded time on (a period under a pixel, hundreds of entries)
        // draws solid instead.
        let usableDash = dash.count >= 2 && dash.count <= 16 && dash.allSatisfy { $0 >= 0 && $0.isFinite }
            && dash.reduce(0, +) >= 1 ? dash : []
        canvas.setColor(color)
        canvas.setLineWidth(width)
        canvas.setDash(usableDash)
        // One path for the rule: crossing lines of a translucent colour do not darken where they overlap.
        // (With Cairo's fast antialiasing one big path costs what many small ones do.)
        canvas.newPath()
        for run in runs { canvas.addPolyline(run) }
        canvas.stroke()
        canvas.setDash([])
    }

    private func drawFill(_ fill: RasterFill, features: [MapFeature], on canvas: CairoCanvas, projection: TilePixelProjection, scale: Double) {
        guard !features.isEmpty else { return }
        canvas.newPath()
        var any = false
        // Exteriors clockwise, holes counter-clockwise: the winding rule then unites overlapping polygons and
        // still cuts every hole that no other polygon covers.
        for feature in features {
            guard case .polygons(let polygons) = feature.geometry else { continue }
            for polygon in polygons {
                for (r, ring) in polygon.enumerated() {
                    let pixels = projection.ring(ring)
                    if pixels.isEmpty {
                        if r == 0 { break } else { continue }
                    }
                    canvas.addRing(pixels, clockwise: r == 0)
                    any = true
                }
            }
        }
        guard any else { canvas.newPath(); return }
        canvas.setEvenOddFill(false)
        canvas.setColor(fill.color)
        if let outline = fill.outline, fill.outlineWidth > 0 {
            canvas.fill(preserve: true)
            canvas.setColor(outline)
            canvas.setLineWidth(fill.outlineWidth * scale)
            canvas.stroke()
        } else {
            canvas.fill()
        }
    }

    private func drawCircles(_ circle: RasterCircle, features: [MapFeature], on canvas: CairoCanvas, projection: TilePixelProjection,
                             zoom: Double, scale: Double, maxSize: Double) {
        let radius = min(circle.radius.value(at: zoom) * scale, maxSize / 2)
        let strokeWidth = min(circle.strokeWidth * scale, maxSize / 2)
        guard radius > 0, !features.isEmpty else { return }
        canvas.newPath()
        var any = false
        for feature in features {
            guard case .points(let points) = feature.geometry else { continue }
            for point in points {
                let p = projection.project(point)
                guard projection.isNear(p, extra: radius) else { continue }
                canvas.addCircle(center: p, radius: radius)
                any = true
            }
        }
        guard any else { return }
        canvas.setColor(circle.fill)
        if let stroke = circle.stroke, strokeWidth > 0 {
            canvas.fill(preserve: true)
            canvas.setColor(stroke)
            canvas.setLineWidth(strokeWidth)
            canvas.stroke()
        } else {
            canvas.fill()
        }
    }

    private func drawLabels(_ label: RasterLabel, features: [MapFeature], on canvas: CairoCanvas, projection: TilePixelProjection,
                            scale: Double, placed: inout PlacedLabelBoxes) {
        let size = min(label.size * scale, placed.tileSize / 2)
        guard size > 0, !features.isEmpty else { return }
        let halo = label.halo.flatMap { label.haloWidth > 0 ? ($0, min(label.haloWidth * scale, size)) : nil }
        let pad = (halo?.1 ?? 0) + 1 * scale
        canvas.selectFont(size: size, bold: label.bold)
        for feature in features {
            guard let text = Self.labelText(feature[label.textKey]) else { continue }
            var box: CairoCanvas.TextBox?
            func measured() -> CairoCanvas.TextBox {
                if let box { return box }
                let b = canvas.measure(text)
                box = b
                return b
            }
            for anchor in anchors(of: feature, projection: projection, textWidth: { measured().width }) {
                let b = measured()
                guard b.width > 0 else { break }
                let origin = PixelPoint(x: anchor.x - (b.x + b.width / 2), y: anchor.y - (b.y + b.height / 2) + label.offsetY * scale)
                let ink = PlacedLabelBoxes.Box(minX: origin.x + b.x - pad, minY: origin.y + b.y - pad,
                                               maxX: origin.x + b.x + b.width + pad, maxY: origin.y + b.y + b.height + pad)
                let alongLine: Bool
                if case .lines = feature.geometry { alongLine = true } else { alongLine = false }
                if alongLine && placed.repeatsLineText(text, near: anchor, distance: placed.tileSize / 2) { continue }
                guard placed.place(ink) else { continue }
                if alongLine { placed.noteLineText(text, at: anchor) }
                canvas.newPath()
                canvas.addText(text, origin: origin)
                if let (haloColor, haloWidth) = halo {
                    canvas.setColor(haloColor)
                    canvas.setLineWidth(2 * haloWidth)
                    canvas.stroke(preserve: true)
                }
                canvas.setColor(label.color)
                canvas.fill()
            }
        }
    }

    /// Where a feature's label may go: each point; the middle of a line's longest run when the run is longer
    /// than the text plus some room; the middle of a polygon's first ring's box.
    private func anchors(of feature: MapFeature, projection: TilePixelProjection, textWidth: () -> Double) -> [PixelPoint] {
        switch feature.geometry {
        case .points(let points):
            return points.map(projection.project).filter { projection.isNear($0) }
        case .lines(let lines):
            var runs: [[PixelPoint]] = []
            for line in lines { projection.appendRuns(of: line, to: &runs) }
            var best: (run: [PixelPoint], length: Double)?
            for run in runs {
                var length = 0.0
                for k in 1..<run.count { length += hypot(run[k].x - run[k - 1].x, run[k].y - run[k - 1].y) }
                if length > (best?.length ?? 0) { best = (run, length) }
            }
            guard let best, best.length >= textWidth() * 1.5 else { return [] }
            var remaining = best.length / 2
            for k in 1..<best.run.count {
                let a = best.run[k - 1], b = best.run[k]
                let step = hypot(b.x - a.x, b.y - a.y)
                if step >= remaining, step > 0 {
                    let t = remaining / step
                    return [PixelPoint(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))]
                }
                remaining -= step
            }
            return [best.run[best.run.count - 1]]
        case .polygons(let polygons):
            guard let ring = polygons.first?.first, let bounds = WorldBounds(enclosing: ring) else { return [] }
            let p = projection.project(WorldPoint(x: (bounds.minX + bounds.maxX) / 2, y: (bounds.minY + bounds.maxY) / 2))
            return projection.isNear(p) ? [p] : []
        }
    }

    /// A label's text: strings as they are, numbers written out; nothing for booleans, missing or blank values.
    static func labelText(_ value: MapValue?) -> String? {
        switch value {
        case .string(let s):
            let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .int(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return nil }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool, .none: return nil
        }
    }
}
