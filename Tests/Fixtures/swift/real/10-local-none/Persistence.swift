import SwiftData

// Ritualist's shape (../shared/corpus/swift): the lists in static properties, one store synced,
// one local; without iCloud the synced store is `.none` too, which keeps its models synced
// (the store syncs once iCloud is back), and the local store's model stays out of CloudKit.
enum Persistence {
    static var syncedTypes: [any PersistentModel.Type] { [Note.self] }
    static var localOnlyTypes: [any PersistentModel.Type] { [Analysis.self] }

    static var cloudConfiguration: ModelConfiguration {
        ModelConfiguration("CloudKit", schema: Schema(syncedTypes), cloudKitDatabase: .private("iCloud.com.example.Notes"))
    }

    static var localConfiguration: ModelConfiguration {
        ModelConfiguration("Local", schema: Schema(localOnlyTypes), cloudKitDatabase: .none)
    }

    static var offlineConfiguration: ModelConfiguration {
        ModelConfiguration("CloudKit", schema: Schema(syncedTypes), cloudKitDatabase: .none)
    }
}
