import Foundation
import SwiftData

/// Version 2, the shipped one: CloudKit-ready, and the highest in the migration plan.
public enum SchemaV2: VersionedSchema {
    public static let versionIdentifier: Schema.Version = .init(2, 1, 0)
    public static var models: [any PersistentModel.Type] {
        [Habit.self, HabitLog.self, Category.self]
    }

    @Model
    public final class Habit {
        #Index<Habit>([\.name], [\.createdAt])
        public var id: UUID = UUID()
        @Attribute(.spotlight, .preserveValueOnDeletion) public var name: String = ""
        public var createdAt: Date = Date()
        @Attribute(.allowsCloudEncryption, originalName: "remindersData") var reminders: Data?
        var schedule: HabitsSupport.Schedule? = nil
        @Relationship(deleteRule: .cascade, inverse: \HabitLog.habit, minimumModelCount: 0, maximumModelCount: 1000)
        var logs: [HabitLogV2]? = []
        @Relationship(deleteRule: .nullify) var category: Category?
        #if os(iOS)
        var widgetColor: String? = "blue"
        #else
        var menuBarIcon: String? = nil
        #endif

        public init(name: String) {
            self.name = name
        }
    }

    @Model
    public final class HabitLog {
        var date: Date = Date.distantPast
        var value: Double!
        var habit: Habit?
        public init() {}
    }

    @Model
    public final class Category {
        var title: String = ""
        var habits: [Habit]? = []
        public init() {}
    }
}

typealias HabitLogV2 = SchemaV2.HabitLog

/// SchemaV3 is written but not in the plan yet: not shipped, not read.
enum SchemaV3: VersionedSchema {
    static var versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Draft.self] }

    @Model final class Draft {
        var note: String = ""
        init() {}
    }
}

enum HabitsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
}

enum HabitsSupport {
    struct Schedule: Codable {
        var weekdays: [Int]
    }
}
