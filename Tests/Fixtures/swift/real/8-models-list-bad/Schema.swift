import SwiftData

// `AppSchema.models` is declared in a file this folder does not hold: the reader cannot
// know the models, and says what it found (issue 31 point 8).
enum TripsSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { AppSchema.models }
}

typealias Trip = TripsSchemaV1.Trip
typealias Stop = TripsSchemaV1.Stop
