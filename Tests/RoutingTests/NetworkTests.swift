import ArrayBlob
import Foundation
import TestExpectations
import Testing
@testable import Routing

@Suite final class TurnRestrictionTests {
    /// 3×3 grid, 200 m spacing, every block side its own two-way residential way.
    ///   7 - 8 - 9
    ///   |   |   |
    ///   4 - 5 - 6
    ///   |   |   |
    ///   1 - 2 - 3
    static func grid() -> (NetBuilder, [String: Int64]) {
        var net = NetBuilder()
        for y in 0..<3 { for x in 0..<3 { net.node(Int64(y * 3 + x + 1), Double(x) * 200, Double(y) * 200) } }
        var w: [String: Int64] = [:]
        let pairs: [(Int64, Int64)] = [(1, 2), (2, 3), (4, 5), (5, 6), (7, 8), (8, 9),
                                       (1, 4), (4, 7), (2, 5), (5, 8), (3, 6), (6, 9)]
        for (a, b) in pairs {
            w["\(a)-\(b)"] = net.way([a, b], ["highway": "residential", "name": "Đường \(a)-\(b)"])
        }
        return (net, w)
    }

    func route(_ g: RoadGraph, _ a: GeoPoint, _ b: GeoPoint, _ v: Vehicle) throws -> Route {
        try Router.route(g, points: [a, b], vehicle: v)
    }

    @Test func testNoLeftTurnForcesDetourForCarButNotFoot() throws {
        var (net, w) = Self.grid()
        let plain = net.build()
        // From the middle of 2-5 (heading north) to the middle of 4-5 (west of 5): a left turn at 5.
        let a = NetBuilder.point(200, 100), b = NetBuilder.point(100, 200)
        let direct = try route(plain, a, b, .car)
        expectEqual(direct.distance, 200, accuracy: 1)
        net.restrictions = TurnRestriction.from(relationTags: ["type": "restriction", "restriction": "no_left_turn"],
                                                members: [("way", w["2-5"]!, "from"), ("node", 5, "via"),
                                                          ("way", w["4-5"]!, "to")])
        expectEqual(net.restrictions.count, 1)
        let g = net.build()
        expectGreaterThan(g.searchStateCount, g.nodeCount)
        let car = try route(g, a, b, .car)
        expectGreaterThan(car.distance, 400, "car must detour around the forbidden left turn")
        expectFalse(car.instructions.contains { $0.sign == -2 && $0.streetName == "Đường 4-5" && $0.interval.lowerBound == 1 })
        assertConsistent(car)
        let foot = try route(g, a, b, .foot)
        expectEqual(foot.distance, 200, accuracy: 1, "restriction for motor vehicles must not apply to foot")
        let motorcycle = try route(g, a, b, .motorcycle)
        expectGreaterThan(motorcycle.distance, 400)
        let bike = try route(g, a, b, .bike)
        expectEqual(bike.distance, 200, accuracy: 1)
        // except=motorcar lifts it for cars only.
        net.restrictions = TurnRestriction.from(
            relationTags: ["type": "restriction", "restriction": "no_left_turn", "except": "motorcar"],
            members: [("way", w["2-5"]!, "from"), ("node", 5, "via"), ("way", w["4-5"]!, "to")])
        let g2 = net.build()
        expectEqual(try route(g2, a, b, .car).distance, 200, accuracy: 1)
        expectGreaterThan(try route(g2, a, b, .motorcycle).distance, 400)
    }

    @Test func testOnlyStraightOnForbidsTheOtherTurns() throws {
        var (net, w) = Self.grid()
        net.restrictions = [TurnRestriction(fromWay: w["2-5"]!, viaNode: 5, toWay: w["5-8"]!, kind: .only)]
        let g = net.build()
        let a = NetBuilder.point(200, 100)
        // Straight on is fine.
        expectEqual(try route(g, a, NetBuilder.point(200, 300), .car).distance, 200, accuracy: 1)
        // Right (to 5-6) and left (to 4-5) are not.
        expectGreaterThan(try route(g, a, NetBuilder.point(300, 200), .car).distance, 400)
        expectGreaterThan(try route(g, a, NetBuilder.point(100, 200), .car).distance, 400)
        // Foot ignores it.
        expectEqual(try route(g, a, NetBuilder.point(300, 200), .foot).distance, 200, accuracy: 1)
        // Arriving from another way at 5 is unaffected.
        expectEqual(try route(g, NetBuilder.point(100, 200), NetBuilder.point(200, 100), .car).distance, 200,
                       accuracy: 1)
    }

