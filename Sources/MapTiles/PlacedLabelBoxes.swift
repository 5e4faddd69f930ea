import Foundation

/// The boxes of the labels placed so far on one raster tile: a new label goes on only when its box stays inside
/// the tile and overlaps none of them. A list scanned in full — a tile holds tens of labels, not thousands.
struct PlacedLabelBoxes {
    /// A box in pixels, y down.
    struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    let tileSize: Double
    private(set) var boxes: [Box] = []
    /// Texts placed along lines and their anchors: a street cut into many edges is named once per stretch.
    private var lineTexts: [(text: String, anchor: PixelPoint)] = []

    init(tileSize: Double) { self.tileSize = tileSize }

    /// Places `box` and returns true when it is inside the tile and clear of every placed box.
    mutating func place(_ box: Box) -> Bool {
        guard box.minX >= 0, box.minY >= 0, box.maxX <= tileSize, box.maxY <= tileSize else { return false }
        for b in boxes where box.minX < b.maxX && b.minX < box.maxX && box.minY < b.maxY && b.minY < box.maxY {
            return false
        }
        boxes.append(box)
        return true
    }

    /// Whether a line's label `text` was already placed within `distance` of `anchor`.
    func repeatsLineText(_ text: String, near anchor: PixelPoint, distance: Double) -> Bool {
        lineTexts.contains { $0.text == text && hypot($0.anchor.x - anchor.x, $0.anchor.y - anchor.y) < distance }
    }

    mutating func noteLineText(_ text: String, at anchor: PixelPoint) { lineTexts.append((text, anchor)) }
}
