import Dataset
import Foundation
import MapTiles

/// The dataset's map shapes (`MapShapes`: buildings, water, land use, waterways, railways kept at import) as map
/// features in VietMap's source layers:
/// - `vietmap_building`: buildings, with `render_height` (metres: `height`, else 3 m a level, else 3) and `area` (m²);
/// - `vietmap_hydro`: water areas with `dispclass` by size (2 ≥ 1 km², 3 ≥ 0.1 km², 4 ≥ 0.01 km², else 5) and `name`;
/// - `vietmap_foot_print`: land use with VietMap's `catid` (1 runway, 2 airport, 3 cemetery, 4 park, 6 wood,
///   13 grass/pitch, 16 residential, 17 school, 18 hospital; other kinds are not drawn by VietMap's style and are
///   left out) and `area`;
/// - `vietmap_hydro_centerline`: rivers, canals and streams as lines with `name` and `dispclass` (river 2, canal 4,
///   stream 5); `vietmap_railway`: rail lines.
public enum MapShapeFeatures {
    /// Every shape VietMap's schema has a layer for.
    public static func features(_ shapes: MapShapes) -> [MapFeature] {
        var features: [MapFeature] = []
        features.reserveCapacity(shapes.count)
        for i in 0..<shapes.count {
            guard let kind = shapes.kind(i) else { continue }
            var rings: [(inner: Bool, points: [WorldPoint])] = []
            for ring in shapes.rings(i) {
                let points = shapes.points(ring: ring).map {
                    WorldPoint(latitude: Double(shapes.latE7(point: $0)) / 1e7, longitude: Double(shapes.lonE7(point: $0)) / 1e7)
                }
                if points.count >= 2 { rings.append((shapes.isInner(ring: ring), points)) }
            }
            guard !rings.isEmpty else { continue }
            let name = shapes.name(i)
            let id = UInt64(i)
            if !shapes.isArea(i) {
                guard let line = lineLayer(kind) else { continue }
                var properties = [MapProperty("class", .string(kind.description))]
                if let dispclass = line.dispclass { properties.append(MapProperty("dispclass", .int(dispclass))) }
                if !name.isEmpty { properties.append(MapProperty("name", .string(name))) }
                features.append(MapFeature(id: id, layer: line.layer, minZoom: line.minZoom,
                                           geometry: .lines(rings.map(\.points)), properties: properties))
                continue
            }
            let polygons = polygons(rings)
            guard !polygons.isEmpty else { continue }
            let area = areaSquareMetres(polygons)
            switch kind {
            case .building:
                let height = shapes.heightMetres(i) ?? shapes.levels(i).map { Double($0) * 3 } ?? 3
                features.append(MapFeature(id: id, layer: VietMapTileSchema.building, minZoom: 13, geometry: .polygons(polygons),
                                           properties: [MapProperty("render_height", .double((height * 10).rounded() / 10)),
                                                        MapProperty("area", .int(Int64(area.rounded())))]))
            case .water:
                let dispclass: Int64 = area >= 1_000_000 ? 2 : area >= 100_000 ? 3 : area >= 10_000 ? 4 : 5
                var properties = [MapProperty("dispclass", .int(dispclass))]
                if !name.isEmpty { properties.append(MapProperty("name", .string(name))) }
                let minZoom = [2: 8, 3: 10, 4: 12, 5: 13][Int(dispclass)] ?? 13
                features.append(MapFeature(id: id, layer: VietMapTileSchema.hydro, minZoom: minZoom, geometry: .polygons(polygons),
                                           properties: properties))
            default:
                guard let catid = footPrintCategory(kind) else { continue }
                var properties = [MapProperty("catid", .int(catid)), MapProperty("area", .int(Int64(area.rounded())))]
                if !name.isEmpty { properties.append(MapProperty("name", .string(name))) }
                features.append(MapFeature(id: id, layer: VietMapTileSchema.footPrint, minZoom: area >= 1_000_000 ? 8 : 11,
                                           geometry: .polygons(polygons), properties: properties))
            }
        }
        return features
    }

    /// VietMap's `catid` of a land-use kind (nil: no layer of VietMap's style draws it).
    static func footPrintCategory(_ kind: MapShapeKind) -> Int64? {
        switch kind {
        case .runway: return 1
        case .airport: return 2
        case .cemetery: return 3
        case .park: return 4
        case .wood: return 6
        case .grass, .pitch: return 13
        case .residential: return 16
        case .school: return 17
        case .hospital: return 18
        default: return nil
        }
    }

    /// The source layer, `dispclass` and first zoom of a line kind.
    static func lineLayer(_ kind: MapShapeKind) -> (layer: String, dispclass: Int64?, minZoom: Int)? {
        switch kind {
        case .river: return (VietMapTileSchema.hydroCenterline, 2, 9)
        case .canal: return (VietMapTileSchema.hydroCenterline, 4, 12)
        case .stream: return (VietMapTileSchema.hydroCenterline, 5, 13)
        case .rail: return (VietMapTileSchema.railway, nil, 8)
        default: return nil
        }
    }

    /// Rings grouped into polygons: each outer ring followed by the inner rings inside its box (an inner ring
    /// before any outer one is dropped); rings stay open (the first point is not repeated).
    static func polygons(_ rings: [(inner: Bool, points: [WorldPoint])]) -> [[[WorldPoint]]] {
        var polygons: [[[WorldPoint]]] = []
        var boxes: [WorldBounds] = []
        for ring in rings {
            var points = ring.points
            if points.count > 1, points.first == points.last { points.removeLast() }
            guard points.count >= 3 else { continue }
            if !ring.inner {
                polygons.append([points])
                boxes.append(WorldBounds(enclosing: points)!)
            } else if let first = points.first,
                      let owner = boxes.lastIndex(where: { $0.minX <= first.x && first.x <= $0.maxX && $0.minY <= first.y && first.y <= $0.maxY }) {
                polygons[owner].append(points)
            }
        }
        return polygons
    }

    /// The area of `polygons` (outer rings less holes), m², on a local equirectangular projection.
    static func areaSquareMetres(_ polygons: [[[WorldPoint]]]) -> Double {
        var total = 0.0
        for polygon in polygons {
            for (index, ring) in polygon.enumerated() {
                guard let first = ring.first else { continue }
                let metresPerUnit = 40_075_016.686 * cos(first.latitude * .pi / 180)
                var twice = 0.0
                for i in 0..<ring.count {
                    let a = ring[i], b = ring[(i + 1) % ring.count]
                    twice += a.x * b.y - b.x * a.y
                }
                let area = abs(twice) / 2 * metresPerUnit * metresPerUnit
                total += index == 0 ? area : -area
            }
        }
        return max(0, total)
    }
}
