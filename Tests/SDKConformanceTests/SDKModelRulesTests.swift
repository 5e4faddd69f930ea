import JSON
import XCTest

/// The re-enacted parsing rules on hand-made answers: each names the path and the SDK rule that
/// would throw, and stays quiet on what the SDK accepts. No server.
final class SDKModelRulesTests: XCTestCase {
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    func testZodRequiredOptionalAndNullable() throws {
        let item = #"{"ref_id":"r","address":"a","name":"n","display":"d","categories":[],"boundaries":[{"type":2,"id":null,"name":"x","prefix":"p","full_name":"f"}],"distance":null,"data_old":null}"#
        XCTAssertEqual(JSSDKModelRules.searchV4List(try json("[\(item)]")),
                       ["/0/boundaries/0/id: zod number required, got null", "/0/distance: zod number optional, got null"])
        XCTAssertEqual(JSSDKModelRules.migrateAddress(try json(#"{"display":"d"}"#)), [])
        XCTAssertEqual(JSSDKModelRules.reverseV4(try json("[]")).count, 1)
        XCTAssertEqual(JSSDKModelRules.route(try json(#"{"license":"l","code":"OK","paths":[]}"#)),
                       ["/messages: zod string nullable, got undefined"])
    }

    func testDartCastsIntDoubleAndLists() throws {
        XCTAssertEqual(FlutterModelRules.place(try json(#"{"city_id":12.0,"ward_id":7,"lat":10,"lng":106.5,"name":null}"#)),
                       ["/city_id: Dart `as int?` throws on double 12.0"])
        let path = #"{"paths":[{"time":5,"transfers":0,"bbox":[106,10.5],"points":"_p~iF~ps|U","instructions":[{"interval":[0,1.0]}]}]}"#
        XCTAssertEqual(FlutterModelRules.route(try json(path)), [
            "/paths/0/bbox/0: cast<double>() element throws on access: int 106",
            "/paths/0/instructions/0/interval/1: cast<int>() element throws on access: double 1.0",
        ])
        XCTAssertEqual(FlutterModelRules.route(try json(#"{"paths":[{"points":"_p~iF~ps|U_"}]}"#)).count, 2, "bbox absent, polyline truncated")
        XCTAssertEqual(FlutterModelRules.matrix(try json(#"{"durations":[[1,null]]}"#)), ["/durations/0/1: List<num>.from throws on Null"])
        XCTAssertEqual(FlutterModelRules.reverseV4(try json("[]")), ["/: [] makes the plugin return ApiServerFailure('Có lỗi xảy ra')"])
    }
}
