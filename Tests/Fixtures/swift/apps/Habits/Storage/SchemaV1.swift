import Foundation
import SwiftData

/// Version 1, before CloudKit: `.unique` and a required array. Not the shipped version, so
/// none of it is a finding.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self, HabitLog.self] }

    @Model
    final class Habit {
        @Attribute(.unique) var id: UUID
        var name: String
        var logs: [HabitLog]
        init(id: UUID, name: String) { self.id = id; self.name = name; self.logs = [] }
    }

    @Model
    final class HabitLog {
        var date: Date
        var habit: Habit?
        init(date: Date) { self.date = date }
    }
}
