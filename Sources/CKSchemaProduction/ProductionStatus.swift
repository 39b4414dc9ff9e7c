import CKSchemaDiagnostics
import CKSchemaMigrations
import CKSchemaModel
import CKSchemaStore

/// What the store says of its migrations and of production: the one answer `migrate status`
/// and `check`'s migrations step both give. The migrations' status in an environment (sum
/// file, applied, pending, changed, missing, drift from the development schema), and, whatever
/// the environment shown, whether the store's production is the production schema
/// ckschema.yaml names (CK535, CK536, from `ProductionRecord.findings`).
public struct ProductionStatus: Sendable {
    /// The migrations in the environment asked for.
    public var migrations: MigrationStatus
    /// The store's production against ckschema.yaml's production schema.
    public var production: [Diagnostic]

    /// Both, as `migrate status` shows them: the migrations' status with production's findings after its own.
    public var status: MigrationStatus {
        var out = migrations
        out.diagnostics += production
        return out
    }

    /// - Parameters:
    ///   - productionPath: ckschema.yaml's production schema, if it names one.
    ///   - loadProduction: reads that schema (the caller's loader: `check` loads each source
    ///     once); nil means the caller has reported it unreadable, and production is not compared.
    public static func check(
        folder: MigrationFolder, store: Store?, environment: Environment = .development, development: Schema?,
        productionPath: String?, loadProduction: (String) throws(InputError) -> Schema?
    ) throws(InputError) -> ProductionStatus {
        let migrations = try MigrationStatus.check(folder: folder, store: store, environment: environment, development: development)
        var production: [Diagnostic] = []
        if let store, let path = productionPath, let schema = try loadProduction(path) {
            production = try ProductionRecord.findings(store: store, production: schema, path: path, folder: folder)
        }
        return ProductionStatus(migrations: migrations, production: production)
    }
}