    @Test func testRestrictionTagInterpretation() {
        expectEqual(TurnRestriction.interpret(tags: ["restriction": "no_u_turn"])?.vehicles, .motorVehicles)
        expectEqual(TurnRestriction.interpret(tags: ["restriction": "only_right_turn"])?.kind, .only)
        expectEqual(TurnRestriction.interpret(tags: ["restriction:motorcar": "no_left_turn"])?.vehicles, .car)
        expectEqual(TurnRestriction.interpret(tags: ["restriction:bicycle": "no_left_turn"])?.vehicles, .bike)
        expectEqual(TurnRestriction.interpret(tags: ["restriction": "no_left_turn", "except": "bicycle;motorcycle"])?
            .vehicles, [.car, .truck])
        expectNil(TurnRestriction.interpret(tags: ["restriction": "give_way"]))
        expectNil(TurnRestriction.interpret(tags: ["type": "multipolygon", "restriction": "no_left_turn"]))
        // Via way → dropped.
        expectTrue(TurnRestriction.from(relationTags: ["restriction": "no_left_turn"],
                                           members: [("way", 1, "from"), ("way", 2, "via"), ("way", 3, "to")]).isEmpty)
    }

    @Test func testNoUTurnOnSameWay() throws {
        // A dead-end spur 5-X (one way, two directions): routing from the spur's middle back toward 5 is direct,
        // but no_u_turn from the spur onto itself at 5 only matters for reversal at the via node.
        var (net, w) = Self.grid()
        net.restrictions = [TurnRestriction(fromWay: w["2-5"]!, viaNode: 5, toWay: w["2-5"]!, kind: .no)]
        let g = net.build()
        expectEqual(g.storage.turnFromEdge.count, 1)
        expectEqual(g.storage.turnToEdge[0], g.storage.turnFromEdge[0] ^ 1)
        expectEqual(try route(g, NetBuilder.point(200, 100), NetBuilder.point(200, 300), .car).distance, 200,
                       accuracy: 1)
    }
}

@Suite final class OnewayTests {
    /// A —(500 m, tagged)— B, plus a two-way detour A — C — B through C = (250, 300).
    static func net(_ tags: [String: String]) -> RoadGraph {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 250, 0); net.node(3, 500, 0); net.node(4, 250, 300)
        var t = tags; t["highway"] = t["highway"] ?? "residential"; t["name"] = "Một Chiều"
        net.way([1, 2, 3], t)
        net.way([1, 4, 3], ["highway": "residential", "name": "Vòng"])
        return net.build()
    }

    func dist(_ g: RoadGraph, _ from: Double, _ to: Double, _ v: Vehicle) throws -> Double {
        try Router.route(g, points: [NetBuilder.point(from, 0), NetBuilder.point(to, 0)], vehicle: v).distance
    }

    @Test func testOnewayYes() throws {
        let g = Self.net(["oneway": "yes"])
        expectEqual(try dist(g, 100, 400, .car), 300, accuracy: 0.5)
        expectGreaterThan(try dist(g, 400, 100, .car), 700, "backward forbidden for car")
        expectEqual(try dist(g, 400, 100, .foot), 300, accuracy: 0.5, "foot ignores oneway")
        expectGreaterThan(try dist(g, 400, 100, .bike), 700)
        expectGreaterThan(try dist(g, 400, 100, .motorcycle), 700)
    }

    @Test func testOnewayMinusOneAndValues() throws {
        let g = Self.net(["oneway": "-1"])
        expectEqual(try dist(g, 400, 100, .car), 300, accuracy: 0.5)
        expectGreaterThan(try dist(g, 100, 400, .car), 700)
        for v in ["1", "true"] {
            expectGreaterThan(try dist(Self.net(["oneway": v]), 400, 100, .car), 700, v)
        }
        expectEqual(try dist(Self.net(["oneway": "no"]), 400, 100, .car), 300, accuracy: 0.5)
    }

    @Test func testRoundaboutAndMotorwayImplyOneway() throws {
        expectGreaterThan(try dist(Self.net(["junction": "roundabout"]), 400, 100, .car), 700)
        expectEqual(try dist(Self.net(["junction": "roundabout"]), 400, 100, .foot), 300, accuracy: 0.5)
        expectGreaterThan(try dist(Self.net(["highway": "motorway_link"]), 400, 100, .car), 700)
        expectEqual(try dist(Self.net(["junction": "roundabout", "oneway": "no"]), 400, 100, .car), 300, accuracy: 0.5)
    }

    @Test func testVehicleSpecificOneway() throws {
        let g = Self.net(["oneway": "yes", "oneway:motorcycle": "no", "oneway:bicycle": "no"])
        expectGreaterThan(try dist(g, 400, 100, .car), 700)
        expectEqual(try dist(g, 400, 100, .motorcycle), 300, accuracy: 0.5)
        expectEqual(try dist(g, 400, 100, .bike), 300, accuracy: 0.5)
        let g2 = Self.net(["oneway": "yes", "cycleway": "opposite_lane"])
        expectEqual(try dist(g2, 400, 100, .bike), 300, accuracy: 0.5)
    }
}

