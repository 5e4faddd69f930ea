import Routing

/// A route v4 instruction (GraphHopper sign, Vietnamese text) as a Mapbox Directions v5 maneuver:
/// `type` and `modifier` as the navigation SDKs' parsers spell them. The first step of a leg is
/// `depart`, the last `arrive`; turns keep their side and sharpness; a name change (sign 0) is
/// `new name`; keep left/right is `fork`; roundabouts are `roundabout` with the exit v4 counts.
struct DirectionsManeuver: Equatable {
    var type: String
    var modifier: String?

    init(type: String, modifier: String? = nil) {
        self.type = type
        self.modifier = modifier
    }

    /// - Parameters:
    ///   - position: where the instruction stands in its leg.
    ///   - turn: for roundabouts, the heading change from entry to exit (degrees, (-180, 180], + = right).
    init(_ instruction: Instruction, position: Position, turn: Double?) {
        switch position {
        case .first: self.init(type: "depart")
        case .last: self.init(type: "arrive")
        case .middle:
            switch instruction.sign {
            case Instruction.turnSharpLeft: self.init(type: "turn", modifier: "sharp left")
            case Instruction.turnLeft: self.init(type: "turn", modifier: "left")
            case Instruction.turnSlightLeft: self.init(type: "turn", modifier: "slight left")
            case Instruction.turnSlightRight: self.init(type: "turn", modifier: "slight right")
            case Instruction.turnRight: self.init(type: "turn", modifier: "right")
            case Instruction.turnSharpRight: self.init(type: "turn", modifier: "sharp right")
            case Instruction.keepLeft: self.init(type: "fork", modifier: "slight left")
            case Instruction.keepRight: self.init(type: "fork", modifier: "slight right")
            case Instruction.uTurnLeft, Instruction.uTurnRight, Instruction.uTurnUnknown: self.init(type: "turn", modifier: "uturn")
            case Instruction.useRoundabout: self.init(type: "roundabout", modifier: turn.map(Self.modifier(turn:)))
            case Instruction.leaveRoundabout: self.init(type: "exit roundabout", modifier: turn.map(Self.modifier(turn:)))
            case Instruction.finish, Instruction.reachedVia: self.init(type: "arrive")
            default: self.init(type: "new name", modifier: "straight")
            }
        }
    }

    /// Where an instruction stands in its leg.
    enum Position { case first, middle, last }

    /// The modifier of a heading change (degrees, + = clockwise), GraphHopper's thresholds.
    static func modifier(turn: Double) -> String {
        let a = abs(turn)
        let side = turn < 0 ? "left" : "right"
        if a < 20 { return "straight" }
        if a < 60 { return "slight " + side }
        if a < 120 { return side }
        if a < 170 { return "sharp " + side }
        return "uturn"
    }
}
