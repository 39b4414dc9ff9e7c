import CKSchema

/// `[FROM] [TO]` of `diff` and `promote`: two schema sources, else the production and
/// development schemas of ckschema.yaml.
struct SchemaPairOptions: ParsableOptions {
    @Positionals(.optional("FROM"), .optional("TO")) var schemas: [String]
    @Group var model: ModelOptions

    var from: String? { schemas.first }
    var to: String? { schemas.count > 1 ? schemas[1] : nil }

    func validate() throws(UsageError) {
        if schemas.count > 2 { throw UsageError("expected at most two schemas, FROM and TO; got \(schemas.count)") }
    }

    /// Both schemas, loaded at once.
    func load(config: Configuration?) throws -> (Schema, Schema) {
        let fromPath = try SchemaArguments.production(from, config: config)
        let toPath = try SchemaArguments.development(to, config: config)
        return try SchemaSource.loadPair(from: fromPath, to: toPath, model: model.selection(config))
    }
}