@Suite final class SnapTests {
    static func longEdge(_ tags: [String: String] = [:]) -> RoadGraph {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 2000, 0)
        var t = tags; t["highway"] = "primary"; t["name"] = "Dài"
        net.way([1, 2], t)
        return net.build()
    }

    @Test func testSnapMiddleOfLongEdge() throws {
        let g = Self.longEdge()
        let q = NetBuilder.point(1000, 50)
        let s = try unwrap(g.snap(latitude: q.latitude, longitude: q.longitude, vehicle: .car))
        expectNil(s.node)
        expectEqual(s.fraction, 0.5, accuracy: 0.001)
        expectEqual(s.distance, 50, accuracy: 0.5)
        expectEqual(s.distanceAlong, 1000, accuracy: 1)
        let expected = NetBuilder.point(1000, 0)
        expectEqual(Geo.distance(s.point, expected), 0, accuracy: 0.5)
        // 2 km away → nil; within a custom radius → found.
        let far = NetBuilder.point(1000, 2000)
        expectNil(g.snap(latitude: far.latitude, longitude: far.longitude, vehicle: .car))
        expectNotNil(g.snap(latitude: far.latitude, longitude: far.longitude, vehicle: .car, maxDistanceMeters: 2500))
        expectThrowsError(try Router.route(g, points: [q, far], vehicle: .car)) { e in
            expectEqual(e as? RoutingError, .pointNotFound(index: 1))
        }
        // Beyond the end projects onto the end node.
        let past = NetBuilder.point(2100, 0)
        expectNotNil(g.snap(latitude: past.latitude, longitude: past.longitude, vehicle: .car)?.node)
    }

    @Test func testSnapIgnoresEdgesTheVehicleCannotUse() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 1000, 0); net.node(3, 0, 300); net.node(4, 1000, 300)
        net.way([1, 2], ["highway": "footway"])
        net.way([3, 4], ["highway": "residential"])
        let g = net.build()
        let q = NetBuilder.point(500, 10)
        expectEqual(g.snap(latitude: q.latitude, longitude: q.longitude, vehicle: .foot)?.distance ?? -1, 10, accuracy: 0.5)
        expectEqual(g.snap(latitude: q.latitude, longitude: q.longitude, vehicle: .car)?.distance ?? -1, 290, accuracy: 0.5)
    }

    @Test func testSameEdgeLegs() throws {
        let g = Self.longEdge()
        let a = NetBuilder.point(600, 10), b = NetBuilder.point(1400, -10)
        let fwd = try Router.route(g, points: [a, b], vehicle: .car)
        expectEqual(fwd.distance, 800, accuracy: 0.5)
        expectEqual(fwd.points.count, 2)
        assertConsistent(fwd)
        let bwd = try Router.route(g, points: [b, a], vehicle: .car)
        expectEqual(bwd.distance, 800, accuracy: 0.5)
        assertConsistent(bwd)
        expectEqual(bwd.instructions.first!.heading, 270, accuracy: 1)
        expectEqual(fwd.instructions.first!.heading, 90, accuracy: 1)
        // Same point twice.
        let same = try Router.route(g, points: [a, a], vehicle: .car)
        expectEqual(same.distance, 0)
        expectEqual(same.points.count, 1)
        assertConsistent(same)
    }

    @Test func testSameEdgeOnewayBehindStart() throws {
        // One-way edge with no way back → no route backwards; with a loop → around the loop.
        let g = Self.longEdge(["oneway": "yes"])
        let a = NetBuilder.point(1400, 0), b = NetBuilder.point(600, 0)
        expectThrowsError(try Router.route(g, points: [a, b], vehicle: .car)) { e in
            expectEqual(e as? RoutingError, .noRoute(legIndex: 0))
        }
        expectEqual(try Router.route(g, points: [a, b], vehicle: .foot).distance, 800, accuracy: 0.5)

        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 2000, 0); net.node(3, 2000, 500); net.node(4, 0, 500)
        net.way([1, 2], ["highway": "primary", "oneway": "yes", "name": "Một Chiều"])
        net.way([2, 3, 4, 1], ["highway": "primary", "name": "Vòng"])
        let loop = net.build()
        let r = try Router.route(loop, points: [a, b], vehicle: .car)
        // 600 to the end, 500 + 2000 + 500 around, 600 back in.
        expectEqual(r.distance, 600 + 3000 + 600, accuracy: 1)
        assertConsistent(r)
        expectEqual(r.points.first, r.snappedWaypoints[0])
    }

    @Test func testPointCountErrors() {
        let g = Self.longEdge()
        let p = NetBuilder.point(100, 0)
        expectThrowsError(try Router.route(g, points: [p], vehicle: .car)) { expectEqual($0 as? RoutingError, .tooFewPoints) }
        expectThrowsError(try Router.route(g, points: [p, p, p], vehicle: .car,
                                              options: RouteOptions(maxPoints: 2))) {
            expectEqual($0 as? RoutingError, .tooManyPoints(max: 2))
        }
    }
}

