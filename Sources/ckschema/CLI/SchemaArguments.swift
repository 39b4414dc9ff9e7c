import CKSchema

/// How commands find the schema sources they work on: the paths given, else `ckschema.yaml`.
enum SchemaArguments {
    /// The development schema: the given path, or the configured one.
    static func development(_ given: String?, config: Configuration?) throws(UsageError) -> String {
        if let given { return given }
        if let p = config?.developmentSchema { return p }
        throw UsageError(config == nil
            ? "no schema given and no ckschema.yaml found; pass a schema path or run 'ckschema init'"
            : "no schema given and ckschema.yaml names no 'schemas.development'")
    }

    /// The production schema: the given path, or the configured one.
    static func production(_ given: String?, config: Configuration?) throws(UsageError) -> String {
        if let given { return given }
        if let p = config?.productionSchema { return p }
        throw UsageError(config == nil
            ? "no production schema given and no ckschema.yaml found; pass both schema paths"
            : "no production schema given and ckschema.yaml names no 'schemas.production'")
    }
}
