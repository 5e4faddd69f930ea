import Foundation
import MapTiles

/// The box and zooms `vietmap-sim export-tiles` writes: a WGS84 box (`west,south,east,north`) or a named area,
/// and a zoom range whose tiles are cut up to `VietMapTileSchema.maxZoom` (15, VietMap's source maxzoom); deeper
/// zooms asked for are the client's overzoom of z15 and cost no tiles.
public struct MapExportArea: Sendable, Equatable {
    /// The named areas: two bundled neighbourhoods and "the whole dataset".
    public enum Name: String, Sendable, CaseIterable {
        /// Ho Chi Minh City, District 1 (106.6835–106.7135 E, 10.7615–10.7945 N).
        case district1
        /// Hanoi, Hoàn Kiếm (105.8411–105.8632 E, 21.0166–21.0407 N: the bundled extract).
        case hoankiem
        /// The box around every feature of the dataset.
        case dataset
    }

    /// Degrees; nil for `.dataset` until the dataset is read (`MapExport` fills it in).
    public var west, south, east, north: Double
    /// Whether the box is the dataset's (worked out by the export).
    public var isWholeDataset: Bool
    /// The zooms asked for (the metadata's `minzoom`…`maxzoom` once capped by `tileZooms`).
    public var zooms: ClosedRange<Int>

    /// A box in degrees; `zooms` must start at or below `VietMapTileSchema.maxZoom`.
    public init(west: Double, south: Double, east: Double, north: Double, zooms: ClosedRange<Int>) throws(MapExportError) {
        do {
            _ = try TileCover.worldBounds(west: west, south: south, east: east, north: north)
        } catch {
            throw .invalidArea("--bbox \(west),\(south),\(east),\(north): \(error)")
        }
        guard west < east, south < north else {
            throw .invalidArea("--bbox \(west),\(south),\(east),\(north) is empty (west must be below east, south below north)")
        }
        guard zooms.lowerBound >= 0, zooms.upperBound <= TileID.maxZoom else {
            throw .invalidZoom("--zoom \(zooms.lowerBound)-\(zooms.upperBound): zooms go from 0 to \(TileID.maxZoom)")
        }
        guard zooms.lowerBound <= VietMapTileSchema.maxZoom else {
            throw .invalidZoom("--zoom \(zooms.lowerBound)-\(zooms.upperBound): tiles stop at z\(VietMapTileSchema.maxZoom) (VietMap's source maxzoom; clients overzoom past it), so the range must start at or below \(VietMapTileSchema.maxZoom)")
        }
        self.west = west; self.south = south; self.east = east; self.north = north
        self.zooms = zooms
        isWholeDataset = false
    }

    /// A named area; `.dataset`'s box is a placeholder (the world) until `MapExport` reads the data.
    public init(named name: Name, zooms: ClosedRange<Int>) throws(MapExportError) {
        switch name {
        case .district1: try self.init(west: 106.6835, south: 10.7615, east: 106.7135, north: 10.7945, zooms: zooms)
        case .hoankiem: try self.init(west: 105.8411, south: 21.0166, east: 105.8632, north: 21.0407, zooms: zooms)
        case .dataset:
            try self.init(west: -180, south: -85, east: 180, north: 85, zooms: zooms)
            isWholeDataset = true
        }
    }

    /// `--bbox` text: four comma-separated degrees `west,south,east,north`.
    public static func parseBox(_ text: String) throws(MapExportError) -> (west: Double, south: Double, east: Double, north: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
            throw .invalidArea("--bbox '\(text.prefix(100))': give west,south,east,north in degrees (e.g. 106.6835,10.7615,106.7135,10.7945)")
        }
        return (west, south, east, north)
    }

    /// `--zoom` text: `Z` or `MIN-MAX`.
    public static func parseZooms(_ text: String) throws(MapExportError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        switch parts.count {
        case 1: if let z = parts[0] { return z...z }
        case 2: if let low = parts[0], let high = parts[1], low <= high { return low...high }
        default: break
        }
        throw .invalidZoom("--zoom '\(text.prefix(40))': give a zoom or a range MIN-MAX with MIN ≤ MAX (e.g. 10-16)")
    }

    /// The zooms tiles are cut at: `zooms` capped at `VietMapTileSchema.maxZoom`.
    public var tileZooms: ClosedRange<Int> { zooms.lowerBound...min(zooms.upperBound, VietMapTileSchema.maxZoom) }

    /// The box in world coordinates.
    public var worldBounds: WorldBounds {
        let northWest = WorldPoint(latitude: north, longitude: west), southEast = WorldPoint(latitude: south, longitude: east)
        return WorldBounds(minX: northWest.x, minY: northWest.y, maxX: southEast.x, maxY: southEast.y)
    }
}