@Suite final class ProfileTests {
    @Test func testMaxSpeedParsing() {
        expectEqual(VehicleProfiles.parseMaxSpeed("50"), 50)
        expectEqual(VehicleProfiles.parseMaxSpeed("50 mph")!, 80.47, accuracy: 0.01)
        expectEqual(VehicleProfiles.parseMaxSpeed("VN:urban"), 50)
        expectEqual(VehicleProfiles.parseMaxSpeed("40;60"), 40)
        expectEqual(VehicleProfiles.parseMaxSpeed("30 km/h"), 30)
        expectNil(VehicleProfiles.parseMaxSpeed("none"))
        expectEqual(VehicleProfiles.parseMaxWeightKg("10"), 10_000)
        expectEqual(VehicleProfiles.parseMaxWeightKg("5.5 t"), 5_500)
        expectEqual(VehicleProfiles.parseMaxWeightKg("3500 kg"), 3_500)
        expectEqual(VehicleProfiles.parseDurationSeconds("01:30"), 5400)
    }

    @Test func testAccessTable() {
        func p(_ t: [String: String]) -> VehicleProfiles.WayProfile? { VehicleProfiles.interpret(tags: t) }
        func allowed(_ t: [String: String], _ v: Vehicle) -> Bool {
            (p(t)?.access ?? 0) & (UInt16(3) << UInt16(2 * v.rawValue)) != 0
        }
        expectTrue(allowed(["highway": "motorway"], .car))
        expectFalse(allowed(["highway": "motorway"], .motorcycle), "motorcycles are banned from expressways")
        expectFalse(allowed(["highway": "motorway"], .foot))
        expectFalse(allowed(["highway": "footway"], .car))
        expectTrue(allowed(["highway": "footway", "bicycle": "yes"], .bike))
        expectFalse(allowed(["highway": "residential", "access": "private"], .car))
        expectTrue(allowed(["highway": "residential", "access": "no", "foot": "yes"], .foot))
        expectFalse(allowed(["highway": "residential", "motor_vehicle": "no"], .motorcycle))
        expectTrue(allowed(["highway": "residential", "motor_vehicle": "no"], .bike))
        expectFalse(allowed(["highway": "primary", "hgv": "no"], .truck))
        expectTrue(allowed(["highway": "primary", "hgv": "no"], .car))
        expectNil(p(["highway": "construction"]))
        expectEqual(p(["highway": "primary", "maxspeed": "30"])?.speeds[Vehicle.car.rawValue], 30)
        expectEqual(p(["highway": "primary"])?.speeds[Vehicle.car.rawValue], 40)
        expectEqual(p(["highway": "primary"])?.speeds[Vehicle.foot.rawValue], 5)
    }

