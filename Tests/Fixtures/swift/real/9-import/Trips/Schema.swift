import SwiftData

// The list of models lives in one place; the VersionedSchema returns it (issue 31 point 8).
enum AppSchema {
    static let models: [any PersistentModel.Type] = [Trip.self, Stop.self]
}

enum TripsSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { AppSchema.models }
}

typealias Trip = TripsSchemaV1.Trip
typealias Stop = TripsSchemaV1.Stop
