import Foundation
import VietMapClient
import XCTest

/// `VMReverseItem` reads and writes the autocomplete keys through `VMSearchItem`: the same object,
/// keys and optionals as a flat model of all twelve fields.
final class VMReverseItemTests: XCTestCase {
    /// The reverse item as a flat list of its fields, as it was written before it was built on `VMSearchItem`.
    private struct FlatReverseItem: Codable, Equatable {
        let lat: Double?
        let lng: Double?
        let refId: String
        let distance: Double?
        let address: String?
        let name: String?
        let display: String?
        let boundaries: [FlatBoundary]?
        let categories: [String]?
        let entryPoints: [FlatEntryPoint]?
        let dataOld: FlatEntryPoint?
        let dataNew: FlatEntryPoint?

        enum CodingKeys: String, CodingKey {
            case lat, lng, distance, address, name, display, boundaries, categories
            case refId = "ref_id"
            case entryPoints = "entry_points"
            case dataOld = "data_old"
            case dataNew = "data_new"
        }
    }

    private struct FlatBoundary: Codable, Equatable {
        let type: Int?, id: Int?, name: String?, prefix: String?, fullName: String?
        enum CodingKeys: String, CodingKey { case type, id, name, prefix; case fullName = "full_name" }
    }

    private struct FlatEntryPoint: Codable, Equatable {
        let refId: String?, name: String?
        enum CodingKeys: String, CodingKey { case refId = "ref_id"; case name }
    }

    private let full = Data("""
        {"lat": 10.7798, "lng": 106.699, "ref_id": "vm:1", "distance": 0.0004, "address": "01 Công xã Paris",
         "name": "Nhà thờ Đức Bà", "display": "Nhà thờ Đức Bà, 01 Công xã Paris",
         "boundaries": [{"type": 2, "id": 9, "name": "Sài Gòn", "prefix": "Phường", "full_name": "Phường Sài Gòn"}],
         "categories": ["church"], "entry_points": [{"ref_id": "vm:2", "name": "Cổng chính"}],
         "data_old": {"ref_id": "vm:3", "name": "cũ"}, "data_new": null, "extra": 1}
        """.utf8)

    func testDecodesEveryField() throws {
        let item = try JSONDecoder().decode(VMReverseItem.self, from: full)
        XCTAssertEqual(item.lat, 10.7798)
        XCTAssertEqual(item.lng, 106.699)
        XCTAssertEqual(item.refId, "vm:1")
        XCTAssertEqual(item.distance, 0.0004)
        XCTAssertEqual(item.address, "01 Công xã Paris")
        XCTAssertEqual(item.name, "Nhà thờ Đức Bà")
        XCTAssertEqual(item.display, "Nhà thờ Đức Bà, 01 Công xã Paris")
        XCTAssertEqual(item.boundaries?.first?.fullName, "Phường Sài Gòn")
        XCTAssertEqual(item.categories, ["church"])
        XCTAssertEqual(item.entryPoints?.first?.refId, "vm:2")
        XCTAssertEqual(item.dataOld?.refId, "vm:3")
        XCTAssertNil(item.dataNew)
    }

    func testEncodesLikeTheFlatModel() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys // key order is not kept on Linux
        let item = try JSONDecoder().decode(VMReverseItem.self, from: full)
        let flat = try JSONDecoder().decode(FlatReverseItem.self, from: full)
        XCTAssertEqual(String(decoding: try encoder.encode(item), as: UTF8.self),
                       String(decoding: try encoder.encode(flat), as: UTF8.self))
        XCTAssertEqual(try JSONDecoder().decode(FlatReverseItem.self, from: try encoder.encode(item)), flat)
        let sparse = Data(#"{"ref_id": "vm:1"}"#.utf8)
        XCTAssertEqual(String(decoding: try encoder.encode(try JSONDecoder().decode(VMReverseItem.self, from: sparse)), as: UTF8.self),
                       #"{"ref_id":"vm:1"}"#)
    }

    func testFailsLikeTheFlatModel() throws {
        for body in [#"{"lat": 10}"#, #"{"ref_id": "vm:1", "lat": "north"}"#, #"{"ref_id": 7}"#, "[]"] {
            let data = Data(body.utf8)
            XCTAssertThrowsError(try JSONDecoder().decode(FlatReverseItem.self, from: data), body)
            do {
                _ = try JSONDecoder().decode(VMReverseItem.self, from: data)
                XCTFail("decoded \(body)")
            } catch let error as DecodingError {
                do { _ = try JSONDecoder().decode(FlatReverseItem.self, from: data) } catch let flatError as DecodingError {
                    XCTAssertEqual(Self.summary(error), Self.summary(flatError), body)
                }
            }
        }
    }

    private static func summary(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String { context.codingPath.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(key.stringValue) at \(path(context))"
        case .typeMismatch(let type, let context): return "type \(type) at \(path(context))"
        case .valueNotFound(let type, let context): return "null \(type) at \(path(context))"
        case .dataCorrupted(let context): return "corrupted at \(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
