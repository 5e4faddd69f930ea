import Foundation
import TestExpectations
import Testing
@testable import Routing

@Suite final class InstructionTests {
    /// A: 1(0,0) → 2(200,0) → 3(400,0); B: 2 → 4(200,-200) (south); N: 2 → 5(200,200) (north).
    static func tJunction() -> RoadGraph {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 200, 0); net.node(3, 400, 0); net.node(4, 200, -200); net.node(5, 200, 200)
        net.way([1, 2, 3], ["highway": "residential", "name": "A"])
        net.way([2, 4], ["highway": "residential", "name": "B"])
        net.way([2, 5], ["highway": "residential", "name": "N"])
        return net.build()
    }

    @Test func testRightAndLeftTurn() throws {
        let g = Self.tJunction()
        let r = try Router.route(g, points: [NetBuilder.point(50, 0), NetBuilder.point(200, -150)], vehicle: .car)
        expectEqual(r.instructions.map(\.sign), [0, 2, 4])
        expectEqual(r.instructions.map(\.text), ["Tiếp tục theo A", "Rẽ phải vào B", "Đến nơi"])
        expectEqual(r.instructions[1].streetName, "B")
        expectEqual(r.instructions[0].distance, 150, accuracy: 0.2)
        expectEqual(r.instructions[1].distance, 150, accuracy: 0.2)
        expectEqual(r.instructions[0].heading, 90, accuracy: 1)
        expectEqual(r.instructions[1].heading, 180, accuracy: 1)
        expectEqual(r.instructions[2].lastHeading ?? -1, 180, accuracy: 1)
        expectEqual(r.distance, 300, accuracy: 0.2)
        expectEqual(Double(r.time), r.distance * 3.6 / 25 * 1000, accuracy: 2)
        assertConsistent(r)

        let l = try Router.route(g, points: [NetBuilder.point(50, 0), NetBuilder.point(200, 150)], vehicle: .car)
        expectEqual(l.instructions.map(\.sign), [0, -2, 4])
        expectEqual(l.instructions[1].text, "Rẽ trái vào N")
        assertConsistent(l)

        // Straight across the junction on the same street: one step.
        let s = try Router.route(g, points: [NetBuilder.point(50, 0), NetBuilder.point(350, 0)], vehicle: .car)
        expectEqual(s.instructions.map(\.sign), [0, 4])
        assertConsistent(s)
    }

    @Test func testSameStreetMergesAcrossDegreeTwoNodesAndNameChangeSplits() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 200, 0); net.node(3, 400, 10); net.node(4, 600, 0); net.node(5, 800, 5)
        net.way([1, 2], ["highway": "residential", "name": "A"])
        net.way([2, 3, 4], ["highway": "residential", "name": "A"])
        net.way([4, 5], ["highway": "residential", "name": "C"])
        let g = net.build()
        let r = try Router.route(g, points: [NetBuilder.point(10, 0), NetBuilder.point(550, 1.3)], vehicle: .car)
        expectEqual(r.instructions.map(\.sign), [0, 4])
        expectEqual(r.instructions[0].text, "Tiếp tục theo A")
        expectGreaterThan(r.points.count, 3)
        assertConsistent(r)
        let c = try Router.route(g, points: [NetBuilder.point(10, 0), NetBuilder.point(790, 4.5)], vehicle: .car)
        expectEqual(c.instructions.map(\.sign), [0, 0, 4])
        expectEqual(c.instructions.map(\.text), ["Tiếp tục theo A", "Tiếp tục theo C", "Đến nơi"])
        assertConsistent(c)
    }

    @Test func testUnnamedStreet() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 300, 0)
        net.way([1, 2], ["highway": "service"])
        let r = try Router.route(net.build(), points: [NetBuilder.point(10, 0), NetBuilder.point(290, 0)], vehicle: .car)
        expectEqual(r.instructions[0].streetName, "Đường Không Tên")
        expectEqual(r.instructions[0].text, "Tiếp tục theo Đường Không Tên")
    }

    @Test func testFork() throws {
        var net = NetBuilder()
        net.node(1, 0, 0); net.node(2, 200, 0); net.node(3, 400, 60); net.node(4, 400, -60)
        net.way([1, 2], ["highway": "primary", "name": "A"])
        net.way([2, 3], ["highway": "primary", "name": "B"])
        net.way([2, 4], ["highway": "primary", "name": "C"])
        let g = net.build()
        let right = try Router.route(g, points: [NetBuilder.point(20, 0), NetBuilder.point(390, -57)], vehicle: .car)
        expectEqual(right.instructions.map(\.sign), [0, 7, 4])
        expectEqual(right.instructions[1].text, "Đi về bên phải vào C")
        let left = try Router.route(g, points: [NetBuilder.point(20, 0), NetBuilder.point(390, 57)], vehicle: .car)
        expectEqual(left.instructions.map(\.sign), [0, -7, 4])
        expectEqual(left.instructions[1].text, "Đi về bên trái vào B")
    }

    /// Ring of radius 40 m drawn counter-clockwise, entry from the south, exits east (1), north (2), west (3).
    static func roundabout() -> RoadGraph {
        var net = NetBuilder()
        let angles: [Double] = [270, 315, 0, 45, 90, 135, 180, 225]
        for (i, a) in angles.enumerated() {
            net.node(Int64(101 + i), 40 * cos(a * .pi / 180), 40 * sin(a * .pi / 180))
        }
        net.way([101, 102, 103, 104, 105, 106, 107, 108, 101], ["highway": "primary", "junction": "roundabout"])
        net.node(201, 0, -300); net.node(202, 300, 0); net.node(203, 0, 300); net.node(204, -300, 0)
        net.way([201, 101], ["highway": "primary", "name": "Nam"])
        net.way([103, 202], ["highway": "primary", "name": "Đông"])
        net.way([105, 203], ["highway": "primary", "name": "Bắc"])
        net.way([107, 204], ["highway": "primary", "name": "Tây"])
        return net.build()
    }

    @Test func testRoundabout() throws {
        let g = Self.roundabout()
        let start = NetBuilder.point(0, -250)
        for (target, exit, name) in [(NetBuilder.point(250, 0), 1, "Đông"), (NetBuilder.point(0, 250), 2, "Bắc"),
                                     (NetBuilder.point(-250, 0), 3, "Tây")] {
            let r = try Router.route(g, points: [start, target], vehicle: .car)
            expectEqual(r.instructions.map(\.sign), [0, 6, 4], name)
            let ins = r.instructions[1]
            expectEqual(ins.exitNumber, exit, name)
            expectEqual(ins.text, "Đi tiếp qua vòng xuyến, lối ra thứ \(exit)")
            expectEqual(ins.streetName, name)
            expectNotNil(ins.turnAngle)
            expectLessThan(ins.turnAngle ?? 0, 0, "counter-clockwise")
            assertConsistent(r)
        }
        // Straight through: |turn angle| ≈ π.
        let r = try Router.route(g, points: [start, NetBuilder.point(0, 250)], vehicle: .car)
        expectEqual(abs(r.instructions[1].turnAngle ?? 0), .pi, accuracy: 0.2)
    }

    @Test func testViaPointAndFinish() throws {
        let g = Self.tJunction()
        let pts = [NetBuilder.point(50, 0), NetBuilder.point(200, -100), NetBuilder.point(200, -180)]
        let r = try Router.route(g, points: pts, vehicle: .car)
        expectEqual(r.instructions.map(\.sign), [0, 2, 5, 0, 4])
        let via = r.instructions[2]
        expectEqual(via.text, "Đã đến điểm trung gian 1")
        expectEqual(via.distance, 0)
        expectEqual(via.time, 0)
        expectEqual(via.interval.lowerBound, via.interval.upperBound)
        expectEqual(r.points[via.interval.lowerBound], r.snappedWaypoints[1])
        expectEqual(r.snappedWaypoints.count, 3)
        expectEqual(r.legs.count, 2)
        expectEqual(r.legs[0].interval.upperBound, via.interval.lowerBound)
        expectEqual(r.legs[0].distance + r.legs[1].distance, r.distance, accuracy: 1e-9)
        expectEqual(r.legs[0].time + r.legs[1].time, r.time)
        expectEqual(r.instructions[3].text, "Tiếp tục theo B")
        expectNil(r.instructions[3].lastHeading)
        assertConsistent(r)
    }

    @Test func testUTurnOnDeadEndForRestrictionDetour() throws {
        // Forbidden left turn from S onto W forces the car straight on, and back via other streets; every
        // instruction stays consistent whatever the detour looks like.
        var (net, w) = TurnRestrictionTests.grid()
        net.restrictions = [TurnRestriction(fromWay: w["2-5"]!, viaNode: 5, toWay: w["4-5"]!, kind: .no)]
        let r = try Router.route(net.build(), points: [NetBuilder.point(200, 100), NetBuilder.point(100, 200)],
                                 vehicle: .car)
        assertConsistent(r)
        expectGreaterThan(r.instructions.count, 3)
    }
}
