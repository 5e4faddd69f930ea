import CCairo

/// One Cairo image surface and its drawing context, owned by one call (raster tile or sprite atlas) and
/// destroyed with it: nothing Cairo-side is shared between threads except Cairo's own locked font caches.
/// Colours are straight-alpha `RGBAColor`s; coordinates are pixels, y down.
final class CairoCanvas {
    /// Why Cairo refused: its status text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    /// `opaque`: an RGB surface (its PNG has no alpha channel); otherwise ARGB. `fastAntialias`: Cairo's
    /// coarser antialiasing grid (about half the time of the default on dense tiles; edges still smooth).
    init(width: Int, height: Int, opaque: Bool, fastAntialias: Bool) throws(Failure) {
        guard width > 0, height > 0, width <= 32_767, height <= 32_767 else {
            throw Failure(description: "canvas size \(width)×\(height) out of range")
        }
        let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw Failure(description: String(cString: cairo_status_to_string(status)))
        }
        let cr = cairo_create(surface)!
        self.surface = surface
        self.cr = cr
        self.width = width
        self.height = height
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_antialias(cr, fastAntialias ? CAIRO_ANTIALIAS_FAST : CAIRO_ANTIALIAS_DEFAULT)
        if fastAntialias { cairo_set_tolerance(cr, 0.3) }
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    // MARK: state

    func setColor(_ c: RGBAColor) {
        cairo_set_source_rgba(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, Double(c.alpha) / 255)
    }

    /// Replaces every pixel with `color` (alpha included).
    func clear(to color: RGBAColor) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setColor(color)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    func setLineWidth(_ width: Double) { cairo_set_line_width(cr, width) }

    /// Dash lengths in pixels; empty draws solid.
    func setDash(_ lengths: [Double]) {
        lengths.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 0) }
    }

    func setEvenOddFill(_ evenOdd: Bool) {
        cairo_set_fill_rule(cr, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    /// Runs `body` with drawing moved by (`dx`, `dy`), scaled by `scale` and clipped to the box
    /// (`dx`, `dy`, `clipWidth`·`scale`, `clipHeight`·`scale`); the previous state is restored after.
    func withPlacement(dx: Double, dy: Double, scale: Double, clipWidth: Double, clipHeight: Double, _ body: () -> Void) {
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, dx, dy, clipWidth * scale, clipHeight * scale)
        cairo_clip(cr)
        cairo_translate(cr, dx, dy)
        cairo_scale(cr, scale, scale)
        body()
        cairo_restore(cr)
    }

    // MARK: paths

    func newPath() { cairo_new_path(cr) }
    func move(to p: PixelPoint) { cairo_move_to(cr, p.x, p.y) }
    func line(to p: PixelPoint) { cairo_line_to(cr, p.x, p.y) }
    func closePath() { cairo_close_path(cr) }

    /// Appends an open polyline.
    func addPolyline(_ points: [PixelPoint]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
    }

    /// Appends a closed ring, clockwise on screen when `clockwise`, else counter-clockwise (whatever its order).
    func addRing(_ points: [PixelPoint], clockwise: Bool) {
        guard points.count >= 3 else { return }
        var twiceArea = 0.0
        var previous = points[points.count - 1]
        for p in points {
            twiceArea += previous.x * p.y - p.x * previous.y
            previous = p
        }
        // y down: a positive shoelace sum is clockwise on screen.
        if (twiceArea >= 0) == clockwise {
            cairo_move_to(cr, points[0].x, points[0].y)
            for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        } else {
            let last = points.count - 1
            cairo_move_to(cr, points[last].x, points[last].y)
            for i in stride(from: last - 1, through: 0, by: -1) { cairo_line_to(cr, points[i].x, points[i].y) }
        }
        cairo_close_path(cr)
    }

    func addCircle(center: PixelPoint, radius: Double) {
        cairo_new_sub_path(cr)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * Double.pi)
        cairo_close_path(cr)
    }

    /// Appends a rectangle with corners rounded by `radius`.
    func addRoundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = max(0, min(radius, width / 2, height / 2))
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    func fill(preserve: Bool = false) { preserve ? cairo_fill_preserve(cr) : cairo_fill(cr) }
    func stroke(preserve: Bool = false) { preserve ? cairo_stroke_preserve(cr) : cairo_stroke(cr) }

    // MARK: text (Cairo's toy API, a sans-serif face found by fontconfig)

    /// Ink box of a text relative to its origin on the baseline, and its advance.
    struct TextBox {
        var x: Double, y: Double, width: Double, height: Double, advance: Double
    }

    func selectFont(size: Double, bold: Bool) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }

    func measure(_ text: String) -> TextBox {
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, text, &e)
        return TextBox(x: e.x_bearing, y: e.y_bearing, width: e.width, height: e.height, advance: e.x_advance)
    }

    /// Appends the outlines of `text` with its baseline origin at `origin`.
    func addText(_ text: String, origin: PixelPoint) {
        cairo_move_to(cr, origin.x, origin.y)
        cairo_text_path(cr, text)
    }

    // MARK: output

    /// Cairo's sticky error, if drawing failed (out of memory, an invalid matrix…).
    func checkStatus() throws(Failure) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(description: String(cString: cairo_status_to_string(status))) }
    }

    /// The surface as PNG bytes: 8-bit RGB when the canvas is opaque, else RGBA with straight alpha.
    func pngBytes() throws(Failure) -> [UInt8] {
        try checkStatus()
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { throw Failure(description: "no image data") }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let hasAlpha = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
        let width = self.width
        do {
            return try PNGWriter.encode(width: width, height: height, hasAlpha: hasAlpha) { y, row in
                // Cairo's pixels: native-endian 32-bit words, 0xAARRGGBB, colour premultiplied by alpha.
                let words = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                if hasAlpha {
                    for x in 0..<width {
                        let w = words[x]
                        let a = w >> 24
                        let o = x * 4
                        if a == 0 {
                            row[o] = 0; row[o + 1] = 0; row[o + 2] = 0; row[o + 3] = 0
                        } else {
                            // Cairo's own rounding when it writes PNGs.
                            row[o] = UInt8(min(255, (((w >> 16) & 0xFF) * 255 + a / 2) / a))
                            row[o + 1] = UInt8(min(255, (((w >> 8) & 0xFF) * 255 + a / 2) / a))
                            row[o + 2] = UInt8(min(255, ((w & 0xFF) * 255 + a / 2) / a))
                            row[o + 3] = UInt8(a)
                        }
                    }
                } else {
                    for x in 0..<width {
                        let w = words[x]
                        let o = x * 3
                        row[o] = UInt8((w >> 16) & 0xFF); row[o + 1] = UInt8((w >> 8) & 0xFF); row[o + 2] = UInt8(w & 0xFF)
                    }
                }
            }
        } catch {
            throw Failure(description: "PNG encoding: \(error.description)")
        }
    }
}