    @Test func testFerryTollAndTruckWeight() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 1000, 0); net.node(3, 500, 800)
        net.way([1, 2], ["route": "ferry", "name": "Phà"])
        net.way([1, 3], ["highway": "service", "toll": "yes", "name": "Thu Phí"])
        net.way([3, 2], ["highway": "service", "maxweight": "10", "name": "Cầu Yếu"])
        let g = net.build()
        let a = NetBuilder.point(0, 0), b = NetBuilder.point(1000, 0)
        let ferry = try Router.route(g, points: [a, b], vehicle: .car)
        expectEqual(ferry.distance, 1000, accuracy: 1)
        expectEqual(Double(ferry.time) / 1000, 1000 * 3.6 / 10, accuracy: 0.01, "ferry at 10 km/h")
        // Small snapping radius so that avoided edges are not replaced by a farther snap.
        func opts(_ ferry: Bool, _ toll: Bool, _ kg: Int? = nil) -> RouteOptions {
            RouteOptions(avoidFerry: ferry, avoidToll: toll, truckCapacityKg: kg, maxSnapDistanceMeters: 20)
        }
        let noFerry = try Router.route(g, points: [a, b], vehicle: .car, options: opts(true, false))
        expectGreaterThan(noFerry.distance, 1800)
        expectThrowsError(try Router.route(g, points: [NetBuilder.point(200, 0), b], vehicle: .car,
                                              options: opts(true, true))) {
            expectEqual($0 as? RoutingError, .pointNotFound(index: 0))
        }
        let ferryOnly = try Router.route(g, points: [NetBuilder.point(200, 0), b], vehicle: .car, options: opts(false, true))
        expectEqual(ferryOnly.distance, 800, accuracy: 1)
        expectNoThrow(try Router.route(g, points: [a, b], vehicle: .truck, options: opts(true, false, 10_000)))
        expectThrowsError(try Router.route(g, points: [NetBuilder.point(250, 400), NetBuilder.point(750, 400)],
                                              vehicle: .truck, options: opts(true, false, 12_000))) {
            expectEqual($0 as? RoutingError, .pointNotFound(index: 1), "maxweight 10 t edge is not snappable for 12 t")
        }
        let nodeB = try unwrap(g.storage.nodeOSMID.firstIndex(of: 2))
        let onToll = try unwrap(g.snap(latitude: NetBuilder.point(250, 400).latitude,
                                          longitude: NetBuilder.point(250, 400).longitude, vehicle: .truck))
        expectThrowsError(try Router.route(g, snaps: [onToll, g.position(ofNode: nodeB)],
                                              vehicle: .truck, options: opts(true, false, 12_000))) {
            expectEqual($0 as? RoutingError, .noRoute(legIndex: 0))
        }
    }

    @Test func testSerializationRoundTrip() throws {
        var (net, w) = TurnRestrictionTests.grid()
        net.restrictions = [TurnRestriction(fromWay: w["2-5"]!, viaNode: 5, toWay: w["4-5"]!, kind: .no)]
        let g = net.build()
        let bytes = g.serialized()
        let g2 = try RoadGraph(serialized: bytes)
        expectEqual(g2.storage, g.storage)
        expectEqual(g2.searchStateCount, g.searchStateCount)
        expectThrowsError(try RoadGraph(serialized: Array(bytes.dropLast())))
        // Both conversions carry every array and the names: the round trip gives the same storage.
        expectEqual(RoadGraph.Storage(RoadGraph.EditableStorage(g.storage)), g.storage)
        expectFalse(g.storage.turnKind.isEmpty)
        var bad = RoadGraph.EditableStorage(g.storage)
        bad.edgeBaseNode[0] = 999
        expectThrowsError(try RoadGraph(storage: RoadGraph.Storage(bad)))
    }
}
