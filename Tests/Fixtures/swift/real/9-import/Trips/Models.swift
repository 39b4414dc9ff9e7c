import Foundation
import SwiftData

extension TripsSchemaV1 {
    @Model
    final class Trip {
        var name: String = ""
        var startDate: Date?
        @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
        var stops: [Stop]? = []

        init(name: String) { self.name = name }
    }

    @Model
    final class Stop {
        var title: String = ""
        var notes: Data?
        var trip: Trip?

        init(title: String) { self.title = title }
    }
}
