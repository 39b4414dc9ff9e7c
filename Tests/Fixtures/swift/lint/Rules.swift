import SwiftData

/// One property a mirroring rule refuses, each on its own line.
@Model final class Trip {
    var name: String
    var legs: [Leg] = []
    @Relationship(deleteRule: .deny, inverse: \Leg.trip) var guide: Leg?
    var stops: [Stop]? = []
    @Attribute(.unique) var code: String? = nil
    init(name: String) { self.name = name }
}

@Model final class Leg {
    var trip: Trip?
    var other: Trip?
    init() {}
}

@Model final class Stop {
    var title: String? = nil
    init() {}
}
