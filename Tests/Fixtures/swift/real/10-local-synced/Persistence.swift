import SwiftData

// The same stores as 10-local-none, but the second one syncs (`.automatic`): every model
// is mirrored.
enum Persistence {
    static var syncedTypes: [any PersistentModel.Type] { [Note.self] }
    static var localOnlyTypes: [any PersistentModel.Type] { [Analysis.self] }

    static var cloudConfiguration: ModelConfiguration {
        ModelConfiguration("CloudKit", schema: Schema(syncedTypes), cloudKitDatabase: .private("iCloud.com.example.Notes"))
    }

    static var localConfiguration: ModelConfiguration {
        ModelConfiguration("Local", schema: Schema(localOnlyTypes), cloudKitDatabase: .automatic)
    }

    static var offlineConfiguration: ModelConfiguration {
        ModelConfiguration("CloudKit", schema: Schema(syncedTypes), cloudKitDatabase: .none)
    }
}
